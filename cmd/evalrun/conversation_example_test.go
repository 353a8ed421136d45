package main

import (
	"net/http/httptest"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/examples/conversation/scripted"
	"github.com/agentevals-go/agentevals/models"
)

// TestConversation_Example runs examples/conversation as its README does,
// offline (the scripted provider plays the simulated user and the judge):
// the reference revision passes; the regressed revision, which forgets the
// order number given in turn 1, fails knowledge_retention and
// goal_completion on both conversations and the gate flags the
// regressions.
func TestConversation_Example(t *testing.T) {
	srv := httptest.NewServer(scripted.Handler())
	defer srv.Close()
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("EVAL_JUDGE_BASE_URL", srv.URL+"/v1")
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "runs.sqlite3")
	st := filepath.Join("..", "..", "examples", "conversation", "suite.json")
	gate := []string{"--database-url", dbURL, "run", st, "--fail-on", "regressions"}

	t.Setenv("AGENT_REVISION", "reference")
	code, out, stderr := evalrun(t, gate...)
	if code != exitOK || !strings.Contains(out, "Passing questions: 2 of 2") {
		t.Fatalf("reference: exit %d\n%s%s", code, out, stderr)
	}
	ref := newestRun(t, dbURL)
	for _, c := range ref.Cases {
		tr := transcriptOf(t, c)
		want := map[string]string{"order-status": models.StopScriptEnd, "broken-item-refund": models.StopGoalReached}[c.CaseID]
		if tr.StopReason != want {
			t.Errorf("reference %s: stop reason %q, want %q", c.CaseID, tr.StopReason, want)
		}
	}

	t.Setenv("AGENT_REVISION", "regressed")
	code, out, stderr = evalrun(t, gate...)
	if code != exitFailed || !strings.Contains(out, "2 regressions") {
		t.Fatalf("regressed: exit %d, want 1 with 2 regressions\n%s%s", code, out, stderr)
	}
	for _, want := range []string{"knowledge_retention new_failure", "goal_completion new_failure", "failing turn 2", "stopped at the turn cap (4)"} {
		if !strings.Contains(out, want) {
			t.Errorf("regressed output lacks %q:\n%s", want, out)
		}
	}
	reg := newestRun(t, dbURL)
	for _, c := range reg.Cases {
		for _, m := range c.Metrics {
			if (m.Name == "knowledge_retention" || m.Name == "goal_completion") && (m.Passed || m.Score == nil || *m.Score > 0.5) {
				t.Errorf("regressed %s: %s passed or scored high (%v)", c.CaseID, m.Name, m.Score)
			}
		}
		tr := transcriptOf(t, c)
		switch c.CaseID {
		case "order-status":
			if tr.FailingTurn == nil || *tr.FailingTurn != 2 {
				t.Errorf("order-status failing turn %v, want 2 (the first turn after the order number was given)", tr.FailingTurn)
			}
		case "broken-item-refund":
			if tr.StopReason != models.StopMaxTurns || len(tr.Turns) != 4 {
				t.Errorf("broken-item-refund: stop %q after %d turns, want the cap of 4", tr.StopReason, len(tr.Turns))
			}
		}
	}
}
