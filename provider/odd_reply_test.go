package provider

import (
	"context"
	"errors"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/score"
)

// TestGenerate_OddGeminiReplies: replies a Gemini client does not expect
// fail their call with a provider error, never a panic of the run.
func TestGenerate_OddGeminiReplies(t *testing.T) {
	for _, reply := range []string{`[]`, `[{}]`, `[{"candidates":[]}]`} {
		t.Run(reply, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "application/json")
				_, _ = io.WriteString(w, reply)
			}))
			defer srv.Close()
			c, err := NewClient(llm.Settings{Provider: llm.ProviderGemini, Model: "gm", BaseURL: srv.URL, Timeout: 5 * time.Second,
				Retry: llm.Retry{MaxAttempts: 1}}, Options{Getenv: cloudEnv})
			if err != nil {
				t.Fatal(err)
			}
			_, err = c.Generate(context.Background(), "You grade answers.", "Question?", true)
			var se *score.Error
			if err == nil || !errors.As(err, &se) || se.Kind != score.KindProviderError {
				t.Fatalf("Generate = %v, want a %s error", err, score.KindProviderError)
			}
			if strings.Contains(err.Error(), "goroutine") {
				t.Errorf("error carries a stack: %v", err)
			}
		})
	}
}
