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

// TestRunCmd_RecordRedactsEncodedForms: a reply whose text holds
// credentials as name: value, after an escape sequence and inside a
// JSON-encoded string is recorded without them.
func TestRunCmd_RecordRedactsEncodedForms(t *testing.T) {
	planted := []string{"pwRecHunter1", "sk-recabcdefghijklmnop", "akRecValue2", "tokRec3x9"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"note": "db password: pwRecHunter1", "log": "line one\\nsk-recabcdefghijklmnop",
		  "cfg": "{\"api_key\": \"akRecValue2\"}", "hdr": "sent\\nBearer tokRec3x9", "city": "Paris"}`)
	}))
	defer srv.Close()
	t.Setenv("UPSTREAM", srv.URL)
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "agent.sh"), `cat >/dev/null; curl -sS --fail "$UPSTREAM/profile" >/dev/null; printf '{"output": "ok"}'`)
	s := filepath.Join(dir, "suite.json")
	writeTestFile(t, s, `{"suite": "Rec", "agent": {"name": "A", "command": ["sh", "agent.sh"], "env": ["UPSTREAM"]},
	  "questions": [{"id": "q", "question": "Go?", "checks": [{"type": "contains", "value": "ok"}]}]}`)
	code, stdout, stderr := evalrun(t, "--database-url", testdb.SQLiteURL(t), "run", s, "--record")
	if code != 0 {
		t.Fatalf("record: exit %d\n%s%s", code, stdout, stderr)
	}
	body, err := os.ReadFile(filepath.Join(dir, "fixtures", "recorded", "q-1.json"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(body), "Paris") {
		t.Fatalf("the reply was not recorded: %s", body)
	}
	suiteOut, _ := os.ReadFile(filepath.Join(dir, "suite.recorded.json"))
	for _, doc := range []string{string(body), string(suiteOut), stdout, stderr} {
		for _, p := range planted {
			if strings.Contains(doc, p) {
				t.Errorf("recording leaks %q:\n%s", p, doc)
			}
		}
	}
}
