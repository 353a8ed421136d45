package main

import (
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestRunCmd_RecordThenReplay records a curl agent against a local
// upstream with run --record, runs the printed command (a strict replay
// with the upstream gone), then changes the agent's request: that run
// fails.
func TestRunCmd_RecordThenReplay(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"city": "`+r.URL.Query().Get("city")+`", "temp_c": 21}`)
	}))
	t.Setenv("UPSTREAM", srv.URL)
	t.Setenv("CITY", "Paris")
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "agent.sh"), `cat >/dev/null; printf '{"output": %s}' "$(curl -sS --fail "$UPSTREAM/weather?city=$CITY" | sed 's/"/\\"/g; s/^/"/; s/$/"/')"`)
	s := filepath.Join(dir, "suite.json")
	writeTestFile(t, s, `{"suite": "Weather", "agent": {"name": "A", "command": ["sh", "agent.sh"], "env": ["UPSTREAM", "CITY"]},
	  "questions": [{"id": "paris", "question": "Weather in Paris?", "checks": [{"type": "contains", "value": "21"}]}]}`)
	url := testdb.SQLiteURL(t)
	code, stdout, stderr := evalrun(t, "--database-url", url, "run", s, "--record")
	if code != 0 {
		t.Fatalf("record: exit %d\n%s%s", code, stdout, stderr)
	}
	if !strings.Contains(stdout, "recording run (not saved)") || !strings.Contains(stdout, "Recorded 1 request of 1 question: wrote ") {
		t.Errorf("record output:\n%s", stdout)
	}
	_, next, ok := strings.Cut(stdout, "\nNext: evalrun run ")
	if !ok {
		t.Fatalf("no next command:\n%s", stdout)
	}
	recorded := strings.Fields(next)[0]
	if recorded != filepath.Join(dir, "suite.recorded.json") {
		t.Errorf("recorded suite %s, want suite.recorded.json beside the suite", recorded)
	}
	srv.Close()
	if code, out, errOut := evalrun(t, "--database-url", url, "run", recorded); code != 0 {
		t.Errorf("strict replay: exit %d\n%s%s", code, out, errOut)
	}
	t.Setenv("CITY", "Rome")
	code, out, errOut := evalrun(t, "--database-url", url, "run", recorded)
	if code != exitFailed || !strings.Contains(out, "-> agent ERROR: api_replay: ") {
		t.Errorf("changed request: exit %d, want 1 with an api_replay error\n%s%s", code, out, errOut)
	}
	// A second recording never overwrites the first.
	before, _ := os.ReadFile(recorded)
	code, _, errOut = evalrun(t, "--database-url", url, "run", s, "--record")
	if after, _ := os.ReadFile(recorded); code != 2 || !strings.Contains(errOut, "exists: nothing was run or written") || string(after) != string(before) {
		t.Errorf("second record: exit %d, stderr %q", code, errOut)
	}
}
