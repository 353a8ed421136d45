package runner

import (
	"fmt"
	"os/exec"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/provider"
	"github.com/agentevals-go/agentevals/suite"
)

// TestExecute_ReplayJudgeBypassesReplay scores cases with fixtures with a
// scripted judge server on loopback, for a Go agent (replay in process)
// and a command agent (replay through a proxy): the judge is called once
// per case and never appears among the observed requests, and every case
// is judged and passes.
func TestExecute_ReplayJudgeBypassesReplay(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for this test (Debian package python3): %v", err)
	}
	t.Setenv("SCHEME", "https")
	t.Setenv("OFFSET", "0")
	for _, kind := range []string{"go", "command"} {
		t.Run(kind, func(t *testing.T) {
			srv, calls := judgeServer(t)
			judge, err := provider.NewJudge(llm.Settings{Provider: "openai", Model: "judge", BaseURL: srv.URL + "/v1",
				Timeout: 5 * time.Second, Retry: llm.Retry{MaxAttempts: 1}},
				provider.Options{Getenv: func(string) string { return "" }}, nil)
			if err != nil {
				t.Fatal(err)
			}
			agentCfg := `{"name": "GoShipping"}`
			if kind == "command" {
				agentCfg = fmt.Sprintf(`{"name": "PyShipping", "command": [%q, "agent.py"], "env": ["OFFSET", "SCHEME"]}`, python)
			}
			path := rpSuite(t, `{"suite": "Judged shipping", "agent": `+agentCfg+`, "judge": {"provider": "openai", "model": "judge"},
			  "evaluators": {"exact": {"type": "exact_match"}, "facts": {"type": "semantic_accuracy"}},
			  "questions": [`+rpQuestions(3)+`]}`, rpFixtureFiles(3, map[string]string{"agent.py": rpPythonCommand}))
			s, err := suite.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			var a agent.Agent = goShippingAgent(0)
			if kind == "command" {
				a = mustAgent(t, s.Agent, adapter.Options{Concurrency: 3})
			}
			run := mustExecute(t, s, a, ExecOptions{Judge: judge, Concurrency: 3})
			if got := calls.Load(); got != 3 {
				t.Errorf("judge calls = %d, want 3 (one per case)", got)
			}
			judgeHost := strings.TrimPrefix(srv.URL, "http://")
			for _, c := range run.Cases {
				ev := replayEvidence(t, c)
				obs, _ := ev["observed"].([]any)
				if len(obs) != 1 || ev["passed"] != true {
					t.Errorf("case %s: observed %v (passed %v), want only the agent's order lookup", c.CaseID, obs, ev["passed"])
				}
				for _, o := range obs {
					if u := fmt.Sprint(o.(map[string]any)["url"]); strings.Contains(u, judgeHost) || !strings.Contains(u, "shipping.example") {
						t.Errorf("case %s: replay observed %s, want no judge call", c.CaseID, u)
					}
				}
				if c.Status != models.StatusPassed {
					t.Errorf("case %s: status %s (%s), want passed", c.CaseID, c.Status, c.ErrorDetails)
				}
				for _, m := range c.Metrics {
					if m.Name == "facts" && (m.Score == nil || *m.Score != 0.95 || !m.Passed) {
						t.Errorf("case %s: facts = %v passed %v, want the judge's 0.95", c.CaseID, m.Score, m.Passed)
					}
				}
			}
		})
	}
}
