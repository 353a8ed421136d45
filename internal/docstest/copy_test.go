package docstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"testing"
)

// The sandbox gets the tracked files with their working-tree content and
// none of what following the docs left in the checkout (the tour's evals/,
// .github/, support/ and report), which the blocks would otherwise find in
// their way.
func TestCopyRepo_leavesUntrackedFilesBehind(t *testing.T) {
	root := t.TempDir()
	git := func(args ...string) {
		t.Helper()
		cmd := exec.Command("git", append([]string{"-c", "user.email=t@example.com", "-c", "user.name=t"}, args...)...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			t.Fatalf("git %v: %v\n%s", args, err, out)
		}
	}
	write := func(rel, body string) {
		t.Helper()
		p := filepath.Join(root, rel)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	git("init", "-q")
	write("README.md", "committed")
	write("docs/new.md", "added, not committed")
	git("add", "README.md")
	git("commit", "-q", "-m", "init")
	git("add", "-N", "docs/new.md")
	write("README.md", "edited")
	for _, rel := range []string{"evals/suite.json", ".github/workflows/evals.yml", "support/support_test.go", "regressed.html"} {
		write(rel, "the tour's output")
	}
	dst := t.TempDir()
	copyRepo(t, root, dst)
	for rel, want := range map[string]string{"README.md": "edited", "docs/new.md": "added, not committed"} {
		if b, err := os.ReadFile(filepath.Join(dst, rel)); err != nil || string(b) != want {
			t.Errorf("%s: %q, %v; want %q", rel, b, err, want)
		}
	}
	for _, rel := range []string{"evals", ".github", "support", "regressed.html"} {
		if _, err := os.Stat(filepath.Join(dst, rel)); err == nil {
			t.Errorf("%s, untracked, was copied into the sandbox", rel)
		}
	}
}
