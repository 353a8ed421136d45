package main

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestRunCmd_OnlyBaselineLine runs the whole example suite twice, then a
// subset: the subset's "Baseline: none" line says that --only makes its own
// definition, its second run finds the first as baseline, and runs of the
// whole suite keep their own baselines.
func TestRunCmd_OnlyBaselineLine(t *testing.T) {
	url := testdb.SQLiteURL(t)
	run := func(args ...string) string {
		t.Helper()
		code, out, stderr := evalrun(t, append([]string{"--database-url", url, "run", supportSuite}, args...)...)
		if code != exitOK {
			t.Fatalf("run %v: exit %d\n%s%s", args, code, out, stderr)
		}
		return out
	}
	t.Setenv("AGENT_REVISION", "reference")
	run()
	run()
	full := latestRunID(t, url)
	steps := []struct {
		name string
		args []string
		want func() string
	}{
		{"first subset run", []string{"--only", "returns"}, func() string {
			return "Baseline: none (--only runs a subset, which is its own definition; no earlier run of this subset); thresholds only\n"
		}},
		{"second subset run", []string{"--only", "returns"}, func() string { return "Baseline: " + latestRunID(t, url) + " " }},
		{"whole suite", nil, func() string { return "Baseline: " + full + " " }},
	}
	for _, st := range steps {
		want := st.want() // before the run: the newest run so far
		if out := run(st.args...); !strings.Contains(out, want) {
			t.Errorf("%s: output lacks %q:\n%s", st.name, want, out)
		}
	}
}
