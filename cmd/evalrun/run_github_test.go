package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// returnsAnnotation is the start of the failed-question annotation of the
// support example's regressed run; "returns" starts on line 16 of its suite.
const returnsAnnotation = "::error file=%s,line=16,title=Customer support / SupportAgent%%3A returns failed::"

// runRegressedGitHub runs the support example's regressed revision with
// --report github and returns stdout.
func runRegressedGitHub(t *testing.T, db, s string) string {
	t.Helper()
	t.Setenv("GITHUB_STEP_SUMMARY", "")
	t.Setenv("AGENT_REVISION", "regressed")
	code, out, stderr := evalrun(t, "--database-url", db, "run", s, "--report", "github")
	if code != exitFailed {
		t.Fatalf("run: exit %d, want %d\n%s%s", code, exitFailed, out, stderr)
	}
	return out
}

// TestRunCmd_GitHubAnnotationsLocated: run --report github puts file= and
// line= on a question's annotations, the file relative to the repository
// root (this checkout), while report --format github, with no suite file at
// hand, keeps them unlocated.
func TestRunCmd_GitHubAnnotationsLocated(t *testing.T) {
	db := "sqlite:" + filepath.Join(t.TempDir(), "runs.sqlite3")
	out := runRegressedGitHub(t, db, supportSuite)
	want := fmt.Sprintf(returnsAnnotation, "examples/support/suite.json")
	if !strings.Contains(out, want) {
		t.Errorf("no located annotation %q in:\n%s", want, out)
	}
	if !strings.Contains(out, "::notice title=Customer support / SupportAgent::") {
		t.Errorf("the totals notice should stay unlocated:\n%s", out)
	}
	code, out, stderr := evalrun(t, "--database-url", db, "report", "--format", "github", "--fail-on", "failures")
	if code != exitFailed || !strings.Contains(out, "::error title=") || strings.Contains(out, "file=") {
		t.Errorf("report --format github: exit %d, want unlocated annotations\n%s%s", code, out, stderr)
	}
}

// TestRunCmd_GitHubAnnotationsOutsideRepo: outside a git repository the
// file is the suite path as given.
func TestRunCmd_GitHubAnnotationsOutsideRepo(t *testing.T) {
	dir := t.TempDir()
	if root := gitRootAbove(dir); root != "" {
		t.Fatalf("the test's temp dir %s is inside the git repository %s: set TMPDIR to a directory outside any repository", dir, root)
	}
	for _, name := range []string{"suite.json", "agent.sh", "policies.txt"} {
		b, err := os.ReadFile(filepath.Join(filepath.Dir(supportSuite), name))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	db := "sqlite:" + filepath.Join(t.TempDir(), "runs.sqlite3")
	t.Chdir(dir)
	for _, s := range []string{"suite.json", filepath.Join(dir, "suite.json")} {
		out := runRegressedGitHub(t, db, s)
		want := fmt.Sprintf(returnsAnnotation, s)
		if !strings.Contains(out, want) {
			t.Errorf("no annotation %q in:\n%s", want, out)
		}
	}
}

// gitRootAbove is the nearest directory from dir up that holds .git, as
// the annotations' file names are resolved; "" when there is none.
func gitRootAbove(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
}
