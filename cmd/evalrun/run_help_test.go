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

// TestHelp_GroupedMostUsedFirst: run --help opens with the gate, the exit
// rule and the reports, groups the rest and ends with the database; the
// commands that read no database list none of its flags.
func TestHelp_GroupedMostUsedFirst(t *testing.T) {
	code, out, _ := evalrun(t, "run", "--help")
	if code != exitOK {
		t.Fatalf("run --help: exit %d", code)
	}
	lines := strings.Split(out, "\n")
	at := func(prefix string) int {
		for i, l := range lines {
			if strings.HasPrefix(strings.TrimSpace(l), prefix) {
				return i
			}
		}
		t.Fatalf("run --help has no line starting %q:\n%s", prefix, out)
		return -1
	}
	for _, flag := range []string{"--gate=", "--fail-on=", "--report="} {
		if i := at(flag); i > 70 {
			t.Errorf("%s is on line %d of run --help, want it near the top", flag, i+1)
		}
	}
	if !(at("Gate, baseline and reports:") < at("Which questions") && at("Which questions") < at("Judge:") && at("Judge:") < at("Database:")) {
		t.Errorf("run --help groups out of order:\n%s", out)
	}
	for _, cmd := range []string{"schema", "validate", "checks", "init", "db:rails-migration"} {
		_, out, _ := evalrun(t, "help", cmd)
		if strings.Contains(out, "--database-url") || strings.Contains(out, "--save-wait") {
			t.Errorf("%s --help lists database flags it ignores:\n%s", cmd, out)
		}
	}
	for cmd, want := range map[string][]string{"history": {"--database-url", "--statement-timeout"}, "db:import": {"--save-wait"}} {
		_, out, _ := evalrun(t, "help", cmd)
		for _, w := range want {
			if !strings.Contains(out, w) {
				t.Errorf("%s --help lacks %s:\n%s", cmd, w, out)
			}
		}
	}
	if _, out, _ := evalrun(t, "history", "--help"); strings.Contains(out, "--save-wait") {
		t.Errorf("history --help lists --save-wait, which only saving commands read")
	}
}
