package suite

// Helpers shared by the suite's internal tests.

import (
	"os"
	"path/filepath"
	"testing"
)

// writeFile writes a file under dir and returns its path.
func writeFile(tb testing.TB, dir, name, content string) string {
	tb.Helper()
	path := filepath.Join(dir, name)
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		tb.Fatal(err)
	}
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
	return path
}

// mustLoad writes a suite file into a temp dir and loads it.
func mustLoad(tb testing.TB, content string) *Suite {
	tb.Helper()
	s, err := Load(writeFile(tb, tb.TempDir(), "suite.json", content))
	if err != nil {
		tb.Fatalf("Load: %v", err)
	}
	return s
}
