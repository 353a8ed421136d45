package main

// Helpers shared by evalrun's tests.

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// evalrun runs the command line with args and returns its exit code and output.
func evalrun(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	var out, errOut bytes.Buffer
	code = run(args, &out, &errOut)
	return code, out.String(), errOut.String()
}

// countRuns opens url and counts the saved runs.
func countRuns(t *testing.T, url string) int {
	t.Helper()
	db, err := models.Open(context.Background(), url, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	n, err := db.NewSelect().Model((*models.Run)(nil)).Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// latestRunID returns the id of the newest run in dbURL, read directly
// (the report command would exit 1 when that run has failed checks).
func latestRunID(t *testing.T, dbURL string) string {
	t.Helper()
	db, err := (&Globals{DatabaseURL: dbURL}).open(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, _, err := db.ListRuns(context.Background(), models.RunFilter{Limit: 1})
	if err != nil || len(runs) == 0 {
		t.Fatalf("newest run: %v (%d runs)", err, len(runs))
	}
	return runs[0].ID.String()
}

// writeTestFile writes text to path or fails the test.
func writeTestFile(t *testing.T, path, text string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
}

// writeVerdict answers an OpenAI-compatible chat completion request with a
// judge verdict {"reason": reason, "score": score}.
func writeVerdict(w http.ResponseWriter, reason string, score any) {
	content, _ := json.Marshal(map[string]any{"reason": reason, "score": score})
	body, _ := json.Marshal(map[string]any{"id": "1", "object": "chat.completion", "model": "judge",
		"choices": []any{map[string]any{"index": 0, "finish_reason": "stop",
			"message": map[string]any{"role": "assistant", "content": string(content)}}},
		"usage": map[string]any{"prompt_tokens": 10, "completion_tokens": 5, "total_tokens": 15}})
	w.Header().Set("Content-Type", "application/json")
	w.Write(body)
}

// knownBugAgent writes a shell agent under dir that answers "wrong" to a
// question containing "known bug", "Within 30 days." to one containing
// "How long", and anything else with the contents of the answer file,
// which starts as "ok" and which a test rewrites to break that answer. It
// returns the agent script and the answer file.
func knownBugAgent(t *testing.T, dir string) (script, answer string) {
	t.Helper()
	script, answer = filepath.Join(dir, "agent.sh"), filepath.Join(dir, "answer.txt")
	writeTestFile(t, answer, "ok\n")
	writeTestFile(t, script, `in=$(cat)
case "$in" in
  *"known bug"*) echo wrong ;;
  *"How long"*) echo 'Within 30 days.' ;;
  *) cat '`+answer+`' ;;
esac
`)
	return script, answer
}

// migratedURL is a fresh database of the backend ("sqlite" or "postgres")
// for one test, with the tables created (db:migrate on PostgreSQL; SQLite
// files are migrated by their first use).
func migratedURL(t *testing.T, backend string) string {
	t.Helper()
	if backend != "postgres" {
		return testdb.SQLiteURL(t)
	}
	url := testdb.PostgresURL(t)
	if code, _, stderr := evalrun(t, "--database-url", url, "db:migrate"); code != exitOK {
		t.Fatalf("db:migrate: exit %d: %s", code, stderr)
	}
	return url
}
