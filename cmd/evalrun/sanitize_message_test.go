package main

import (
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestRunCmd_OwnMessagesAreNotRedacted: evalrun's own message about a
// reply's token counts reaches the terminal whole (the sanitizer used to
// read "token counts" as a credential after the word "token"), while a
// Bearer token in the agent's stderr is still hidden.
func TestRunCmd_OwnMessagesAreNotRedacted(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "agent.sh"), `cat >/dev/null; echo "AUTH=Bearer abc123secret" >&2; printf '{"output": "ok", "input_tokens": -1}'`)
	s := filepath.Join(dir, "suite.json")
	writeTestFile(t, s, `{"suite": "Msg", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
	  "questions": [{"id": "q", "question": "x", "checks": [{"type": "contains", "value": "ok"}]}]}`)
	code, stdout, stderr := evalrun(t, "--database-url", testdb.SQLiteURL(t), "run", s, "--report", filepath.Join(dir, "r.json"))
	if code != exitFailed {
		t.Fatalf("run: exit %d, want 1 (agent error)\n%s%s", code, stdout, stderr)
	}
	out := stdout + stderr
	if !strings.Contains(out, "want token counts in [0, 2147483647], got -1") || strings.Contains(out, "token [REDACTED]") {
		t.Errorf("the token-count message is not shown whole:\n%s", out)
	}
	if strings.Contains(out, "abc123secret") {
		t.Errorf("the agent's Bearer token is shown:\n%s", out)
	}
}
