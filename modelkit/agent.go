package modelkit

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/provider"
)

// llmAgent is the "llm" agent type (adapter.Options.LLM): it evaluates a
// provider, model and system prompt directly. Each question is one fresh conversation (system
// prompt + the question as the user message); the model's text is the
// output, actions are nil (a bare model call is not instrumented) and the
// model's usage is the agent's usage.
type llmAgent struct {
	client *provider.Client
	system string
}

var _ agent.Agent = (*llmAgent)(nil)

// NewAgent validates the model settings and builds the agent that asks
// that model with the system prompt. The provider's credential comes from
// its usual environment variable. o's Limiter and Prices apply; its HTTP
// client is the agent's own.
func NewAgent(s llm.Settings, system string, o provider.Options) (agent.Agent, error) {
	o.HTTPClient = &http.Client{Transport: caseTransport{}}
	c, err := provider.NewClient(s, o)
	if err != nil {
		return nil, fmt.Errorf("new llm agent: %w", err)
	}
	return &llmAgent{client: c, system: system}, nil
}

// Answer asks the model the question.
func (a *llmAgent) Answer(ctx context.Context, q agent.Question) (agent.Response, error) {
	var reply provider.Reply
	var err error
	if q.InConversation() { // the provider's chat history (agent/history.go)
		history := make([]llm.ChatMessage, len(q.Messages))
		for i, m := range q.Messages {
			history[i] = llm.ChatMessage{Role: m.Role, Content: m.Content}
		}
		reply, err = a.client.Chat(ctx, a.system, history, false)
	} else {
		reply, err = a.client.Generate(ctx, a.system, questionText(q.Question), false)
	}
	if err != nil {
		return agent.Response{}, fmt.Errorf("llm agent: %w", err)
	}
	out, err := json.Marshal(reply.Text)
	if err != nil {
		return agent.Response{}, fmt.Errorf("llm agent: %w", err)
	}
	in, outTok := reply.Usage.InputTokens, reply.Usage.OutputTokens
	s := a.client.Settings()
	meta := map[string]any{"provider": s.Provider, "model": s.Model}
	if len(reply.Attempts) > 1 {
		meta["attempts"] = reply.Attempts
	}
	return agent.Response{Output: out, Actions: nil, InputTokens: &in, OutputTokens: &outTok,
		Cost: reply.Usage.Cost, Metadata: meta}, nil
}

// questionText is a JSON string question's text, or the compact JSON of a
// structured question.
func questionText(raw json.RawMessage) string {
	var s string
	if err := json.Unmarshal(raw, &s); err == nil {
		return s
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return string(raw)
	}
	return b.String()
}

// caseTransport sends each request through the transport of the case's
// HTTP client (WithHTTPClient), so strict API replay can intercept the
// model calls of an llm agent as it does for Go function agents.
type caseTransport struct{}

var _ http.RoundTripper = caseTransport{}

// RoundTrip forwards req through the case's transport.
func (caseTransport) RoundTrip(req *http.Request) (*http.Response, error) {
	rt := agent.HTTPClient(req.Context()).Transport
	if rt == nil {
		rt = http.DefaultTransport
	}
	return rt.RoundTrip(req)
}
