package main

import (
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestRunCmd_MinKappa: a judge metric that drops from 0.95 to 0.5 on
// every question regresses under --gate ci (exit 1); with labels that
// give it a kappa of 0 (the judge passed every labelled case, the person
// passed half), --min-kappa 0.6 refuses to gate on it, says so, and the
// same drop exits 0, its findings still listed with the reason.
func TestRunCmd_MinKappa(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	var score atomic.Value
	score.Store(0.95)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		writeVerdict(w, "Scripted.", score.Load().(float64))
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "agent.sh"), `echo "Within 30 days."`+"\n")
	var qs []string
	for i := range 10 {
		qs = append(qs, fmt.Sprintf(`{"id": "q%d", "question": "Return %d?", "expected_answer": "30 days.", "minimum_scores": {"semantic_accuracy": 0.8}}`, i, i))
	}
	s := filepath.Join(dir, "suite.json")
	writeTestFile(t, s, `{"suite": "Kappa", "agent": {"name": "A", "command": ["sh", "agent.sh"]}, "questions": [`+strings.Join(qs, ",")+`]}`)
	url := testdb.SQLiteURL(t)
	run := func(args ...string) (int, string, string) {
		return evalrun(t, append([]string{"--database-url", url, "run", s, "--judge-base-url", srv.URL + "/v1", "--judge-model", "judge",
			"--gate", "ci", "--fail-on", "regressions"}, args...)...)
	}
	if code, out, stderr := run(); code != exitOK {
		t.Fatalf("baseline: exit %d\n%s%s", code, out, stderr)
	}
	baseline := latestRunID(t, url)
	var lines []string
	for i := range 10 {
		l := "pass"
		if i%2 == 1 {
			l = "fail"
		}
		lines = append(lines, fmt.Sprintf(`{"case_id": "q%d", "metric": "semantic_accuracy", "label": %q, "rater": "ana", "at": "2026-12-02T04:00:00Z", "run_id": %q}`, i, l, baseline))
	}
	labels := filepath.Join(dir, "suite.labels.jsonl")
	if err := os.WriteFile(labels, []byte(`{"format": "agentevals-labels", "version": 1}`+"\n"+strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}

	score.Store(0.5)
	if code, out, stderr := run("--baseline", baseline); code != exitFailed {
		t.Fatalf("the drop without --min-kappa: exit %d, want 1\n%s%s", code, out, stderr)
	}
	code, out, stderr := run("--baseline", baseline, "--gate-labels", labels, "--min-kappa", "0.6")
	want := "ci gate: not gating on judge metric semantic_accuracy: Cohen's kappa 0.000 [-0.527, 0.527] over 10 labels: the interval's lower bound -0.527 < 0.6 in " + labels
	if code != exitOK || !strings.Contains(stderr, want) || !strings.Contains(out, "not gating: Cohen's kappa 0.000 [-0.527, 0.527] over 10 labels") {
		t.Errorf("with --min-kappa: exit %d, want 0 and %q\n%s%s", code, want, out, stderr)
	}
	if code, _, stderr := run("--gate", "strict", "--gate-labels", labels, "--min-kappa", "0.6"); code != exitInvalid || !strings.Contains(stderr, "add --gate ci") {
		t.Errorf("--min-kappa under strict: exit %d %s", code, stderr)
	}
	// report takes the same flags, so a stored run's report reaches run's
	// decision: the run saved with --min-kappa exited 0; its report under
	// the same gate exits 0 with the labels and 1 without.
	candidate := latestRunID(t, url)
	report := func(args ...string) (int, string, string) {
		return evalrun(t, append([]string{"--database-url", url, "report", candidate, "--baseline", baseline, "--gate", "ci", "--fail-on", "regressions"}, args...)...)
	}
	if code, out, stderr := report("--gate-labels", labels, "--min-kappa", "0.6"); code != exitOK || !strings.Contains(stderr, "ci gate: not gating on judge metric semantic_accuracy") {
		t.Errorf("report with --gate-labels and --min-kappa: exit %d, want 0 as run\n%s%s", code, out, stderr)
	}
	if code, out, stderr := report(); code != exitFailed {
		t.Errorf("report without labels: exit %d, want 1\n%s%s", code, out, stderr)
	}
	missing := filepath.Join(dir, "missing.jsonl")
	if code, _, stderr := report("--gate-labels", missing, "--min-kappa", "0.6"); code != exitInvalid || !strings.Contains(stderr, "--gate-labels") || strings.Contains(stderr, "--labels:") {
		t.Errorf("a missing --gate-labels file: exit %d, want 2 naming --gate-labels\n%s", code, stderr)
	}
}
