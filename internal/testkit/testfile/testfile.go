// Package testfile writes the files a test reads (suites, scripts,
// fixtures) under a test's temporary directory.
package testfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Write writes content to name under dir, creating the directories name
// needs, and returns the file's path; any error fails the test.
func Write(tb testing.TB, dir, name, content string) string {
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
