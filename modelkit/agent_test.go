package modelkit

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/provider"
	"github.com/agentevals-go/agentevals/score"
)

// countingTransport counts the requests of one case's HTTP client.
type countingTransport struct{ n atomic.Int64 }

func (c *countingTransport) RoundTrip(r *http.Request) (*http.Response, error) {
	c.n.Add(1)
	return http.DefaultTransport.RoundTrip(r)
}

func TestLLMAgent_Answer(t *testing.T) {
	var lastBody atomic.Value
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		b, _ := io.ReadAll(r.Body)
		lastBody.Store(string(b))
		if r.Header.Get("x-api-key") != "agent-key" || r.URL.Path != "/v1/messages" {
			http.Error(w, `{"type":"error","error":{"type":"authentication_error","message":"bad key"}}`, http.StatusUnauthorized)
			return
		}
		if strings.Contains(string(b), "warranty") {
			http.Error(w, `{"type":"error","error":{"type":"invalid_request_error","message":"bad request"}}`, http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"m","type":"message","role":"assistant","model":"claude-test","stop_reason":"end_turn",`+
			`"content":[{"type":"text","text":"You can return it "},{"type":"text","text":"within 30 days."}],`+
			`"usage":{"input_tokens":42,"output_tokens":7}}`)
	}))
	defer srv.Close()
	t.Setenv("ANTHROPIC_API_KEY", "agent-key")
	a, err := Models{}.Agent(llm.Settings{Provider: "anthropic", Model: "claude-test", BaseURL: srv.URL + "/v1"},
		"You are a support agent.", nil, nil)
	if err != nil {
		t.Fatal(err)
	}
	var ct countingTransport
	ctx := agent.WithHTTPClient(context.Background(), &http.Client{Transport: &ct})
	resp, err := a.Answer(ctx, agent.Question{ID: "returns", Question: json.RawMessage(`"How long do I have to return an item?"`)})
	if err != nil {
		t.Fatal(err)
	}
	if got, want := string(resp.Output), `"You can return it within 30 days."`; got != want {
		t.Errorf("output = %s, want %s", got, want)
	}
	if resp.Actions != nil {
		t.Errorf("actions = %v, want nil (not instrumented)", resp.Actions)
	}
	if resp.InputTokens == nil || *resp.InputTokens != 42 || resp.OutputTokens == nil || *resp.OutputTokens != 7 || resp.Cost != nil {
		t.Errorf("usage = %v/%v cost %v, want 42/7 and unknown cost", resp.InputTokens, resp.OutputTokens, resp.Cost)
	}
	body, _ := lastBody.Load().(string)
	if !strings.Contains(body, `"system":"You are a support agent."`) || !strings.Contains(body, "How long do I have to return an item?") {
		t.Errorf("request body = %s, want the system prompt and the question", body)
	}
	if ct.n.Load() != 1 {
		t.Errorf("case transport saw %d requests, want 1 (replay must be able to intercept)", ct.n.Load())
	}

	_, err = a.Answer(context.Background(), agent.Question{ID: "warranty", Question: json.RawMessage(`{"topic":"warranty"}`)})
	var je *score.Error
	if !errors.As(err, &je) || je.Kind != score.KindProviderError {
		t.Errorf("error = %v, want a provider_error *score.Error", err)
	}
}

func TestLLMAgent_InvalidConfig(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	for _, cfg := range []llm.Settings{
		{Provider: "openai", Model: "gpt-4o-mini"}, // no key
		{Provider: "ollama", Model: "m", BaseURL: "http://[::1"},
		{Provider: "vertex", Model: "m"},
	} {
		if _, err := NewAgent(cfg, "", provider.Options{}); !errors.Is(err, llm.ErrInvalidSettings) {
			t.Errorf("%+v: err = %v, want ErrInvalidSettings", cfg, err)
		}
	}
}
