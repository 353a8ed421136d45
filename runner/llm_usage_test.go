package runner

import (
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/provider"
)

// TestExecute_JudgeUsageAccount: the per-metric accounts in
// response_metadata.judge_usage and the summary's judge_usage are one
// account, equal to the judge's own totals: a verdict, a failed call whose
// usage is known, a retry that then succeeds, and, on a second run, cache
// hits that cost 0 while the first run's unknown price stays null.
func TestExecute_JudgeUsageAccount(t *testing.T) {
	srv, _ := judgeServer(t)
	var first atomic.Bool
	flaky := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if !first.Swap(true) { // the first request of the run fails once
			http.Error(w, `{"error":{"message":"overloaded"}}`, http.StatusInternalServerError)
			return
		}
		srv.Config.Handler.ServeHTTP(w, r)
	}))
	defer flaky.Close()
	s := mustLoad(t, `{"suite": "Usage", "agent": {"name": "A", "command": ["true"]},
	  "judge": {"provider": "openai", "model": "judge"},
	  "questions": [
	    {"id": "good", "question": "q", "expected_answer": "30 days", "minimum_scores": {"semantic_accuracy": 0.5}},
	    {"id": "bad", "question": "q", "expected_answer": "30 days", "minimum_scores": {"semantic_accuracy": 0.5}}]}`)
	a := answers(map[string]string{"good": "30 days", "bad": "MALFORMED"})
	cache, err := provider.OpenCache(filepath.Join(t.TempDir(), "cache"))
	if err != nil {
		t.Fatal(err)
	}
	judge, err := provider.NewJudge(llm.Settings{Provider: "openai", Model: "judge", BaseURL: flaky.URL + "/v1",
		Timeout: 5 * time.Second, Retry: llm.Retry{MaxAttempts: 2, Backoff: time.Millisecond}},
		provider.Options{Getenv: func(string) string { return "" }}, cache)
	if err != nil {
		t.Fatal(err)
	}
	run := mustExecute(t, s, a, ExecOptions{Judge: judge, Concurrency: 1})
	good, bad := caseUsage(t, run, "good"), caseUsage(t, run, "bad")
	if good.Calls != 1 || good.Attempts != 2 || good.Errors != 0 || good.InputTokens != 100 || good.Cost != nil {
		t.Errorf("good (500 then verdict) = %+v, want 1 call, 2 attempts, 100 tokens, unknown cost", good)
	}
	if bad.Calls != 1 || bad.Errors != 1 || bad.InputTokens != 100 || bad.OutputTokens != 20 || bad.Cost != nil {
		t.Errorf("bad (unusable reply) = %+v, want 1 failed call with its 100/20 tokens and unknown cost", bad)
	}
	sum := summaryOf(t, run)
	want := map[string]any{"calls": 2.0, "errors": 1.0, "attempts": 3.0, "cached": 0.0,
		"input_tokens": 200.0, "output_tokens": 40.0, "cost": nil}
	checkJudgeUsage(t, "first run", sum["judge_usage"], want)
	tot, _ := json.Marshal(judge.Totals().CallAccount)
	var totals map[string]any
	json.Unmarshal(tot, &totals)
	checkJudgeUsage(t, "judge totals", totals, want)
	if sum["input_tokens"] != nil || sum["cost"] != nil {
		t.Errorf("agent usage = %v / %v, want null: judge usage never counts there", sum["input_tokens"], sum["cost"])
	}

	// The second run: the good verdict comes from the cache (errors are
	// never cached, so the bad one is asked again).
	again := mustExecute(t, s, a, ExecOptions{Judge: judge, Concurrency: 1})
	if g := caseUsage(t, again, "good"); g.Cached != 1 || g.Calls != 0 || g.InputTokens != 0 || g.Cost == nil || *g.Cost != 0 {
		t.Errorf("cached verdict = %+v, want 1 cached, no call, no tokens, cost 0", g)
	}
	checkJudgeUsage(t, "second run", summaryOf(t, again)["judge_usage"], map[string]any{"calls": 1.0, "errors": 1.0,
		"attempts": 1.0, "cached": 1.0, "input_tokens": 100.0, "output_tokens": 20.0, "cost": nil})
}

func caseUsage(t *testing.T, run *models.Run, id string) models.CallAccount {
	t.Helper()
	for _, c := range run.Cases {
		if c.CaseID != id {
			continue
		}
		var meta struct {
			JudgeUsage map[string]models.CallAccount `json:"judge_usage"`
		}
		if err := c.ResponseMetadata.Decode(&meta); err != nil {
			t.Fatal(err)
		}
		acc, ok := meta.JudgeUsage["semantic_accuracy"]
		if !ok {
			t.Fatalf("case %s: no judge_usage.semantic_accuracy in %s", id, c.ResponseMetadata)
		}
		return acc
	}
	t.Fatalf("no case %s", id)
	return models.CallAccount{}
}

func checkJudgeUsage(t *testing.T, label string, got any, want map[string]any) {
	t.Helper()
	g, _ := json.Marshal(got)
	w, _ := json.Marshal(want)
	if string(g) != string(w) {
		t.Errorf("%s judge_usage = %s\nwant %s", label, g, w)
	}
}
