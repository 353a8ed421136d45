package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestRunCmd_RecordWritesNoSecret records a reply that holds credentials
// under names a recording must treat as secret (session, auth_code, pin,
// access, a bare key), under a credential-shaped JSON key, and beside
// booleans under sensitive names: the written files hold none of the
// planted values and every value keeps its JSON type. A second agent
// whose request path carries a key is refused, nothing is written, and
// the message does not repeat the key.
func TestRunCmd_RecordWritesNoSecret(t *testing.T) {
	planted := []string{"sess-planted-01", "authcode-planted-02", "4711", "access-planted-03", "key-planted-04",
		"sk-planted0pathsecret05", "sk-planted0jsonkey06"}
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"session": "sess-planted-01", "auth_code": "authcode-planted-02", "pin": 4711,
		  "access": "access-planted-03", "key": "key-planted-04", "sk-planted0jsonkey06": {"n": 1},
		  "token_valid": true, "password_set": false, "city": "Paris"}`)
	}))
	defer srv.Close()
	t.Setenv("UPSTREAM", srv.URL)
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "agent.sh"), `cat >/dev/null; curl -sS --fail "$UPSTREAM$REQ_PATH" >/dev/null; printf '{"output": "ok"}'`)
	s := filepath.Join(dir, "suite.json")
	writeTestFile(t, s, `{"suite": "Rec", "agent": {"name": "A", "command": ["sh", "agent.sh"], "env": ["UPSTREAM", "REQ_PATH"]},
	  "questions": [{"id": "q", "question": "Go?", "checks": [{"type": "contains", "value": "ok"}]}]}`)
	url := testdb.SQLiteURL(t)

	t.Setenv("REQ_PATH", "/profile")
	code, stdout, stderr := evalrun(t, "--database-url", url, "run", s, "--record")
	if code != 0 {
		t.Fatalf("record: exit %d\n%s%s", code, stdout, stderr)
	}
	body, err := os.ReadFile(filepath.Join(dir, "fixtures", "recorded", "q-1.json"))
	if err != nil {
		t.Fatal(err)
	}
	suiteOut, _ := os.ReadFile(filepath.Join(dir, "suite.recorded.json"))
	for _, doc := range []string{string(body), string(suiteOut), stdout, stderr} {
		for _, p := range planted {
			if strings.Contains(doc, p) {
				t.Errorf("recording leaks %q:\n%s", p, doc)
			}
		}
	}
	var reply map[string]any
	if err := json.Unmarshal(body, &reply); err != nil {
		t.Fatal(err)
	}
	for k, want := range map[string]any{"token_valid": true, "password_set": false, "pin": 0.0, "session": "[REDACTED]", "city": "Paris"} {
		if reply[k] != want {
			t.Errorf("recorded %s = %#v, want %#v (same JSON type)", k, reply[k], want)
		}
	}
	if _, ok := reply["[REDACTED]"].(map[string]any); !ok {
		t.Errorf("the credential-shaped key is not renamed: %s", body)
	}

	t.Setenv("REQ_PATH", "/keys/sk-planted0pathsecret05")
	code, stdout, stderr = evalrun(t, "--database-url", url, "run", s, "--record", "--record-to", filepath.Join(dir, "again.json"))
	if code != 2 || !strings.Contains(stderr, "the URL path holds a credential") {
		t.Errorf("secret in the path: exit %d, want 2 with the reason\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stdout+stderr, "sk-planted0pathsecret05") {
		t.Errorf("the refusal repeats the key:\n%s%s", stdout, stderr)
	}
	if _, err := os.Stat(filepath.Join(dir, "again.json")); err == nil {
		t.Error("a refused recording wrote the suite")
	}
}
