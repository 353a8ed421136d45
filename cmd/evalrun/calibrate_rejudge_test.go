package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCalibrateCmd_Rejudge runs a judged suite, then re-judges its stored
// answers three times with a judge whose scores cycle 0.9, 0.8, 1.0 after
// the run's call: the report shows the measured noise, no agent is called
// and nothing is saved. Invalid combinations exit 2 before any call.
func TestCalibrateCmd_Rejudge(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	srv, calls := cyclingJudge(t)
	s := judgedSuiteFile(t, srv.URL+"/v1", "")
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "runs.sqlite3")
	if code, out, stderr := evalrun(t, "--database-url", dbURL, "run", s, "--concurrency", "1"); code != exitFailed {
		t.Fatalf("run: exit %d, want 1 (q2 scores 0.8)\n%s%s", code, out, stderr)
	}
	id := latestRunID(t, dbURL)
	// The agent script is removed: re-judging must not call it.
	if err := os.Remove(filepath.Join(filepath.Dir(s), "agent.sh")); err != nil {
		t.Fatal(err)
	}
	calls.Store(0)
	code, out, stderr := evalrun(t, "--database-url", dbURL, "calibrate", id, "--rejudge", "3", "--suite", s, "--concurrency", "1")
	if code != exitOK {
		t.Fatalf("calibrate --rejudge: exit %d\n%s%s", code, out, stderr)
	}
	if got := calls.Load(); got != 6 {
		t.Errorf("judge calls = %d, want 6 (2 questions x 3)", got)
	}
	// Each question gets 0.9, 0.8, 1.0: within sd 0.1; the differences
	// between repetitions are constant (0.1, -0.1, -0.2), so sd_diff 0.
	for _, want := range []string{"semantic_accuracy: 3 repetitions of 2 questions (0 judge errors)",
		"within-question score sd                 0.100", "sd of the difference of two judgements   0.000",
		"nothing was saved"} {
		if !strings.Contains(out, want) {
			t.Errorf("output lacks %q:\n%s", want, out)
		}
	}
	// Two questions, sd_diff 0: the MDE is 0, under any bar; with more
	// calls the cycle shifts and the differences stop being constant.
	calls.Store(0)
	if code, out, stderr := evalrun(t, "--database-url", dbURL, "calibrate", id, "--rejudge", "3", "--suite", s, "-j", "1", "--max-mde", "0.01"); code != exitOK {
		t.Errorf("--max-mde 0.01 with MDE 0: exit %d\n%s%s", code, out, stderr)
	}
	calls.Store(1) // the cycle starts at 0.8: scores 0.8, 1.0 / 0.9, 0.8
	code, out, stderr = evalrun(t, "--database-url", dbURL, "calibrate", id, "--rejudge", "2", "--suite", s, "-j", "1", "--max-mde", "0.05")
	if code != exitFailed || !strings.Contains(stderr, "minimum detectable effect above 0.05") || !strings.Contains(stderr, "semantic_accuracy: ") {
		t.Errorf("--max-mde 0.05 with a noisy judge: exit %d, want 1\n%s%s", code, out, stderr)
	}
	calls.Store(0)
	code, out, stderr = evalrun(t, "--database-url", dbURL, "calibrate", id, "--rejudge", "3", "--suite", s, "-j", "1", "--json")
	var doc struct {
		Repetitions int
		Metrics     []map[string]any
	}
	if err := json.Unmarshal([]byte(out), &doc); code != exitOK || err != nil || doc.Repetitions != 3 || len(doc.Metrics) != 1 ||
		doc.Metrics[0]["within_question_sd"] == nil || doc.Metrics[0]["verdict"] == "" {
		t.Errorf("--json: exit %d, %v\n%s%s", code, err, out, stderr)
	}
	if n := countRuns(t, dbURL); n != 1 {
		t.Errorf("%d runs after re-judging, want 1", n)
	}
	b, err := os.ReadFile(s)
	if err != nil {
		t.Fatal(err)
	}
	otherThreshold := filepath.Join(t.TempDir(), "suite.json")
	if err := os.WriteFile(otherThreshold, []byte(strings.Replace(string(b), "0.9}", "0.8}", 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	oneQuestion := filepath.Join(t.TempDir(), "suite.json")
	if err := os.WriteFile(oneQuestion, []byte(strings.Replace(string(b), `"id": "q2"`, `"id": "q3"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for path, want := range map[string]string{
		oneQuestion:    `does not define run ` + id + `'s questions: it has no question "q2"; give the suite file the run was made from`,
		otherThreshold: `is not the definition run ` + id + ` was made from (re-judging with other questions, thresholds or rubrics would measure something else): suite_digest`,
	} {
		code, out, stderr := evalrun(t, "--database-url", dbURL, "calibrate", id, "--rejudge", "2", "--suite", path)
		if code != exitInvalid || !strings.Contains(stderr, want) || strings.Contains(stderr, "--only") || strings.Contains(stderr, "baseline") {
			t.Errorf("--suite %s: exit %d, want 2 and %q (no --only, no baseline)\n%s%s", path, code, want, out, stderr)
		}
	}
	for name, args := range map[string][]string{
		"neither":     {id},
		"rejudge 1":   {id, "--rejudge", "1", "--suite", s},
		"no suite":    {id, "--rejudge", "2"},
		"judge cache": {id, "--rejudge", "2", "--suite", s, "--judge-cache", t.TempDir()},
		"no judge":    {id, "--rejudge", "2", "--suite", s, "--no-judge"},
		"suite alone": {id, "--suite", s},
		"kappa alone": {id, "--rejudge", "2", "--suite", s, "--min-kappa", "0.5"},
		"other suite": {id, "--rejudge", "2", "--suite", otherThreshold},
	} {
		calls.Store(0)
		code, out, stderr := evalrun(t, append([]string{"--database-url", dbURL, "calibrate"}, args...)...)
		if code != exitInvalid || calls.Load() != 0 {
			t.Errorf("%s: exit %d after %d judge calls, want 2 and none\n%s%s", name, code, calls.Load(), out, stderr)
		}
	}
}
