package main

import (
	"os"
	"os/exec"
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

// TestRun_PullRequestBaselineAtTheMergeBase: main ran at c1 and again at
// c2; a pull request branched from c1 is compared with main's run at c1,
// the newest one at or before its merge base, not with the run at c2,
// which holds main's changes the pull request does not have.
func TestRun_PullRequestBaselineAtTheMergeBase(t *testing.T) {
	suite := copySupportExample(t)
	repo := filepath.Dir(suite)
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-C", repo}, args...)...)
		cmd.Env = append(os.Environ(), "GIT_AUTHOR_NAME=t", "GIT_AUTHOR_EMAIL=t@example.com", "GIT_COMMITTER_NAME=t",
			"GIT_COMMITTER_EMAIL=t@example.com", "GIT_CONFIG_GLOBAL=/dev/null", "GIT_CONFIG_NOSYSTEM=1")
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	git("init", "-q", "-b", "main")
	git("add", ".")
	git("commit", "-q", "-m", "c1")
	url := migratedURL(t, "sqlite")
	for _, k := range []string{"GITHUB_ACTIONS", "GITHUB_REF_NAME", "GITHUB_HEAD_REF", "GITHUB_BASE_REF"} {
		t.Setenv(k, "")
	}
	t.Setenv("AGENT_REVISION", "reference")
	run := func(args ...string) string {
		t.Helper()
		code, out, errOut := evalrun(t, append([]string{"--database-url", url, "run", suite}, args...)...)
		m := savedRunRe.FindStringSubmatch(out)
		if code != exitOK || m == nil {
			t.Fatalf("run %v: exit %d\n%s%s", args, code, out, errOut)
		}
		return m[1]
	}
	atC1 := run()
	writeTestFile(t, filepath.Join(repo, "notes.txt"), "main moved on\n")
	git("add", ".")
	git("commit", "-q", "-m", "c2")
	atC2 := run()
	git("checkout", "-q", "-b", "pr-x", "HEAD~1")
	writeTestFile(t, filepath.Join(repo, "change.txt"), "the pull request\n")
	git("add", ".")
	git("commit", "-q", "-m", "c3")
	code, out, _ := evalrun(t, "--database-url", url, "run", suite, "--baseline-branch", "main")
	if code != exitOK || !strings.Contains(out, "Baseline: "+atC1) || strings.Contains(out, atC2) ||
		!strings.Contains(out, "target branch main at or before the merge base") {
		t.Errorf("the pull request: exit %d, want the run at c1 %s (not %s) at the merge base:\n%s", code, atC1, atC2, out)
	}
}
