package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestRunCmd_TimeoutFlag shows that a positive --timeout bounds the agent
// call (the flag is optional, so an omitted one must not read as 0).
func TestRunCmd_TimeoutFlag(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "agent.sh"), []byte("cat >/dev/null; sleep 5; echo ok\n"), 0o644)
	s := filepath.Join(dir, "suite.json")
	os.WriteFile(s, []byte(`{"suite": "Slow", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
	  "evaluators": {"exact": {"type": "exact_match"}}, "questions": [{"id": "q", "question": "q", "expected_answer": "ok"}]}`), 0o644)
	url := testdb.SQLiteURL(t)
	code, out, stderr := evalrun(t, "--database-url", url, "run", s, "--timeout", "300ms")
	if code != exitFailed || !strings.Contains(out, "-> agent ERROR: timeout: ") {
		t.Errorf("exit %d, want 1 and an agent timeout:\n%s%s", code, out, stderr)
	}
}
