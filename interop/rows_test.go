package interop_test

import (
	"fmt"
	"path/filepath"
	"strings"
	"testing"
)

// Row 9: a Go case that passed on its deterministic check while its LLM
// metric was not calculated (no judge) has no metric row with passed =
// false: a gem-style reader counting failed rows of passed cases finds
// none, ActiveRecord and Go agree on every case status, and the report
// still says what was not calculated and why; the JSON report's cases hold
// the rows ActiveRecord reads (checkReportIsSnapshot).
func TestUncalculatedMetricsHaveNoFailedRows(t *testing.T) {
	e := newEnv(t)
	e.mustEvalrun(t, "db:migrate")
	s := writeSuite(t, `{"suite": "Uncalculated", "agent": {"name": "A", "command": ["sh", "-c", "cat >/dev/null; echo 'Within 30 days.'"]},
	  "questions": [{"id": "returns", "question": "How long do I have to return an item?", "expected_answer": "Within 30 days.",
	    "minimum_scores": {"exact_match": 1, "semantic_accuracy": 0.9}}]}`)
	reportPath := filepath.Join(t.TempDir(), "run.json")
	if code, out := e.evalrun(t, "run", s, "--report", reportPath); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	if n := e.count(t, "metric", `{"passed": false, "ruby_llm_evaluations_case_results": {"status": "passed"}}`); n != 0 {
		t.Errorf("metric rows with passed = false under passed cases: %d, want 0", n)
	}
	d := parseDump(t, e.ruby(t, "dump"))
	c := d.Runs[0]["cases"].([]any)[0].(map[string]any)
	if c["status"] != "passed" || len(c["metrics"].([]any)) != 1 {
		t.Errorf("Ruby reads status %v with %d metric rows, want passed with 1 (exact_match)", c["status"], len(c["metrics"].([]any)))
	}
	checkReportIsSnapshot(t, reportPath, c)
	out := e.mustEvalrun(t, "report", "--format", "text")
	if !strings.Contains(out, "semantic_accuracy") || !strings.Contains(out, "no judge") {
		t.Errorf("the report does not say that semantic_accuracy was not calculated for lack of a judge:\n%s", out)
	}
}

// Row 1: runs written by ActiveRecord, whose summaries lack our keys or
// disagree with their rows, show in evalrun history the totals of their
// rows: as many passed questions as Ruby reads case statuses "passed".
func TestRubySummaryNotTrusted(t *testing.T) {
	e := newEnv(t)
	e.ruby(t, "schema", "gem")
	d := parseDump(t, e.ruby(t, "write", fixturePath))
	out := e.mustEvalrun(t, "history")
	for _, r := range d.Runs {
		id := r["id"].(string)
		cases := r["cases"].([]any)
		passed := 0
		for _, c := range cases {
			if c.(map[string]any)["status"] == "passed" {
				passed++
			}
		}
		want := fmt.Sprintf("  %d/%d  ", passed, len(cases))
		line := ""
		for _, l := range strings.Split(out, "\n") {
			if strings.Contains(l, id) {
				line = l
			}
		}
		if !strings.Contains(line, want) {
			t.Errorf("history line of Ruby run %s = %q, want %q (Ruby's case statuses)", id, line, want)
		}
	}
}

// Row 4: numbers keep their exact decimal value from the agent's reply to
// what ActiveRecord reads: a 19-digit cost in the numeric column and a
// 20-digit integer in the agent's metadata and the run's --metadata.
func TestExactNumbersReachRails(t *testing.T) {
	e := newEnv(t)
	e.mustEvalrun(t, "db:migrate")
	s := writeSuite(t, `{"suite": "Exact", "agent": {"name": "A", "command": ["sh", "-c",
	  "cat >/dev/null; echo '{\"output\": \"ok\", \"cost\": 0.0001234567890123456, \"metadata\": {\"trace\": 12345678901234567891}}'"]},
	  "questions": [{"id": "q", "question": "q", "expected_answer": "ok", "minimum_scores": {"exact_match": 1}}]}`)
	if code, out := e.evalrun(t, "run", s, "--metadata", `{"build": 98765432109876543210}`); code != 0 {
		t.Fatalf("run: exit %d\n%s", code, out)
	}
	d := parseDump(t, e.ruby(t, "dump"))
	c := d.Runs[0]["cases"].([]any)[0].(map[string]any)
	if c["cost"] != "0.0001234567890123456" {
		t.Errorf("Ruby reads cost %v, want 0.0001234567890123456", c["cost"])
	}
	raw := string(e.ruby(t, "dump"))
	for _, want := range []string{`"trace":12345678901234567891`, `"build":98765432109876543210`} {
		if !strings.Contains(raw, want) {
			t.Errorf("Ruby's dump lacks %s", want)
		}
	}
}
