package provider

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/llm"
)

// TestGemini_Replies: the Gemini client joins a streamed reply's chunks
// (text in order, the last finish reason, the last usage counts) and
// turns a blocked prompt or candidate, an empty array and a reply that is
// not an array into errors, never a pass and never a panic.
func TestGemini_Replies(t *testing.T) {
	tests := []struct {
		name, reply        string
		wantText, wantStop string
		wantIn, wantOut    int64
		wantErr            string
	}{
		{name: "chunks joined", reply: `[{"candidates":[{"content":{"role":"model","parts":[{"text":"Hel"}]},"index":0}]},` +
			`{"candidates":[{"content":{"parts":[{"text":"lo"}]},"finishReason":"STOP","index":0}],"usageMetadata":{"promptTokenCount":120,"candidatesTokenCount":30,"totalTokenCount":150}}]`,
			wantText: "Hello", wantStop: "FinishReasonStop", wantIn: 120, wantOut: 30},
		{name: "enums as numbers", reply: `[{"candidates":[{"content":{"parts":[{"text":"cut"}]},"finishReason":2}],"usageMetadata":{"promptTokenCount":7,"candidatesTokenCount":2}}]`,
			wantText: "cut", wantStop: "FinishReasonMaxTokens", wantIn: 7, wantOut: 2},
		{name: "blocked prompt", reply: `[{"promptFeedback":{"blockReason":"SAFETY"}}]`, wantErr: "blocked: prompt: BlockReasonSafety"},
		{name: "blocked candidate", reply: `[{"candidates":[{"content":{"parts":[{"text":"x"}]},"finishReason":3}]}]`, wantErr: "blocked: candidate: FinishReasonSafety"},
		{name: "empty array", reply: `[]`, wantErr: "no content in generation response"},
		{name: "not an array", reply: `{"candidates":[]}`, wantErr: "want a JSON array of responses"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				if r.Header.Get("x-goog-api-key") != testKey || !strings.HasSuffix(r.URL.Path, "/v1beta/models/gm:streamGenerateContent") {
					http.Error(w, "unexpected request", http.StatusBadRequest)
					return
				}
				_, _ = io.Copy(io.Discard, r.Body)
				w.Header().Set("Content-Type", "application/json")
				io.WriteString(w, tc.reply)
			}))
			defer srv.Close()
			c, err := NewClient(llm.Settings{Provider: llm.ProviderGemini, Model: "gm", BaseURL: srv.URL, Timeout: 5 * time.Second,
				Retry: llm.Retry{MaxAttempts: 1}}, Options{Getenv: cloudEnv})
			if err != nil {
				t.Fatal(err)
			}
			r, err := c.Generate(context.Background(), "You grade answers.", "Question?", true)
			if tc.wantErr != "" {
				if err == nil || !strings.Contains(err.Error(), tc.wantErr) {
					t.Fatalf("error = %v, want one saying %q", err, tc.wantErr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if r.Text != tc.wantText || r.StopReason != tc.wantStop || r.Usage.InputTokens != tc.wantIn || r.Usage.OutputTokens != tc.wantOut {
				t.Errorf("reply = %q %q %d+%d, want %q %q %d+%d", r.Text, r.StopReason, r.Usage.InputTokens, r.Usage.OutputTokens,
					tc.wantText, tc.wantStop, tc.wantIn, tc.wantOut)
			}
		})
	}
}
