package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestRunCmd_FailedIn reruns only the questions that failed in a run.
func TestRunCmd_FailedIn(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "agent.sh"), []byte("cat >/dev/null; echo Paris\n"), 0o644)
	s := filepath.Join(dir, "suite.json")
	os.WriteFile(s, []byte(`{"suite": "Sel", "agent": {"name": "A", "command": ["sh", "agent.sh"]}, "questions": [
	  {"id": "a", "question": "q", "checks": [{"type": "contains", "value": "Paris"}], "metadata": {"tags": ["geo"]}},
	  {"id": "b", "question": "q", "checks": [{"type": "contains", "value": "Rome"}]},
	  {"id": "c", "question": "q", "checks": [{"type": "contains", "value": "Oslo"}]}]}`), 0o644)
	url := testdb.SQLiteURL(t)
	if code, out, stderr := evalrun(t, "--database-url", url, "run", s); code != exitFailed {
		t.Fatalf("first run: exit %d\n%s%s", code, out, stderr)
	}
	first := latestRunID(t, url)
	code, out, stderr := evalrun(t, "--database-url", url, "run", s, "--failed-in", first)
	if code != exitFailed {
		t.Fatalf("--failed-in: exit %d\n%s%s", code, out, stderr)
	}
	if !strings.Contains(out, "\nb ") || !strings.Contains(out, "\nc ") || strings.Contains(out, "\na ") {
		t.Errorf("--failed-in %s ran other questions than b and c:\n%s", first, out)
	}
	code, out, _ = evalrun(t, "--database-url", url, "run", s, "--tag", "geo")
	if code != exitOK || !strings.Contains(out, "Passing questions: 1 of 1") {
		t.Errorf("--tag geo: exit %d\n%s", code, out)
	}
	code, _, stderr = evalrun(t, "--database-url", url, "run", s, "--failed-in", "not-a-run")
	if code != exitInvalid || !strings.Contains(stderr, `--failed-in "not-a-run": not a run id`) {
		t.Errorf("bad run id: exit %d, %s", code, stderr)
	}
}
