package interop_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// count asks ActiveRecord how many records of model (run, case, metric)
// match where, a where(...) hash as JSON.
func (e *env) count(t *testing.T, model, where string) int {
	t.Helper()
	var out struct{ Count int }
	if err := json.Unmarshal(e.ruby(t, "count", model, where), &out); err != nil {
		t.Fatal(err)
	}
	return out.Count
}

// writeSuite writes a suite file into a temp dir and returns its path.
func writeSuite(t *testing.T, s string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "suite.json")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// Row 5: a Go run saves a missing expected answer and a null output as SQL
// NULL, as Rails saves nil, so where(output: nil) finds Go rows; an
// agent's {} metadata is saved as {}, not NULL.
func TestGoNullsAreRailsNils(t *testing.T) {
	e := newEnv(t)
	e.mustEvalrun(t, "db:migrate")
	s := writeSuite(t, `{"suite": "Nulls", "agent": {"name": "NullAgent", "command": ["sh", "-c",
	  "if grep -q silent; then echo '{\"output\": null, \"metadata\": {}}'; else echo '{\"output\": \"Within 30 days.\", \"metadata\": {}}'; fi"]},
	  "evaluators": {"has30": {"type": "contains", "params": {"value": "30"}}},
	  "questions": [
	    {"id": "answers", "question": "How long do I have to return an item?", "expected_answer": "30 days."},
	    {"id": "silent", "question": "Say nothing (silent)."}]}`)
	if code, out := e.evalrun(t, "run", s); code != 1 || !strings.Contains(out, "answers") {
		t.Fatalf("run: exit %d, want 1 (the silent question fails)\n%s", code, out)
	}
	if n := e.count(t, "case", `{"output": null}`); n != 1 {
		t.Errorf("CaseResult.where(output: nil).count = %d, want 1 (the silent question)", n)
	}
	if n := e.count(t, "case", `{"expected_answer": null}`); n != 1 {
		t.Errorf("CaseResult.where(expected_answer: nil).count = %d, want 1", n)
	}
	if n := e.count(t, "case", `{"response_metadata": null}`); n != 0 {
		t.Errorf("CaseResult.where(response_metadata: nil).count = %d, want 0: the agent's {} is kept", n)
	}
	d := parseDump(t, e.ruby(t, "dump"))
	for _, c := range d.Runs[0]["cases"].([]any) {
		if rm, ok := c.(map[string]any)["response_metadata"].(map[string]any); !ok || len(rm) != 0 {
			t.Errorf("case %v: response_metadata %v in Ruby, want {}", c.(map[string]any)["case_id"], c.(map[string]any)["response_metadata"])
		}
	}
}
