package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestRunCmd_InterruptedReplay interrupts a run of a suite with
// api_interactions (the second agent process sends SIGINT to evalrun, like
// Ctrl-C, --grace 0: at once) on SQLite and on PostgreSQL: nothing is saved, and the replay
// CA's temp dir, which the agents saw through SSL_CERT_FILE, is gone, so
// TMPDIR is left empty.
func TestRunCmd_InterruptedReplay(t *testing.T) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			dir := t.TempDir()
			seen := filepath.Join(dir, "ca-files.txt")
			os.WriteFile(filepath.Join(dir, "agent.sh"), []byte(`q=$(cat)
echo "$SSL_CERT_FILE" >> ca-files.txt
case "$q" in *second*) kill -INT $PPID; sleep 5 ;; esac
echo ok
`), 0o644)
			s := filepath.Join(dir, "suite.json")
			fixture := `"api_interactions": [{"expect_request": {"method": "GET", "url": "https://api.example/x"}, "respond_with": {"json": 1}}]`
			os.WriteFile(s, []byte(`{"suite": "Interrupt replay", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
			  "evaluators": {"exact": {"type": "exact_match"}},
			  "questions": [{"question": "first", "expected_answer": "ok", `+fixture+`},
			    {"question": "second", "expected_answer": "ok", `+fixture+`},
			    {"question": "third", "expected_answer": "ok", `+fixture+`}]}`), 0o644)
			url := migratedURL(t, backend)
			tmp := t.TempDir()
			t.Setenv("TMPDIR", tmp)

			code, out, stderr := evalrun(t, "--database-url", url, "run", s, "--concurrency", "1", "--grace", "0")
			if code != exitFailed || !strings.Contains(stderr, "1 of 3 cases finished, 2 unfinished; nothing was saved") {
				t.Errorf("exit %d, want 1 and the interruption message:\n%s%s", code, out, stderr)
			}
			if got := countRuns(t, url); got != 0 {
				t.Errorf("%d runs written by an interrupted run", got)
			}
			b, _ := os.ReadFile(seen)
			files := strings.Fields(string(b))
			if len(files) != 2 {
				t.Fatalf("agents saw SSL_CERT_FILE %q, want two agent calls", files)
			}
			for _, f := range files {
				if !strings.HasPrefix(f, tmp+string(filepath.Separator)) {
					t.Errorf("the CA file %s is not under TMPDIR %s", f, tmp)
				}
			}
			left, err := os.ReadDir(tmp)
			if err != nil {
				t.Fatal(err)
			}
			for _, e := range left {
				t.Errorf("TMPDIR still holds %s after the interrupted run", e.Name())
			}
		})
	}
}
