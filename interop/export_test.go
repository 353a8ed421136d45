package interop_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// portRun is a run as the Ruby gem writes it for a one-question suite
// scored by exact_match (Ruby floats, nil as null).
const portRun = `{"runs": [{"id": "5b3c2a10-0000-4000-8000-00000000e001", "suite": "Porting", "agent": "PortAgent",
  "version": "2", "suite_digest": "ruby-digest-port", "status": "completed",
  "started_at": "2026-10-01T09:00:00.000000Z", "finished_at": "2026-10-01T09:00:02.000000Z",
  "metadata": {"revision": "ruby"}, "summary": {"score": 1.0},
  "cases": [{"position": 0, "case_id": "returns", "name": "Return window", "status": "passed", "duration_ms": 5.0,
    "question": "How long do I have to return an item?", "expected_answer": "Within 30 days.",
    "expected_actions": null, "minimum_scores": {"exact_match": 1.0}, "metadata": {"tags": ["returns"], "build": 12345678901234567891},
    "output": "Within 30 days.", "actions": null, "response_metadata": null, "error_details": null,
    "input_tokens": null, "output_tokens": null, "cost": null,
    "metrics": [{"position": 0, "name": "exact_match", "threshold": 1.0, "score": 1.0, "passed": true, "reason": "exact", "error_details": null}]}]}]}`

// Done when: a suite exported from a run ActiveRecord wrote validates, its
// first Go run is baselined by that Ruby run, and a regression against it
// exits 1 under --fail-on-regression.
func TestExportedSuiteBaselinedByRubyRun(t *testing.T) {
	e := newEnv(t)
	e.ruby(t, "schema", "gem")
	fixture := filepath.Join(t.TempDir(), "port.json")
	if err := os.WriteFile(fixture, []byte(portRun), 0o644); err != nil {
		t.Fatal(err)
	}
	id := parseDump(t, e.ruby(t, "write", fixture)).Runs[0]["id"].(string)
	st := filepath.Join(t.TempDir(), "suite.json")
	e.mustEvalrun(t, "suite", "export", id, "-o", st, "--agent-command", "sh agent.sh")
	e.mustEvalrun(t, "validate", st)

	b, err := os.ReadFile(st)
	if err != nil {
		t.Fatal(err)
	}
	var s map[string]json.RawMessage // raw: the definition's numbers keep their digits
	if err := json.Unmarshal(b, &s); err != nil {
		t.Fatal(err)
	}
	s["agent"] = mustJSON(t, map[string]any{"name": "PortAgent", "command": []string{"sh", "-c", "cat >/dev/null; echo 'Within 7 days.'"}})
	if err := os.WriteFile(st, mustJSON(t, s), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out := e.evalrun(t, "run", st, "--fail-on-regression")
	if code != 1 || !strings.Contains(out, "Baseline: "+id) || !strings.Contains(out, "new_failure") {
		t.Fatalf("first Go run of the exported suite: exit %d, want 1 with baseline %s and a new failure\n%s", code, id, out)
	}
}
