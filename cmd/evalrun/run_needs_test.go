package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestValidateAndRun_RefuseMetricWithoutItsInput: faithfulness on a
// question without context could only be a metric error in every run, so
// validate and run refuse the suite (exit 2, the metric's path named) and
// nothing is saved; exact_match with a "value" param needs no expected
// answer and is accepted.
func TestValidateAndRun_RefuseMetricWithoutItsInput(t *testing.T) {
	dir := t.TempDir()
	s := filepath.Join(dir, "suite.json")
	body := `{"suite": "Needs", "agent": {"name": "A", "command": ["true"]},
	  "evaluators": {"fixed": {"type": "exact_match", "params": {"value": "ok"}}},
	  "questions": [{"id": "a", "question": "q", "minimum_scores": {"fixed": 1}},
	    {"id": "b", "question": "q", "minimum_scores": {"fixed": 1}},
	    {"id": "c", "question": "q", "minimum_scores": {"fixed": 1}},
	    {"id": "d", "question": "q", "expected_answer": "ok", "minimum_scores": {"faithfulness": 0.8}}]}`
	if err := os.WriteFile(s, []byte(body), 0o644); err != nil {
		t.Fatal(err)
	}
	want := s + ": $.questions[3].minimum_scores.faithfulness: needs the question's context (none given)"
	db := testdb.SQLite(t)
	url := db.URL
	db.Close()
	for _, args := range [][]string{{"validate", s}, {"--database-url", url, "run", s}} {
		code, out, stderr := evalrun(t, args...)
		if code != exitInvalid || !strings.Contains(stderr, want) {
			t.Errorf("%s: exit %d, want 2 and %q\n%s%s", args[len(args)-2], code, want, out, stderr)
		}
	}
	if got := countRuns(t, url); got != 0 {
		t.Errorf("%d runs saved by a refused suite", got)
	}
	fixed := strings.Replace(body, `"minimum_scores": {"faithfulness": 0.8}`, `"minimum_scores": {"fixed": 1}`, 1)
	if err := os.WriteFile(s, []byte(fixed), 0o644); err != nil {
		t.Fatal(err)
	}
	if code, out, stderr := evalrun(t, "validate", s); code != exitOK {
		t.Errorf("validate with value params: exit %d, want 0\n%s%s", code, out, stderr)
	}
}
