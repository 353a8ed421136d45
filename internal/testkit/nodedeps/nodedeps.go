// Package nodedeps installs the npm packages of a test fixture directory
// (testdata/otel-node) the first time a test needs them, so a fresh clone
// runs its tracing tests with nothing installed by hand.
package nodedeps

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"

	"github.com/agentevals-go/agentevals/bounds"
)

// stamp is the file in node_modules that records the hash of the
// package-lock.json the packages were installed from.
const stamp = ".agentevals-lock-sha256"

// install is the command that installs the packages; failures quote it so
// a reader can run it by hand.
func install() []string { return []string{"npm", "ci", "--no-audit", "--no-fund"} }

// Require installs dir's npm packages when node_modules is missing or was
// installed from another package-lock.json, and fails tb with the command
// when it cannot. It returns dir as an absolute path.
func Require(tb testing.TB, dir string) string {
	tb.Helper()
	abs, err := Ensure(dir)
	if err != nil {
		tb.Fatal(err)
	}
	return abs
}

// Ensure is Require without the test: it returns the absolute directory,
// or an error naming the command that failed and where to run it. Test
// processes running at once take turns under a file lock in dir.
func Ensure(dir string) (string, error) { return ensure(dir, install()) }

func ensure(dir string, command []string) (string, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return "", err
	}
	lockfile, err := bounds.ReadFile(filepath.Join(abs, "package-lock.json"), 64<<20)
	if err != nil {
		return "", fmt.Errorf("npm packages of %s: %w", abs, err)
	}
	sum := sha256.Sum256(lockfile)
	want := []byte(hex.EncodeToString(sum[:]))
	if installed(abs, want) {
		return abs, nil
	}
	lock, err := os.OpenFile(filepath.Join(abs, ".npm-install.lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", fmt.Errorf("npm packages of %s: %w", abs, err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("npm packages of %s: lock: %w", abs, err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)
	if installed(abs, want) { // another test process installed them meanwhile
		return abs, nil
	}
	how := fmt.Sprintf("(cd %s && %s)", abs, strings.Join(command, " "))
	if _, err := exec.LookPath(command[0]); err != nil {
		return "", fmt.Errorf("the npm packages of %s are not installed and %s is not on PATH (install Node.js and npm, e.g. apt-get install nodejs npm), then run: %s", abs, command[0], how)
	}
	cmd := exec.Command(command[0], command[1:]...)
	cmd.Dir = abs
	if out, err := cmd.CombinedOutput(); err != nil {
		return "", fmt.Errorf("installing the npm packages of %s failed: %s: %w\n%s", abs, how, err, tail(out, 4000))
	}
	if err := os.MkdirAll(filepath.Join(abs, "node_modules"), 0o755); err != nil {
		return "", err
	}
	if err := os.WriteFile(filepath.Join(abs, "node_modules", stamp), want, 0o644); err != nil {
		return "", err
	}
	return abs, nil
}

// installed reports whether node_modules was installed from the lock file
// whose hash is want.
func installed(dir string, want []byte) bool {
	got, err := bounds.ReadFile(filepath.Join(dir, "node_modules", stamp), 1<<10)
	return err == nil && bytes.Equal(got, want)
}

func tail(b []byte, n int) string {
	if len(b) > n {
		return "…" + string(b[len(b)-n:])
	}
	return string(b)
}

// RequireNode fails tb unless the node on PATH is at least version min
// ("22.13": major and minor), saying which one it found and how to put a
// newer one first.
func RequireNode(tb testing.TB, min string) {
	tb.Helper()
	if err := checkNode(min, nodeVersion); err != nil {
		tb.Fatal(err)
	}
}

// nodeVersion runs node --version.
func nodeVersion() (string, error) {
	out, err := exec.Command("node", "--version").Output()
	return strings.TrimSpace(string(out)), err
}

func checkNode(min string, version func() (string, error)) error {
	want := majorMinor(min)
	fix := fmt.Sprintf("install Node.js %s or newer and put it first on PATH (export PATH=/path/to/node%d/bin:$PATH)", min, want[0])
	v, err := version()
	if err != nil {
		return fmt.Errorf("these tests need Node.js %s+ and node --version failed (%v): %s", min, err, fix)
	}
	got := majorMinor(strings.TrimPrefix(v, "v"))
	if got[0] < 0 || got[0] < want[0] || got[0] == want[0] && got[1] < want[1] {
		return fmt.Errorf("node %s found, these tests need Node.js %s+: %s", v, min, fix)
	}
	return nil
}

// majorMinor reads "22.13.1" as [22 13]; -1 for a part that is no number.
func majorMinor(v string) [2]int {
	out := [2]int{-1, 0}
	parts := strings.SplitN(v, ".", 3)
	for i := 0; i < 2 && i < len(parts); i++ {
		if n, err := strconv.Atoi(parts[i]); err == nil {
			out[i] = n
		} else if i == 0 {
			return out
		}
	}
	return out
}
