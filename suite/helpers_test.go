package suite

// Helpers shared by the suite's internal tests.

import (
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"testing"
)

// mustLoad writes a suite file into a temp dir and loads it.
func mustLoad(tb testing.TB, content string) *Suite {
	tb.Helper()
	s, err := Load(testfile.Write(tb, tb.TempDir(), "suite.json", content))
	if err != nil {
		tb.Fatalf("Load: %v", err)
	}
	return s
}
