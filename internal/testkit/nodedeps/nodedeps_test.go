package nodedeps

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// fixture writes a package with no dependencies, so npm ci runs offline.
func fixture(t *testing.T) string {
	t.Helper()
	dir := t.TempDir()
	files := map[string]string{
		"package.json":      `{"name": "fixture", "version": "1.0.0", "private": true}`,
		"package-lock.json": `{"name": "fixture", "version": "1.0.0", "lockfileVersion": 3, "requires": true, "packages": {"": {"name": "fixture", "version": "1.0.0"}}}`,
	}
	for name, body := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// Packages are installed when missing, not again while the lock file is
// unchanged, and again when it changes.
func TestEnsure_installsOnceAgainstTheLockFile(t *testing.T) {
	dir := fixture(t)
	if _, err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	stampPath := filepath.Join(dir, "node_modules", stamp)
	first, err := os.ReadFile(stampPath)
	if err != nil {
		t.Fatalf("no stamp after installing: %v", err)
	}
	// A second call must not run npm: a command that cannot exist proves it.
	if _, err := ensure(dir, []string{"no-such-npm-command"}); err != nil {
		t.Fatalf("installed again although the lock file is unchanged: %v", err)
	}
	lock := filepath.Join(dir, "package-lock.json")
	b, _ := os.ReadFile(lock)
	if err := os.WriteFile(lock, append(b, '\n'), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = ensure(dir, []string{"no-such-npm-command"})
	if err == nil || !strings.Contains(err.Error(), "no-such-npm-command is not on PATH") || !strings.Contains(err.Error(), "cd "+dir) {
		t.Fatalf("a stale node_modules was not reinstalled with a loud error naming the command: %v", err)
	}
	if _, err := Ensure(dir); err != nil {
		t.Fatal(err)
	}
	second, _ := os.ReadFile(stampPath)
	if string(first) == string(second) {
		t.Error("the stamp did not follow the changed lock file")
	}
}

// A failing install quotes the command and its output.
func TestEnsure_failureQuotesTheCommand(t *testing.T) {
	dir := fixture(t)
	_, err := ensure(dir, []string{"sh", "-c", "echo registry unreachable >&2; exit 1"})
	if err == nil || !strings.Contains(err.Error(), "registry unreachable") || !strings.Contains(err.Error(), "(cd "+dir+" && sh -c") {
		t.Fatalf("error %v", err)
	}
}

// An old or missing node fails with the version found and the fix.
func TestCheckNode(t *testing.T) {
	for _, tc := range []struct {
		version string
		err     error
		want    string
	}{
		{version: "v22.13.0"},
		{version: "v22.23.5"},
		{version: "v24.1.0"},
		{version: "v22.12.0", want: "node v22.12.0 found, these tests need Node.js 22.13+"},
		{version: "v20.19.2", want: "node v20.19.2 found, these tests need Node.js 22.13+: install Node.js 22.13 or newer and put it first on PATH (export PATH=/path/to/node22/bin:$PATH)"},
		{version: "garbage", want: "node garbage found"},
		{err: os.ErrNotExist, want: "node --version failed"},
	} {
		err := checkNode("22.13", func() (string, error) { return tc.version, tc.err })
		if tc.want == "" && err != nil || tc.want != "" && (err == nil || !strings.Contains(err.Error(), tc.want)) {
			t.Errorf("%q, %v: error %v, want %q", tc.version, tc.err, err, tc.want)
		}
	}
}
