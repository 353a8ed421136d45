package main

import (
	"strings"
	"testing"
)

// TestRunCmd_Help documents the exit codes, interruption included, and
// what --only does to the baseline, in "evalrun run --help".
func TestRunCmd_Help(t *testing.T) {
	code, out, stderr := evalrun(t, "run", "--help")
	if code != exitOK {
		t.Fatalf("exit %d\n%s", code, stderr)
	}
	text := strings.Join(strings.Fields(out), " ")
	for _, want := range []string{
		"Exit codes: 0 when no calculated check failed",
		"1 for failed or errored checks, a regression under --fail-on-regression, or an interrupted run (Ctrl-C or SIGTERM: nothing is saved)",
		"2 for an invalid suite, options, configuration or baseline",
		"A subset is its own definition (digest): its baseline is an earlier run of the same subset",
		"0 or omitted means min(4, number of cases)",
		"0 or negative is refused, exit 2",
	} {
		if !strings.Contains(text, want) {
			t.Errorf("run --help lacks %q:\n%s", want, out)
		}
	}
}
