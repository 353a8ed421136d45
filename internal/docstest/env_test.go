package docstest

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
)

// tools are the freshly built binaries and the Go settings every block
// runs with, set up once by TestMain.
type tools struct {
	root     string // the repository (module root)
	bin      string // evalrun and evaldash, built from root
	goroot   string
	gocache  string
	modcache string
}

var env tools

func TestMain(m *testing.M) {
	if err := setup(); err != nil {
		fmt.Fprintln(os.Stderr, "docstest:", err)
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(env.bin)
	os.Exit(code)
}

// setup builds evalrun and evaldash, reads the Go settings and fills the
// module cache with what tidying the checkout reads: the blocks run
// offline, and a user's module built from the docs (go mod tidy) reads
// go.mod files and dependencies' test imports a plain build of the
// checkout never needs. A go.mod that is not tidy fails here, with the
// diff.
func setup() error {
	root, err := moduleRoot()
	if err != nil {
		return err
	}
	env.root = root
	for k, dst := range map[string]*string{"GOROOT": &env.goroot, "GOCACHE": &env.gocache, "GOMODCACHE": &env.modcache} {
		out, err := exec.Command("go", "env", k).Output()
		if err != nil {
			return fmt.Errorf("go env %s: %w (is Go on PATH?)", k, err)
		}
		*dst = strings.TrimSpace(string(out))
	}
	for _, args := range [][]string{{"mod", "download"}, {"mod", "tidy", "-diff"}} {
		cmd := exec.Command("go", args...)
		cmd.Dir = root
		if out, err := cmd.CombinedOutput(); err != nil {
			return fmt.Errorf("go %s (filling the module cache for the offline blocks): %w\n%s", strings.Join(args, " "), err, tail(out, 4000))
		}
	}
	if env.bin, err = os.MkdirTemp("", "docstest-bin-"); err != nil {
		return err
	}
	cmd := exec.Command("go", "build", "-o", env.bin+"/", "./cmd/evalrun", "./cmd/evaldash")
	cmd.Dir = root
	if out, err := cmd.CombinedOutput(); err != nil {
		return fmt.Errorf("building evalrun and evaldash: %w\n%s", err, out)
	}
	return nil
}

func moduleRoot() (string, error) {
	dir, err := os.Getwd()
	if err != nil {
		return "", err
	}
	for {
		if _, err := os.Stat(filepath.Join(dir, "go.mod")); err == nil {
			return dir, nil
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return "", fmt.Errorf("no go.mod above %s", dir)
		}
		dir = parent
	}
}

// offlineHint says how to fill the module cache when an offline go
// command failed for want of a module: the blocks never fetch, so the
// checkout's whole module graph must be downloaded once beforehand.
func offlineHint(out []byte) string {
	if !bytes.Contains(out, []byte("module lookup disabled by GOPROXY=off")) {
		return ""
	}
	return "\n(the module cache lacks part of the module graph: run `go mod download && go mod tidy -diff` in the checkout once, online)"
}

// environ is the whole environment of a block: built from nothing (the
// caller's DATABASE_URL, CI variables or API keys never leak in), with the
// fresh binaries first on PATH, an empty HOME and XDG data directory (so
// the embedded default database is the block's own), the module cache
// read-only through GOPROXY=off, and no colour.
func environ(home string, extra ...string) []string {
	e := []string{
		"PATH=" + env.bin + ":" + filepath.Join(env.goroot, "bin") + ":/usr/local/bin:/usr/bin:/bin",
		"HOME=" + home,
		"XDG_DATA_HOME=" + filepath.Join(home, ".local", "share"),
		"XDG_CACHE_HOME=" + filepath.Join(home, ".cache"),
		"XDG_CONFIG_HOME=" + filepath.Join(home, ".config"),
		"TMPDIR=" + filepath.Join(home, "tmp"),
		"GOCACHE=" + env.gocache,
		"GOMODCACHE=" + env.modcache,
		"GOPATH=" + filepath.Join(home, "go"),
		"GOPROXY=off",
		"GOSUMDB=off",
		"GOTOOLCHAIN=local",
		"GOWORK=off",
		"LANG=C.UTF-8",
		"NO_COLOR=1",
		"TERM=dumb",
	}
	return append(e, extra...)
}

// workRoot is where the documents' working copies live: a fixed place per
// checkout, so the go commands of a block find the build cache of the
// previous run (the cache keys on a package's directory) and only changed
// packages compile again. A lock keeps two runs from one checkout apart.
func workRoot(t *testing.T) string {
	t.Helper()
	sum := sha256.Sum256([]byte(env.root))
	dir := filepath.Join(os.TempDir(), "agentevals-docstest-"+hex.EncodeToString(sum[:6]))
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, ".lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		t.Fatal(err)
	}
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		t.Fatalf("locking %s: %v", dir, err)
	}
	t.Cleanup(func() { lock.Close() })
	return dir
}

// copyRepo copies the files git tracks (and the working tree's changes to
// them) from root to dst, so blocks can write files without touching the
// checkout. Untracked files stay behind: what a reader made by following
// the docs in the checkout (the tour's evals/, support/, .github/ and
// report) would otherwise be in the way of the blocks that make it again.
// A new file must be added to git (git add -N is enough) to be copied.
func copyRepo(t *testing.T, root, dst string) {
	t.Helper()
	cmd := exec.Command("git", "ls-files", "-z", "--cached")
	cmd.Dir = root
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("git ls-files in %s: %v (the docs test needs a git checkout)", root, err)
	}
	for _, rel := range bytes.Split(out, []byte{0}) {
		if len(rel) == 0 {
			continue
		}
		src := filepath.Join(root, string(rel))
		info, err := os.Lstat(src)
		if err != nil || !info.Mode().IsRegular() {
			continue // deleted in the working tree, or a symlink
		}
		if err := copyFile(src, filepath.Join(dst, string(rel)), info.Mode().Perm()); err != nil {
			t.Fatal(err)
		}
	}
}

func copyFile(src, dst string, mode os.FileMode) error {
	if err := os.MkdirAll(filepath.Dir(dst), 0o755); err != nil {
		return err
	}
	in, err := os.Open(src)
	if err != nil {
		return err
	}
	defer in.Close()
	out, err := os.OpenFile(dst, os.O_CREATE|os.O_WRONLY|os.O_TRUNC, mode)
	if err != nil {
		return err
	}
	if _, err := io.Copy(out, in); err != nil {
		out.Close()
		return err
	}
	return out.Close()
}

// tail returns the last n bytes of b, for failure messages.
func tail(b []byte, n int) string {
	if len(b) > n {
		return "…" + string(b[len(b)-n:])
	}
	return string(b)
}
