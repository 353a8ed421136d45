package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestHistoryCmd_IgnoresCaseAndSuggests: --suite matches ignoring case,
// and a name that matches nothing gets close names of saved runs.
func TestHistoryCmd_IgnoresCaseAndSuggests(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "agent.sh"), []byte("cat >/dev/null; echo ok\n"), 0o644)
	s := filepath.Join(dir, "suite.json")
	os.WriteFile(s, []byte(`{"suite": "Trivia", "agent": {"name": "QuizBot", "command": ["sh", "agent.sh"]},
	  "questions": [{"id": "q", "question": "q", "checks": [{"type": "contains", "value": "ok"}]}]}`), 0o644)
	url := testdb.SQLiteURL(t)
	if code, out, stderr := evalrun(t, "--database-url", url, "run", s); code != 0 {
		t.Fatalf("run: exit %d\n%s%s", code, out, stderr)
	}
	code, out, _ := evalrun(t, "--database-url", url, "history", "--suite", "trivia", "--agent", "quizbot")
	if code != 0 || !strings.Contains(out, "Trivia") || strings.Contains(out, "No runs") {
		t.Errorf("history --suite trivia: exit %d\n%s", code, out)
	}
	code, out, _ = evalrun(t, "--database-url", url, "history", "--suite", "trivai")
	want := "No runs of suite \"trivai\" (names match ignoring case).\nDid you mean --suite \"Trivia\"?\n"
	if code != 0 || out != want {
		t.Errorf("history --suite trivai: exit %d\n%q\nwant %q", code, out, want)
	}
}

// TestHistoryCmd_EmptyDatabaseSaysHowToStart: an empty history tells a new
// user how runs get there instead of a bare "No runs.".
func TestHistoryCmd_EmptyDatabaseSaysHowToStart(t *testing.T) {
	url := testdb.SQLiteURL(t)
	if code, out, stderr := evalrun(t, "--database-url", url, "db:migrate"); code != 0 {
		t.Fatalf("db:migrate: exit %d\n%s%s", code, out, stderr)
	}
	code, out, _ := evalrun(t, "--database-url", url, "history")
	want := "No runs yet in " + url + ": evalrun run SUITE saves one (evalrun init DIR writes a first suite).\n"
	if code != 0 || out != want {
		t.Errorf("history: exit %d\n%q\nwant %q", code, out, want)
	}
}
