package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestRunCmd_FailOnRegressions: a suite with a question that fails at the
// baseline and still fails exits 0 under --fail-on regressions (1 under
// the default --fail-on failures), and 1 as soon as a deterministic check
// newly fails, under both gates. The last line says which rule decided.
func TestRunCmd_FailOnRegressions(t *testing.T) {
	dir := t.TempDir()
	a, answer := knownBugAgent(t, dir)
	write := func(path, text string) { writeTestFile(t, path, text) }
	s := filepath.Join(dir, "suite.json")
	write(s, `{"suite": "Fail on", "agent": {"name": "A", "command": ["sh", "`+a+`"]},
	  "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [
	    {"id": "known", "question": "known bug", "expected_answer": "right", "minimum_scores": {"exact": 1}},
	    {"id": "fine", "question": "fine", "expected_answer": "ok", "minimum_scores": {"exact": 1}}]}`)
	url := testdb.SQLiteURL(t)
	runWith := func(args ...string) (int, string) {
		t.Helper()
		code, out, stderr := evalrun(t, append([]string{"--database-url", url, "run", s}, args...)...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		return code, lines[len(lines)-1] + "\n" + stderr
	}

	if code, last := runWith("--fail-on", "regressions"); code != exitOK ||
		!strings.HasPrefix(last, "exit 0: no gated regression, no baseline to regress against (--fail-on regressions; not acted on: 1 failed, 0 errors)") {
		t.Fatalf("first run, --fail-on regressions: exit %d, last line %q", code, last)
	}
	baseline := latestRunID(t, url)
	for _, gate := range []string{"strict", "ci"} {
		if code, last := runWith("--fail-on", "regressions", "--gate", gate, "--baseline", baseline); code != exitOK ||
			!strings.HasPrefix(last, "exit 0: no gated regression (--fail-on regressions; not acted on: 1 failed, 0 errors)") {
			t.Fatalf("still failing, --gate %s --fail-on regressions: exit %d, last line %q", gate, code, last)
		}
	}
	if code, last := runWith("--baseline", baseline); code != exitFailed || !strings.HasPrefix(last, "exit 1: 1 failed, 0 errors (--fail-on failures)") {
		t.Fatalf("still failing, default --fail-on failures: exit %d, last line %q", code, last)
	}

	write(answer, "broken\n") // the fine question's exact check now fails
	for _, gate := range []string{"ci", "strict"} {
		code, last := runWith("--fail-on", "regressions", "--gate", gate, "--baseline", baseline)
		if want := "exit 1: 1 regression against baseline " + baseline + " (--fail-on regressions; not acted on: 2 failed, 0 errors)"; code != exitFailed || !strings.HasPrefix(last, want) {
			t.Fatalf("newly failing check, --gate %s: exit %d, last line %q, want %q", gate, code, last, want)
		}
	}
	// Now "fine" passed in earlier runs and failed in later ones: one
	// sustained change, never flaky, and its deterministic check still
	// gates against the passing baseline.
	code, out, stderr := evalrun(t, "--database-url", url, "run", s, "--fail-on", "regressions", "--gate", "ci", "--baseline", baseline)
	if code != exitFailed || strings.Contains(out, "Flaky") || strings.Contains(out, "not gating: flaky") {
		t.Fatalf("sustained failure under ci: exit %d, want 1 and no flaky mark\n%s%s", code, out, stderr)
	}
	if code, _, stderr := evalrun(t, "--database-url", url, "run", s, "--fail-on", "sometimes"); code != exitInvalid || !strings.Contains(stderr, "--fail-on") {
		t.Fatalf("--fail-on sometimes: exit %d, want 2 naming the flag\n%s", code, stderr)
	}
	for _, flag := range [][]string{{"--alpha", "0"}, {"--alpha", "2"}, {"--min-effect", "2"}, {"--tolerance", "1.5"}} {
		want := "evalrun: " + flag[0] + " " + flag[1] + ": want"
		if code, _, stderr := evalrun(t, "--database-url", url, "run", s, flag[0], flag[1]); code != exitInvalid || !strings.HasPrefix(stderr, want) {
			t.Fatalf("%s %s: exit %d, want 2 with an error starting %q\n%s", flag[0], flag[1], code, want, stderr)
		}
	}
}
