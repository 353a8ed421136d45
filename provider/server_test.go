package provider

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/llm"
)

// testKey is the fake credential the scripted servers expect; tests check it
// never reaches error details.
const testKey = "test-key-4f9a2c71"

// step is one scripted reply: a status with either a verdict text wrapped
// in the provider's reply format (content) or a raw body.
type step struct {
	status  int
	content string
	body    string
	raw     bool          // send body as is (empty allowed)
	delay   time.Duration // wait before replying (ends early if the client gives up)
	header  map[string]string
}

// seen is one request the server received.
type seen struct {
	path   string
	header http.Header
	body   map[string]any
}

// scripted is a local server speaking one provider's chat API, replying with
// its steps in order (the last step repeats).
type scripted struct {
	provider string
	srv      *httptest.Server

	mu       sync.Mutex
	steps    []step
	requests []seen
}

func newScripted(tb testing.TB, provider string, steps ...step) *scripted {
	tb.Helper()
	s := &scripted{provider: provider, steps: steps}
	s.srv = httptest.NewServer(s)
	tb.Cleanup(s.srv.Close)
	return s
}

// settings returns judge settings pointing at the server, with fast retries.
func (s *scripted) settings() llm.Settings {
	base := s.srv.URL + "/v1"
	if s.provider == llm.ProviderOllama {
		base = s.srv.URL
	}
	return llm.Settings{
		Provider: s.provider, Model: "judge-model", BaseURL: base, Timeout: 2 * time.Second,
		Retry: llm.Retry{MaxAttempts: 3, Backoff: time.Millisecond, MaxBackoff: 5 * time.Millisecond},
	}
}

func (s *scripted) count() int {
	s.mu.Lock()
	defer s.mu.Unlock()
	return len(s.requests)
}

func (s *scripted) last() seen {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.requests[len(s.requests)-1]
}

func (s *scripted) wantPath() string {
	switch s.provider {
	case llm.ProviderOpenAI:
		return "/v1/chat/completions"
	case llm.ProviderAnthropic:
		return "/v1/messages"
	}
	return "/api/chat"
}

func (s *scripted) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	raw, _ := io.ReadAll(r.Body)
	var body map[string]any
	_ = json.Unmarshal(raw, &body)
	s.mu.Lock()
	n := len(s.requests)
	s.requests = append(s.requests, seen{path: r.URL.Path, header: r.Header.Clone(), body: body})
	st := step{status: 500, raw: true}
	if len(s.steps) > 0 {
		st = s.steps[min(n, len(s.steps)-1)]
	}
	s.mu.Unlock()
	if r.URL.Path != s.wantPath() {
		http.Error(w, "unexpected path "+r.URL.Path, http.StatusNotFound)
		return
	}
	if st.delay > 0 {
		select {
		case <-time.After(st.delay):
		case <-r.Context().Done():
			return
		}
	}
	for k, v := range st.header {
		w.Header().Set(k, v)
	}
	out := st.body
	if !st.raw && out == "" {
		out = replyBody(s.provider, st.content)
	}
	if out != "" {
		w.Header().Set("Content-Type", "application/json")
	}
	w.WriteHeader(st.status)
	io.WriteString(w, out)
}

// replyBody wraps text in a successful reply of the provider's API, with
// 120 input and 30 output tokens of usage.
func replyBody(provider, text string) string {
	t, _ := json.Marshal(text)
	switch provider {
	case llm.ProviderOpenAI:
		return fmt.Sprintf(`{"id":"chatcmpl-1","object":"chat.completion","created":1,"model":"judge-model",`+
			`"choices":[{"index":0,"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":120,"completion_tokens":30,"total_tokens":150}}`, t)
	case llm.ProviderAnthropic:
		return fmt.Sprintf(`{"id":"msg_1","type":"message","role":"assistant","model":"judge-model",`+
			`"content":[{"type":"text","text":%s}],"stop_reason":"end_turn",`+
			`"usage":{"input_tokens":120,"output_tokens":30}}`, t)
	}
	return fmt.Sprintf(`{"model":"judge-model","created_at":"2026-11-30T00:00:00Z",`+
		`"message":{"role":"assistant","content":%s},"done":true,"prompt_eval_count":120,"eval_count":30}`, t)
}

// errorBody is the provider's JSON error body for a status.
func errorBody(provider string, status int, msg string) step {
	m, _ := json.Marshal(msg)
	var b string
	switch provider {
	case llm.ProviderOpenAI:
		b = fmt.Sprintf(`{"error":{"message":%s,"type":"error","code":"e%d"}}`, m, status)
	case llm.ProviderAnthropic:
		b = fmt.Sprintf(`{"type":"error","error":{"type":"api_error","message":%s}}`, m)
	default:
		b = fmt.Sprintf(`{"error":%s}`, m)
	}
	return step{status: status, body: b}
}

func testOptions() Options {
	return Options{Getenv: func(k string) string {
		if k == "OPENAI_API_KEY" || k == "ANTHROPIC_API_KEY" {
			return testKey
		}
		return ""
	}}
}

var allProviders = []string{llm.ProviderOpenAI, llm.ProviderAnthropic, llm.ProviderOllama}
