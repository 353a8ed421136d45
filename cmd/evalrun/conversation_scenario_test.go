package main

import (
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/examples/conversation/scripted"
	"github.com/agentevals-go/agentevals/models"
)

// TestConversation_ScenarioWithoutJudgeMetric: a scenario checked only by
// conversation_turns, with a judge configured, runs: the judge's model
// plays the user although no metric is judge-scored.
func TestConversation_ScenarioWithoutJudgeMetric(t *testing.T) {
	srv := httptest.NewServer(scripted.Handler())
	defer srv.Close()
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("EVAL_JUDGE_BASE_URL", srv.URL+"/v1")
	t.Setenv("AGENT_REVISION", "reference")
	dir := t.TempDir()
	agentPy, err := filepath.Abs(filepath.Join("..", "..", "examples", "conversation", "agent.py"))
	if err != nil {
		t.Fatal(err)
	}
	st := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(st, []byte(`{"suite": "Scenario turns", "version": "1",
	  "agent": {"name": "SupportBot", "command": ["python3", "agent.py"], "dir": `+strconv.Quote(filepath.Dir(agentPy))+`, "env": ["AGENT_REVISION"], "timeout": "10s"},
	  "judge": {"provider": "openai", "model": "scripted-judge"},
	  "questions": [{"id": "broken-item-refund",
	    "scenario": {"goal": "Get a refund for order A-1042, which arrived broken.",
	      "user_description": "A customer who gives the order number once, in the first message, and expects the agent to remember it.",
	      "expected_outcome": "The agent confirms a refund for order A-1042.",
	      "opening_message": "My order A-1042 arrived broken.", "max_turns": 4},
	    "checks": [{"type": "conversation_turns", "max": 4}]}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	dbURL := "sqlite:" + filepath.Join(dir, "runs.sqlite3")
	code, out, stderr := evalrun(t, "--database-url", dbURL, "run", st)
	if code != exitOK || !strings.Contains(out, "Passing questions: 1 of 1") {
		t.Fatalf("exit %d, want 0 with the scenario passing\n%s%s", code, out, stderr)
	}
	tr := transcriptOf(t, newestRun(t, dbURL).Cases[0])
	if tr.Kind != "simulated" || len(tr.Turns) < 2 || tr.StopReason == models.StopSimulatorError {
		t.Errorf("transcript: kind %q, %d turns, stop %q; want a simulated conversation past its opening", tr.Kind, len(tr.Turns), tr.StopReason)
	}
}
