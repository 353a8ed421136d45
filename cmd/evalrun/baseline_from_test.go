package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRun_BaselineFromEvidenceFile gates a run against a run kept in an
// evidence file, with no database holding it: a regressed run exits 1 on
// the regression alone; the report says where the baseline came from; a
// file of another definition, an unreadable file and two baselines at
// once are refused before anything runs (exit 2, naming the flag).
func TestRun_BaselineFromEvidenceFile(t *testing.T) {
	suite := copySupportExample(t)
	dir := filepath.Dir(suite)
	mainRun := filepath.Join(dir, "main.json")
	t.Setenv("AGENT_REVISION", "reference")
	if code, out, errOut := evalrun(t, "run", suite, "--save-to", mainRun); code != exitOK {
		t.Fatalf("the baseline run: exit %d\n%s%s", code, out, errOut)
	}

	t.Setenv("AGENT_REVISION", "regressed")
	md := filepath.Join(dir, "report.md")
	code, out, errOut := evalrun(t, "run", suite, "--no-save", "--baseline-from", mainRun, "--fail-on", "regressions", "--report", md)
	if code != exitFailed || !strings.Contains(out, "regression") || !strings.Contains(out, "Baseline from: read with --baseline-from main.json") {
		t.Errorf("regressed against the file: exit %d, want 1 naming the file:\n%s%s", code, out, errOut)
	}
	if b, _ := os.ReadFile(md); !strings.Contains(string(b), "Decision: gate strict, --fail-on regressions: exit 1 against baseline") {
		t.Errorf("the Markdown report lacks the decision:\n%s", b)
	}
	url := migratedURL(t, "sqlite")
	code, out, errOut = evalrun(t, "--database-url", url, "run", suite, "--baseline-from", mainRun, "--fail-on", "regressions")
	if code != exitFailed {
		t.Errorf("with a database too: exit %d, want 1:\n%s%s", code, out, errOut)
	}

	other := filepath.Join(dir, "other.json")
	data, err := os.ReadFile(suite)
	if err != nil {
		t.Fatal(err)
	}
	writeTestFile(t, filepath.Join(dir, "other-suite.json"), strings.Replace(string(data), "How long do I have", "How long might I have", 1))
	if code, out, errOut := evalrun(t, "run", filepath.Join(dir, "other-suite.json"), "--save-to", other); code != exitFailed && code != exitOK {
		t.Fatalf("the other definition's run: exit %d\n%s%s", code, out, errOut)
	}
	for _, tt := range []struct {
		name string
		args []string
		want string
	}{
		{"another definition", []string{"--baseline-from", other}, "--baseline-from " + other + ": incompatible baseline"},
		{"no such file", []string{"--baseline-from", filepath.Join(dir, "missing.json")}, "--baseline-from " + filepath.Join(dir, "missing.json")},
		{"two baselines", []string{"--baseline-from", mainRun, "--baseline", "0190a3c8-0000-7000-8000-000000000000"}, "choose one baseline"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			code, out, errOut := evalrun(t, append([]string{"--database-url", url, "run", suite}, tt.args...)...)
			if code != exitInvalid || !strings.Contains(errOut, tt.want) {
				t.Errorf("exit %d, want 2 with %q:\n%s%s", code, tt.want, out, errOut)
			}
		})
	}
}
