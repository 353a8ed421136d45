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
		"Exit codes follow --fail-on, and the last line of the output says which rule produced it",
		"1 under --fail-on failures (default) for failed or errored checks, under --fail-on regressions for a gated regression",
		"(a question that failed at the baseline and still fails exits 0)",
		"also 1 for an interrupted run (Ctrl-C or SIGTERM: no new question starts, the running ones finish within --grace",
		"use --gate ci for judged suites",
		"--alpha", "--min-effect", "--fail-on",
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
