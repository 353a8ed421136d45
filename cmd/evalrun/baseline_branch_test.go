package main

import (
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// copySupportExample copies examples/support into a fresh directory that
// is in no git checkout, so that a run's branch comes from the CI
// environment alone.
func copySupportExample(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	for _, name := range []string{"suite.json", "agent.sh", "policies.txt"} {
		data, err := os.ReadFile(filepath.Join("..", "..", "examples", "support", name))
		if err != nil {
			t.Fatal(err)
		}
		writeTestFile(t, filepath.Join(dir, name), string(data))
	}
	return filepath.Join(dir, "suite.json")
}

// ciJob sets the environment of a GitHub Actions job: a push to branch
// when base is "", else a pull request from branch into base.
func ciJob(t *testing.T, branch, base string) {
	t.Helper()
	t.Setenv("GITHUB_ACTIONS", "true")
	t.Setenv("GITHUB_REF_NAME", branch)
	t.Setenv("GITHUB_HEAD_REF", "")
	t.Setenv("GITHUB_BASE_REF", base)
	if base != "" {
		t.Setenv("GITHUB_HEAD_REF", branch)
		t.Setenv("GITHUB_REF_NAME", "7/merge")
	}
}

var savedRunRe = regexp.MustCompile(`run ([0-9a-f-]{36}) saved`)

// TestRun_PullRequestsBaselineOnTheirTargetBranch: main and two pull
// requests write into one database. Each pull request is compared with
// main's run, never with the other's: pull request B, broken like A, still
// exits 1 (compared with A it would find nothing new), and a fix of A is
// compared with main, not with A's broken run. Outside CI the newest run
// of any branch is the baseline, as before.
func TestRun_PullRequestsBaselineOnTheirTargetBranch(t *testing.T) {
	suite := copySupportExample(t)
	url := migratedURL(t, "sqlite")
	step := func(name, branch, base, revision string, wantCode int, wantBaseline string) string {
		t.Helper()
		ciJob(t, branch, base)
		t.Setenv("AGENT_REVISION", revision)
		code, out, errOut := evalrun(t, "--database-url", url, "run", suite, "--fail-on", "regressions")
		m := savedRunRe.FindStringSubmatch(out)
		if code != wantCode || m == nil {
			t.Fatalf("%s: exit %d, want %d:\n%s\n%s", name, code, wantCode, out, errOut)
		}
		if wantBaseline != "" && !strings.Contains(out, "Baseline: "+wantBaseline) {
			t.Errorf("%s: not compared with %s:\n%s", name, wantBaseline, out)
		}
		if wantBaseline != "" && !strings.Contains(out, "newest compatible run of target branch main; made on main") {
			t.Errorf("%s: the output does not say the baseline is main's:\n%s", name, out)
		}
		return m[1]
	}
	main := step("main", "main", "", "reference", 0, "")
	step("pull request A (broken)", "pr-a", "main", "regressed", 1, main)
	step("pull request B (broken the same way)", "pr-b", "main", "regressed", 1, main)
	step("pull request A (fixed)", "pr-a", "main", "reference", 0, main)

	// --baseline-branch names the branch outside CI too.
	for _, k := range []string{"GITHUB_ACTIONS", "GITHUB_REF_NAME", "GITHUB_HEAD_REF", "GITHUB_BASE_REF"} {
		os.Unsetenv(k)
	}
	t.Setenv("AGENT_REVISION", "regressed")
	code, out, _ := evalrun(t, "--database-url", url, "run", suite, "--fail-on", "regressions", "--baseline-branch", "main")
	if code != 1 || !strings.Contains(out, "Baseline: "+main) {
		t.Errorf("--baseline-branch main: exit %d, want 1 against %s:\n%s", code, main, out)
	}
	// A branch with no run: no baseline, never another branch's run.
	code, out, _ = evalrun(t, "--database-url", url, "run", suite, "--fail-on", "regressions", "--baseline-branch", "release")
	if code != 0 || !strings.Contains(out, "no earlier compatible run of branch release") {
		t.Errorf("--baseline-branch release: exit %d, want 0 without a baseline:\n%s", code, out)
	}
}
