package main

import (
	"strings"
	"testing"
)

// TestRun_CLIBasics covers the commands a first-time user types: bare
// evalrun, help, help COMMAND, --version and the --database-url help.
func TestRun_CLIBasics(t *testing.T) {
	for _, tc := range []struct {
		name               string
		args               []string
		code               int
		stdout, stderr     []string // each must appear
		notStdout, notBoth []string // none may appear
	}{
		{name: "bare evalrun prints the whole usage", args: nil, code: exitInvalid,
			stderr:  []string{"Usage: evalrun <command>", "Commands:", "db:migrate", "history"},
			notBoth: []string{"expected one of"}},
		{name: "help", args: []string{"help"}, code: exitOK,
			stdout: []string{"Usage: evalrun <command>", "Commands:", "db:rails-migration"}},
		{name: "help of a command", args: []string{"help", "run"}, code: exitOK,
			stdout: []string{"Usage: evalrun run <suite>", "--concurrency"}},
		{name: "help of a db command", args: []string{"help", "db:migrate"}, code: exitOK,
			stdout: []string{"Usage: evalrun db:migrate", "Create or upgrade the evaluation tables."}},
		{name: "help of an unknown command", args: []string{"help", "nosuch"}, code: exitInvalid,
			stderr: []string{"nosuch"}},
		{name: "version", args: []string{"--version"}, code: exitOK,
			stdout: []string{"evalrun (devel)\n"}, notStdout: []string{"Usage"}},
		{name: "database-url help names the variable naturally", args: []string{"--help"}, code: exitOK,
			stdout:  []string{"also read from $DATABASE_URL.", "Ignored by"},
			notBoth: []string{"($DATABASE_URL)"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			t.Setenv("DATABASE_URL", "")
			code, out, stderr := evalrun(t, tc.args...)
			if code != tc.code {
				t.Errorf("exit %d, want %d\n%s%s", code, tc.code, out, stderr)
			}
			for _, want := range tc.stdout {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}
			for _, want := range tc.stderr {
				if !strings.Contains(stderr, want) {
					t.Errorf("stderr lacks %q:\n%s", want, stderr)
				}
			}
			for _, bad := range tc.notStdout {
				if strings.Contains(out, bad) {
					t.Errorf("stdout has %q:\n%s", bad, out)
				}
			}
			for _, bad := range tc.notBoth {
				if strings.Contains(out+stderr, bad) {
					t.Errorf("output has %q:\n%s%s", bad, out, stderr)
				}
			}
		})
	}
}
