package interop_test

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// checkReportIsSnapshot: the JSON report's case is the gem's snapshot of
// the rows ActiveRecord reads (c, a case of the dump): a metric that was
// not calculated (no judge) has no row, so it is not among the case's
// metrics (where it read as passed: false under a passed question) but in
// the report's not_calculated list beside them.
func checkReportIsSnapshot(t *testing.T, reportPath string, c map[string]any) {
	t.Helper()
	b, err := os.ReadFile(reportPath)
	if err != nil {
		t.Fatal(err)
	}
	var doc struct {
		Cases []struct {
			Status  string `json:"status"`
			Metrics []struct {
				Name   string `json:"name"`
				Passed bool   `json:"passed"`
			} `json:"metrics"`
		} `json:"cases"`
		NotCalculated []struct {
			CaseID string `json:"case_id"`
			Name   string `json:"name"`
		} `json:"not_calculated"`
	}
	if err := json.Unmarshal(b, &doc); err != nil || len(doc.Cases) != 1 {
		t.Fatalf("the JSON report does not parse as one case: %v", err)
	}
	var fromRails, fromReport []string
	for _, m := range c["metrics"].([]any) {
		m := m.(map[string]any)
		fromRails = append(fromRails, m["name"].(string)+"="+jsonText(m["passed"]))
	}
	for _, m := range doc.Cases[0].Metrics {
		fromReport = append(fromReport, m.Name+"="+jsonText(m.Passed))
	}
	if strings.Join(fromReport, ",") != strings.Join(fromRails, ",") || doc.Cases[0].Status != c["status"] {
		t.Errorf("report case %s metrics %v, ActiveRecord's %v metrics %v: want the same", doc.Cases[0].Status, fromReport, c["status"], fromRails)
	}
	if len(doc.NotCalculated) != 1 || doc.NotCalculated[0].Name != "semantic_accuracy" || doc.NotCalculated[0].CaseID != "returns" {
		t.Errorf("not_calculated = %+v, want semantic_accuracy of returns", doc.NotCalculated)
	}
}

func jsonText(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// A run ActiveRecord wrote with summary.infrastructure_failure false (a
// Rails app's own flag) is no outage: neither history nor its report says
// so. Only evalrun's own mark, an object, is an outage (compare's
// TestFindBaseline_SkipsInfrastructureFailures: such a run baselines).
func TestRubyInfrastructureFailureFalseIsNoOutage(t *testing.T) {
	e := newEnv(t)
	e.ruby(t, "schema", "gem")
	b, err := os.ReadFile(fixturePath)
	if err != nil {
		t.Fatal(err)
	}
	var fixture map[string][]map[string]any
	if err := json.Unmarshal(b, &fixture); err != nil {
		t.Fatal(err)
	}
	run := fixture["runs"][0]
	run["summary"].(map[string]any)["infrastructure_failure"] = false
	path := filepath.Join(t.TempDir(), "runs.json")
	if err := os.WriteFile(path, mustJSON(t, map[string]any{"runs": []any{run}}), 0o644); err != nil {
		t.Fatal(err)
	}
	d := parseDump(t, e.ruby(t, "write", path, "0"))
	id := d.Runs[0]["id"].(string)
	if got := d.Runs[0]["summary"].(map[string]any)["infrastructure_failure"]; got != false {
		t.Fatalf("ActiveRecord stored infrastructure_failure %v, want false", got)
	}
	out := e.mustEvalrun(t, "history")
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, id) && strings.Contains(l, "outage") {
			t.Errorf("history shows the Ruby run as an outage: %q", l)
		}
	}
	if out := e.mustEvalrun(t, "report", id, "--format", "text"); strings.Contains(strings.ToLower(out), "infrastructure") {
		t.Errorf("the report of the Ruby run names an infrastructure failure:\n%s", out)
	}
}
