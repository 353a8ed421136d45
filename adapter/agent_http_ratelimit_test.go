package adapter

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/modelkit"
	"github.com/agentevals-go/agentevals/suite"
)

// TestHTTPAgent_RetryAfter: an http agent that answers 429 is asked again
// after the Retry-After it names (seconds or an HTTP-date), and the shared
// limiter counts the 429s; a 429 that outlasts the case's timeout is the
// case's error.
func TestHTTPAgent_RetryAfter(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		switch calls.Add(1) {
		case 1:
			w.Header().Set("Retry-After", "0.05")
			http.Error(w, "slow down", http.StatusTooManyRequests)
		case 2:
			w.Header().Set("Retry-After", time.Now().Add(2*time.Second).UTC().Format(http.TimeFormat))
			http.Error(w, "slow down", http.StatusServiceUnavailable)
		default:
			io.WriteString(w, `{"output":"ok"}`)
		}
	}))
	defer srv.Close()
	limiter := llm.NewLimiter()
	cfg := suite.AgentConfig{Name: "A", Type: suite.AgentHTTP, URL: srv.URL, Timeout: suite.Duration(10 * time.Second)}
	a, err := New(cfg, Options{Concurrency: 1, Limiter: limiter})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := a.Answer(context.Background(), agent.Question{ID: "q", Question: []byte(`"hi"`)})
	if err != nil || string(resp.Output) != `"ok"` {
		t.Fatalf("answer %s, %v", resp.Output, err)
	}
	if got, want := calls.Load(), int64(3); got != want {
		t.Errorf("%d requests, want %d", got, want)
	}
	if got := limiter.Stats().RateLimited; got != 1 {
		t.Errorf("limiter saw %d 429s, want 1", got)
	}

	calls.Store(0)
	short := suite.AgentConfig{Name: "A", Type: suite.AgentHTTP, URL: srv.URL, Timeout: suite.Duration(200 * time.Millisecond)}
	srv.Config.Handler = http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Retry-After", "30")
		http.Error(w, "slow down", http.StatusTooManyRequests)
	})
	a, err = New(short, Options{Concurrency: 1})
	if err != nil {
		t.Fatal(err)
	}
	_, err = a.Answer(context.Background(), agent.Question{ID: "q", Question: []byte(`"hi"`)})
	var ae *Error
	if !errors.As(err, &ae) || ae.Kind != "http_status" {
		t.Errorf("a 429 beyond the timeout: %v, want the http_status error", err)
	}
}

// TestLLMAgent_RetryAfter: an llm agent's model call that gets a 429 with
// Retry-After is repeated after it, through the agent's shared limiter.
func TestLLMAgent_RetryAfter(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		if calls.Add(1) == 1 {
			w.Header().Set("Retry-After", "0.05")
			http.Error(w, `{"error":{"message":"Rate limit reached","type":"requests"}}`, http.StatusTooManyRequests)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"1","object":"chat.completion","model":"m","choices":[{"index":0,`+
			`"message":{"role":"assistant","content":"Thirty days."},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":5,"completion_tokens":2,"total_tokens":7}}`)
	}))
	defer srv.Close()
	t.Setenv("OPENAI_API_KEY", "agent-key")
	limiter := llm.NewLimiter()
	a, err := New(suite.AgentConfig{Name: "Model", Type: suite.AgentLLM, LLM: &suite.ModelConfig{
		Provider: "openai", Model: "m", BaseURL: srv.URL + "/v1"}}, Options{Limiter: limiter, LLM: modelkit.Models{}.Agent})
	if err != nil {
		t.Fatal(err)
	}
	resp, err := a.Answer(context.Background(), agent.Question{ID: "q", Question: []byte(`"How long?"`)})
	if err != nil || string(resp.Output) != `"Thirty days."` {
		t.Fatalf("answer %s, %v", resp.Output, err)
	}
	if st := limiter.Stats(); calls.Load() != 2 || st.RateLimited != 1 {
		t.Errorf("%d requests, limiter saw %d 429s; want 2 and 1", calls.Load(), st.RateLimited)
	}
}
