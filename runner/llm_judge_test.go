package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/provider"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// judgeServer is a local OpenAI-compatible chat server that grades like a
// strict judge would: answers stating "14 days" get 0.2, an answer carrying
// MALFORMED gets a reply that is not JSON, everything else 0.95.
func judgeServer(tb testing.TB) (*httptest.Server, *atomic.Int64) {
	tb.Helper()
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		var req struct {
			Messages []struct{ Content string } `json:"messages"`
		}
		body, _ := io.ReadAll(r.Body)
		if r.URL.Path != "/v1/chat/completions" || json.Unmarshal(body, &req) != nil || len(req.Messages) != 2 {
			http.Error(w, "unexpected request", http.StatusBadRequest)
			return
		}
		user := req.Messages[1].Content
		verdict := `{"reason":"States the expected facts.","score":0.95}`
		switch {
		case strings.Contains(user, "MALFORMED"):
			verdict = "I think it is fine."
		case strings.Contains(user, "14 days"):
			verdict = `{"reason":"Contradicts the 30-day deadline.","score":0.2}`
		}
		content, _ := json.Marshal(verdict)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"1","object":"chat.completion","model":"judge","choices":[{"index":0,`+
			`"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}`, content)
	}))
	tb.Cleanup(srv.Close)
	return srv, &calls
}

const judgedSuite = `{
  "suite": "Judged support", "version": "1",
  "agent": {"name": "Scripted", "command": ["true"]},
  "judge": {"provider": "openai", "model": "judge"},
  "questions": [
    {"id": "returns", "question": "How long do I have to return an item?",
     "expected_answer": "You can return it within 30 days.",
     "expected_actions": [{"group": "policies", "name": "lookup_policy", "arguments": {"topic": "returns"}}],
     "minimum_scores": {"semantic_accuracy": 0.9, "action_group": 1},
     "metadata": {"important_facts": ["The return deadline is 30 days."]}},
    {"id": "regressed", "question": "How long do I have to return a gift?",
     "expected_answer": "You can return it within 30 days.",
     "minimum_scores": {"semantic_accuracy": 0.9, "answer_relevancy": 0.9}},
    {"id": "unjudgeable", "question": "How long is the warranty?",
     "expected_answer": "Two years.",
     "minimum_scores": {"semantic_accuracy": 0.9}}
  ]
}`

func judgedAgent() agent.Agent {
	answers := map[string]string{
		"returns":     "You have a month (30 days) to send it back.",
		"regressed":   "You have 14 days.",
		"unjudgeable": "MALFORMED two years",
	}
	return agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		out, _ := json.Marshal(answers[q.ID])
		return agent.Response{Output: out, Actions: []score.Action{{Group: "policies", Name: "lookup_policy",
			Arguments: json.RawMessage(`{"topic":"returns"}`)}}}, nil
	})
}

// TestExecute_WithAndWithoutJudge runs one suite with a scripted-server
// judge and again with none, and checks statuses, nulls, errors, judge
// usage and that the fingerprints differ.
func TestExecute_WithAndWithoutJudge(t *testing.T) {
	path := filepath.Join(t.TempDir(), "suite.json")
	if err := os.WriteFile(path, []byte(judgedSuite), 0o600); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	srv, calls := judgeServer(t)
	judge, err := provider.NewJudge(llm.Settings{Provider: "openai", Model: "judge", BaseURL: srv.URL + "/v1",
		Timeout: 5 * time.Second, Retry: llm.Retry{MaxAttempts: 2, Backoff: time.Millisecond}},
		provider.Options{Getenv: func(string) string { return "" }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	ctx := context.Background()
	judged, err := Execute(ctx, s, judgedAgent(), ExecOptions{Judge: judge, Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	bare, err := Execute(ctx, s, judgedAgent(), ExecOptions{Concurrency: 2})
	if err != nil {
		t.Fatal(err)
	}
	if got := calls.Load(); got != 4 {
		t.Errorf("judge calls = %d, want 4 (one per judge metric of the judged run only)", got)
	}
	if judged.SuiteDigest == bare.SuiteDigest {
		t.Error("a run without a judge has the fingerprint of a judged run")
	}
	checkCases(t, "judged", judged, map[string]string{
		"returns": models.StatusPassed, "regressed": models.StatusFailed, "unjudgeable": models.StatusError,
	})
	checkCases(t, "bare", bare, map[string]string{
		"returns": models.StatusPassed, "regressed": models.StatusNotEvaluated, "unjudgeable": models.StatusNotEvaluated,
	})
	sa := metric(t, judged, "returns", "semantic_accuracy")
	if sa.Score == nil || *sa.Score != 0.95 || !sa.Passed || sa.Reason == nil || *sa.Reason != "States the expected facts." {
		t.Errorf("judged semantic_accuracy = %+v", sa)
	}
	if m := metric(t, judged, "regressed", "semantic_accuracy"); m.Score == nil || *m.Score != 0.2 || m.Passed {
		t.Errorf("regressed semantic_accuracy = %+v, want 0.2 failed", m)
	}
	bad := metric(t, judged, "unjudgeable", "semantic_accuracy")
	if bad.Score != nil || bad.Passed || !strings.Contains(string(bad.ErrorDetails), score.KindInvalidReply) ||
		!strings.Contains(string(bad.ErrorDetails), "I think it is fine.") {
		t.Errorf("unjudgeable metric = score %v passed %v details %s, want an invalid_reply error with the raw reply",
			bad.Score, bad.Passed, bad.ErrorDetails)
	}
	for _, id := range []string{"returns", "regressed", "unjudgeable"} {
		m := metric(t, bare, id, "semantic_accuracy")
		if m.Score != nil || m.Passed || !m.ErrorDetails.IsNull() {
			t.Errorf("bare %s semantic_accuracy = %+v, want null and not an error", id, m)
		}
	}
	var js, bs map[string]any
	if err := judged.Summary.Decode(&js); err != nil {
		t.Fatal(err)
	}
	if err := bare.Summary.Decode(&bs); err != nil {
		t.Fatal(err)
	}
	if ju, _ := js["judge_usage"].(map[string]any); ju == nil || ju["input_tokens"] != 400.0 || ju["calls"] != 4.0 || ju["errors"] != 1.0 {
		t.Errorf("judged judge_usage = %v, want 4 calls (1 failed) and 400 input tokens: the unusable reply was billed too", js["judge_usage"])
	}
	if bs["judge_usage"] != nil {
		t.Errorf("bare judge_usage = %v, want null", bs["judge_usage"])
	}
	if js["input_tokens"] != nil || bs["input_tokens"] != nil {
		t.Errorf("agent input_tokens = %v / %v, want null (the agent reported none; judge tokens never count)",
			js["input_tokens"], bs["input_tokens"])
	}
}

func checkCases(t *testing.T, label string, run *models.Run, want map[string]string) {
	t.Helper()
	for _, c := range run.Cases {
		if c.Status != want[c.CaseID] {
			t.Errorf("%s %s status = %s, want %s", label, c.CaseID, c.Status, want[c.CaseID])
		}
	}
}

func metric(t *testing.T, run *models.Run, caseID, name string) *models.MetricResult {
	t.Helper()
	for _, c := range run.Cases {
		for _, m := range c.Metrics {
			if c.CaseID == caseID && m.Name == name {
				return m
			}
		}
	}
	t.Fatalf("no metric %s on case %s", name, caseID)
	return nil
}
