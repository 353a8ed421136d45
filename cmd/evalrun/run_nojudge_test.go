package main

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// TestRunCmd_NoJudgeWarning: --no-judge on a suite with a judge section is
// named as the cause in the warning, and the persisted metric reason says
// the judge was disabled, not "no judge configured … give --judge-model".
func TestRunCmd_NoJudgeWarning(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "agent.sh"), []byte("cat >/dev/null; echo ok\n"), 0o644)
	s := filepath.Join(dir, "suite.json")
	os.WriteFile(s, []byte(`{"suite": "NoJudge", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
	  "judge": {"provider": "openai", "model": "gpt-4o-mini"},
	  "questions": [{"id": "q", "question": "q", "expected_answer": "ok"}]}`), 0o644)
	url := testdb.SQLiteURL(t)
	code, out, stderr := evalrun(t, "--database-url", url, "run", s, "--no-judge")
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	want := "warning: judge disabled by --no-judge: semantic_accuracy, answer_relevancy not calculated on 1 question; " +
		"exit 0 does not claim quality; run without --no-judge"
	if !strings.Contains(stderr, want) || strings.Contains(stderr, "no judge configured") || strings.Contains(stderr, "--judge-model") {
		t.Errorf("stderr:\n%s\nwant a line starting %q", stderr, want)
	}
	if !strings.Contains(out+stderr, "judge disabled by --no-judge") {
		t.Errorf("output does not name --no-judge:\n%s%s", out, stderr)
	}
	run := onlyRun(t, url)
	for _, m := range run.Cases[0].Metrics {
		if m.Reason == nil || *m.Reason != "not calculated: judge disabled for this run" {
			t.Errorf("%s: persisted reason %v, want the judge named as disabled", m.Name, m.Reason)
		}
	}
}

// TestRunCmd_NoJudgeNeverPasses: a question whose only minimum is
// semantic_accuracy is not_evaluated under --no-judge (and EVAL_NO_JUDGE,
// and with no judge at all), inline or from a golden set, even when the
// suite declares a deterministic evaluator the question does not use.
func TestRunCmd_NoJudgeNeverPasses(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "agent.sh"), []byte("cat >/dev/null; echo ok\n"), 0o644)
	os.WriteFile(filepath.Join(dir, "golden.jsonl"), []byte(`{"id": "g", "input": "q", "expected": "ok", "minimum_scores": {"semantic_accuracy": 0.9}}`+"\n"), 0o644)
	s := filepath.Join(dir, "suite.json")
	os.WriteFile(s, []byte(`{"suite": "OnlyJudge", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
	  "judge": {"provider": "openai", "model": "gpt-4o-mini"},
	  "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [{"id": "q", "question": "q", "expected_answer": "ok", "minimum_scores": {"semantic_accuracy": 0.9}}],
	  "golden_set": "golden.jsonl"}`), 0o644)
	for _, tt := range []struct {
		name string
		args []string
		env  string
	}{
		{"flag", []string{"--no-judge"}, ""},
		{"env", nil, "1"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			if tt.env != "" {
				t.Setenv("EVAL_NO_JUDGE", tt.env)
			}
			url := testdb.SQLiteURL(t)
			code, out, stderr := evalrun(t, append([]string{"--database-url", url, "run", s}, tt.args...)...)
			if code != exitOK {
				t.Fatalf("exit %d\n%s%s", code, out, stderr)
			}
			if !strings.Contains(stderr, "NOTHING WAS EVALUATED") {
				t.Errorf("stderr lacks the nothing-evaluated warning:\n%s", stderr)
			}
			run := onlyRun(t, url)
			for _, c := range run.Cases {
				if c.Status != models.StatusNotEvaluated {
					t.Errorf("%s: status %s, want not_evaluated", c.CaseID, c.Status)
				}
			}
		})
	}
}

// onlyRun reads back the single run saved at url.
func onlyRun(t *testing.T, url string) *models.Run {
	t.Helper()
	db, err := models.Open(context.Background(), url, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, _, err := db.ListRuns(context.Background(), models.RunFilter{})
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs saved: %d, %v; want 1", len(runs), err)
	}
	run, err := db.GetRun(context.Background(), runs[0].ID)
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// TestRunCmd_NoJudgeRefusesWhatValidateRefuses: a judge section validate
// rejects (an unknown provider) is rejected by run --no-judge too, before
// any agent call (issue 12, row 8).
func TestRunCmd_NoJudgeRefusesWhatValidateRefuses(t *testing.T) {
	dir := t.TempDir()
	s := filepath.Join(dir, "suite.json")
	os.WriteFile(s, []byte(`{"suite": "S", "agent": {"name": "A", "command": ["sh", "-c", "touch called"]},
	  "judge": {"provider": "nonsense", "model": "m"},
	  "questions": [{"id": "q", "question": "q", "expected_answer": "ok"}]}`), 0o644)
	vcode, _, vstderr := evalrun(t, "validate", s)
	code, out, stderr := evalrun(t, "--database-url", testdb.SQLiteURL(t), "run", s, "--no-judge")
	if vcode != exitInvalid || code != exitInvalid || !strings.Contains(stderr, `unknown provider "nonsense"`) {
		t.Fatalf("validate exit %d (%s); run --no-judge exit %d\n%s%s", vcode, vstderr, code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "called")); err == nil {
		t.Error("the agent was called")
	}
}

// TestRunCmd_JudgeVariablesIgnoredWithoutJudgedMetrics: EVAL_JUDGE_BASE_URL
// exported for a judged suite (as the conversation guide does) leaves a
// suite of deterministic checks alone; a judged suite's error names the
// variables the user set, not flags never typed.
func TestRunCmd_JudgeVariablesIgnoredWithoutJudgedMetrics(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("EVAL_JUDGE_BASE_URL", "http://127.0.0.1:8319/v1")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "agent.sh"), []byte("cat >/dev/null; echo ok\n"), 0o644)
	plain := filepath.Join(dir, "plain.json")
	os.WriteFile(plain, []byte(`{"suite": "Plain", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
	  "questions": [{"id": "q", "question": "q", "checks": [{"type": "contains", "value": "ok"}]}]}`), 0o644)
	url := testdb.SQLiteURL(t)
	if code, out, stderr := evalrun(t, "--database-url", url, "run", plain); code != exitOK {
		t.Fatalf("a judge-less suite with EVAL_JUDGE_BASE_URL exported: exit %d\n%s%s", code, out, stderr)
	}
	// A typed flag is still checked, and named.
	code, _, stderr := evalrun(t, "--database-url", url, "run", plain, "--judge-provider", "anthropic")
	if code != exitInvalid || !strings.Contains(stderr, "--judge-provider") || strings.Contains(stderr, "--judge-base-url") {
		t.Errorf("typed --judge-provider without a model: exit %d, stderr %s", code, stderr)
	}
	judged := filepath.Join(dir, "judged.json")
	os.WriteFile(judged, []byte(`{"suite": "Judged", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
	  "questions": [{"id": "q", "question": "q", "expected_answer": "ok", "minimum_scores": {"semantic_accuracy": 0.9}}]}`), 0o644)
	code, _, stderr = evalrun(t, "--database-url", url, "run", judged)
	if code != exitInvalid || !strings.Contains(stderr, "EVAL_JUDGE_BASE_URL") || strings.Contains(stderr, "--judge-base-url") {
		t.Errorf("judged suite with only EVAL_JUDGE_BASE_URL: exit %d, stderr %s", code, stderr)
	}
}
