package evaltest_test

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"sync/atomic"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// judgeServer is a local OpenAI-compatible chat server grading every
// answer 0.95, counting its calls.
func judgeServer(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	return scriptedJudgeServer(t, `{"reason":"States the policy's facts.","score":0.95}`)
}

// scriptedJudgeServer is a local OpenAI-compatible chat server replying
// verdict to every request, counting its calls.
func scriptedJudgeServer(t *testing.T, verdict string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		body, _ := io.ReadAll(r.Body)
		var req struct{ Messages []struct{ Content string } }
		if r.URL.Path != "/v1/chat/completions" || json.Unmarshal(body, &req) != nil || len(req.Messages) != 2 {
			http.Error(w, "unexpected request", http.StatusBadRequest)
			return
		}
		content, _ := json.Marshal(verdict)
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"1","object":"chat.completion","model":"judge","choices":[{"index":0,`+
			`"message":{"role":"assistant","content":%s},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":100,"completion_tokens":20,"total_tokens":120}}`, content)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// TestRun_judgeFromEnvironment: a judge configured by evalrun's
// environment variables scores the suite's judge metric and the
// single-answer judge assertion; under -short nothing calls it and both
// say why they were skipped.
func TestRun_judgeFromEnvironment(t *testing.T) {
	srv, calls := judgeServer(t)
	u := testdb.SQLiteURL(t)
	env := []string{"EVAL_JUDGE_MODEL=judge", "EVAL_JUDGE_BASE_URL=" + srv.URL + "/v1", "OPENAI_API_KEY=", "EVALTEST_DATABASE_URL=" + u}

	out, ok := goTest(t, env, "-v")
	if !ok {
		t.Fatalf("go test with a judge failed:\n%s", out)
	}
	wantAll(t, "with a judge", out,
		"semantic_accuracy: score 0.950 (threshold 0.900): States the policy's facts.",
		"faithfulness: score 0.950 (threshold 0.900): States the policy's facts.",
		"--- PASS: TestWarrantyAnswer/faithful")
	if got, want := calls.Load(), int64(2); got != want {
		t.Errorf("judge calls %d, want %d (one metric of one question, one assertion)", got, want)
	}

	checkJudgeSummary(t, u)

	calls.Store(0)
	out, ok = goTest(t, env, "-v", "-short")
	if !ok {
		t.Fatalf("go test -short failed:\n%s", out)
	}
	wantAll(t, "-short", out,
		"not evaluated: semantic_accuracy: skipped under -short: judge-backed checks call a model",
		"faithfulness: not evaluated: skipped under -short",
		"--- SKIP: TestWarrantyAnswer/faithful")
	if n := calls.Load(); n != 0 {
		t.Errorf("-short: the judge was called %d times", n)
	}
}

// checkJudgeSummary checks that the saved run says which judge ran, as an
// evalrun run's summary does.
func checkJudgeSummary(t *testing.T, u string) {
	t.Helper()
	db, err := models.Open(t.Context(), u, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, _, err := db.ListRuns(t.Context(), models.RunFilter{Suite: "Support (go test)", Limit: 1})
	if err != nil || len(runs) != 1 {
		t.Fatalf("saved runs: %v, %v", runs, err)
	}
	var sum struct {
		Judge struct{ Provider, Model string }
	}
	if err := json.Unmarshal(runs[0].Summary, &sum); err != nil || sum.Judge.Provider != "openai" || sum.Judge.Model != "judge" {
		t.Errorf("run summary %s: want judge openai/judge", runs[0].Summary)
	}
}
