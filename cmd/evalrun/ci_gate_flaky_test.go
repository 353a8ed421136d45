package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// supportCheckout copies examples/support into a fresh git repository of
// one commit, so that every run of it records the same clean commit: the
// hardest case for flakiness, as AGENT_REVISION changes the agent's code
// without a new commit.
func supportCheckout(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	src := filepath.Join("..", "..", "examples", "support")
	entries, err := os.ReadDir(src)
	if err != nil {
		t.Fatal(err)
	}
	for _, e := range entries {
		b, err := os.ReadFile(filepath.Join(src, e.Name()))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, e.Name()), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	for _, args := range [][]string{{"init", "-q"}, {"add", "."},
		{"-c", "user.name=t", "-c", "user.email=t@example.invalid", "commit", "-q", "-m", "support"}} {
		cmd := exec.Command("git", append([]string{"-C", dir}, args...)...)
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s (install git: apt-get install -y git)", args, err, out)
		}
	}
	return filepath.Join(dir, "suite.json")
}

// TestRunCmd_CIGateAlternationIsNotFlaky: examples/support run four times
// into one database under --gate ci --fail-on regressions with
// AGENT_REVISION reference, regressed, reference, regressed exits 0, 1, 0,
// 1. The returns question's exact-match and tool-call checks newly fail in
// the fourth run as in the second: deterministic checks gate by
// themselves, whatever the question's history (the old gate called it
// flaky and exited 0).
func TestRunCmd_CIGateAlternationIsNotFlaky(t *testing.T) {
	s, url := supportCheckout(t), testdb.SQLiteURL(t)
	for i, rev := range []string{"reference", "regressed", "reference", "regressed"} {
		t.Setenv("AGENT_REVISION", rev)
		code, out, stderr := evalrun(t, "--database-url", url, "run", s, "--gate", "ci", "--fail-on", "regressions")
		want := []int{exitOK, exitFailed, exitOK, exitFailed}[i]
		if code != want {
			t.Fatalf("run %d (%s): exit %d, want %d\n%s%s", i+1, rev, code, want, out, stderr)
		}
		if strings.Contains(out, "not gating: flaky") {
			t.Errorf("run %d (%s): a deterministic regression is exempted as flaky\n%s", i+1, rev, out)
		}
		if want == exitFailed && !strings.Contains(out, "returns [") {
			t.Errorf("run %d (%s): the returns question is not listed as a regression\n%s", i+1, rev, out)
		}
	}
}

// TestRunCmd_CIGateSustainedFailureIsNotFlaky: passed, passed, failed,
// failed is one change, never flakiness: the third run exits 1 on the
// returns question, and neither it nor the fourth calls it flaky (the old
// gate marked it "status flipped 1 time" in the fourth).
func TestRunCmd_CIGateSustainedFailureIsNotFlaky(t *testing.T) {
	s, url := supportCheckout(t), testdb.SQLiteURL(t)
	for i, rev := range []string{"reference", "reference", "regressed", "regressed"} {
		t.Setenv("AGENT_REVISION", rev)
		code, out, stderr := evalrun(t, "--database-url", url, "run", s, "--gate", "ci", "--fail-on", "regressions")
		if i == 2 && code != exitFailed {
			t.Fatalf("run 3 (first regressed): exit %d, want 1\n%s%s", code, out, stderr)
		}
		if i != 2 && code != exitOK {
			t.Fatalf("run %d (%s): exit %d, want 0 (no new regression)\n%s%s", i+1, rev, code, out, stderr)
		}
		if callsFlaky(out) {
			t.Errorf("run %d (%s): a sustained pass→fail is called flaky\n%s", i+1, rev, out)
		}
	}
}

// callsFlaky reports whether the run output marks a question flaky (the
// line naming where the run was saved holds the test's name).
func callsFlaky(out string) bool {
	for _, l := range strings.Split(out, "\n") {
		if !strings.Contains(l, " saved to ") && strings.Contains(strings.ToLower(l), "flaky") {
			return true
		}
	}
	return false
}
