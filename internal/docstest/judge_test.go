package docstest

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
)

// scriptedJudge is a local OpenAI-compatible chat server that grades like
// a strict judge: an answer giving the regressed support agent's 7-day
// return deadline scores 0.2, every other answer 0.95. Blocks marked
// "judge" reach it through the EVAL_JUDGE_* variables evalrun reads.
func scriptedJudge(t *testing.T) []string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		body, err := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err != nil || r.URL.Path != "/v1/chat/completions" || json.Unmarshal(body, &req) != nil || len(req.Messages) == 0 {
			http.Error(w, "the docs test's judge expects an OpenAI chat completion request", http.StatusBadRequest)
			return
		}
		user := req.Messages[len(req.Messages)-1].Content
		verdict := `{"reason":"States the expected facts.","score":0.95}`
		if strings.Contains(user, "7 days") {
			verdict = `{"reason":"Gives a 7-day deadline where 30 days is expected.","score":0.2}`
		}
		content, _ := json.Marshal(verdict)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"1","object":"chat.completion","model":"scripted-judge","choices":[{"index":0,`+
			`"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}`, content)
	}))
	t.Cleanup(srv.Close)
	return []string{
		"EVAL_JUDGE_PROVIDER=openai",
		"EVAL_JUDGE_MODEL=scripted-judge",
		"EVAL_JUDGE_BASE_URL=" + srv.URL + "/v1",
		"OPENAI_API_KEY=docs-test-key",
	}
}
