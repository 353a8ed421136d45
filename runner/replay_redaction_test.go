package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/schema"
	"github.com/agentevals-go/agentevals/suite"
)

// planted are the credentials the redaction test plants; none may survive.
var planted = []string{"fixture-auth-0001", "fixture-key-0002", "fixture-token-0003",
	"agent-bearer-0004", "agent-cookie-0005", "agent-apikey-0006", "agent-qkey-0007",
	"agent-password-0008", "agent-secret-0009", "sk-agentplanted0010"}

// redactionSuite declares the same credential-laden interaction for three
// cases: "1" is matched, "2" mismatched and rescued by the agent, "3"
// mismatched and failed with an error quoting the URL and its query.
func redactionSuite(a string) string {
	interaction := `{"expect_request": {"method": "POST", "url": "https://api.example/v1/orders",
	    "query": {"api_key": "fixture-key-0002"}, "headers": {"Authorization": "Bearer fixture-auth-0001"},
	    "json": {"access_token": "fixture-token-0003", "n": 1}},
	   "respond_with": {"headers": {"Set-Cookie": "sid=fixture-token-0003"}, "json": {"ok": true}}}`
	return `{"suite": "Redaction", "agent": ` + a + `, "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [
	    {"id": "matched", "question": "1", "expected_answer": "ok", "api_interactions": [` + interaction + `]},
	    {"id": "rescued", "question": "2", "expected_answer": "ok", "api_interactions": [` + interaction + `]},
	    {"id": "failed", "question": "3", "expected_answer": "ok", "api_interactions": [` + interaction + `]}]}`
}

// leakyGoAgent sends the planted credentials in headers, query and body
// through the case's HTTP client (replay in process).
var leakyGoAgent = agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
	var which string
	json.Unmarshal(q.Question, &which)
	n, key := "1", "fixture-key-0002"
	if which != "1" {
		n, key = "2", "agent-qkey-0007"
	}
	body := `{"access_token": "fixture-token-0003", "n": ` + n + `, "password": "agent-password-0008", "profile": {"client_secret": "agent-secret-0009"}}`
	if which == "1" {
		body = `{"access_token": "fixture-token-0003", "n": 1}`
	}
	req, _ := http.NewRequestWithContext(ctx, "POST", "https://api.example/v1/orders?api_key="+key+"&x_api_key=agent-apikey-0006", strings.NewReader(body))
	if which == "1" {
		req.URL.RawQuery = "api_key=" + key
	}
	req.Header.Set("Authorization", "Bearer fixture-auth-0001")
	if which != "1" {
		req.Header.Set("Authorization", "Bearer agent-bearer-0004")
		req.Header.Set("Cookie", "sid=agent-cookie-0005")
		req.Header.Set("X-Trace", "sk-agentplanted0010")
	}
	resp, err := agent.HTTPClient(ctx).Do(req)
	switch {
	case err != nil && which == "3":
		return agent.Response{}, err // the client's error quotes the URL and its query
	case err != nil:
		return agent.Response{Output: json.RawMessage(`"ok"`)}, nil
	}
	resp.Body.Close()
	return agent.Response{Output: json.RawMessage(`"ok"`)}, nil
})

// leakyPyAgent is leakyGoAgent as a command agent (Python's standard
// library through the replay proxy, over HTTPS): case "3" fails with the
// URL and its query on stderr.
const leakyPyAgent = `import json, sys, urllib.request, urllib.error
which = json.load(sys.stdin)["question"]
url = "https://api.example/v1/orders?api_key=fixture-key-0002"
body = {"access_token": "fixture-token-0003", "n": 1}
headers = {"Authorization": "Bearer fixture-auth-0001"}
if which != "1":
    url = "https://api.example/v1/orders?api_key=agent-qkey-0007&x_api_key=agent-apikey-0006"
    body = {"access_token": "fixture-token-0003", "n": 2, "password": "agent-password-0008", "profile": {"client_secret": "agent-secret-0009"}}
    headers = {"Authorization": "Bearer agent-bearer-0004", "Cookie": "sid=agent-cookie-0005", "X-Trace": "sk-agentplanted0010"}
headers["Content-Type"] = "application/json"
req = urllib.request.Request(url, data=json.dumps(body).encode(), headers=headers, method="POST")
try:
    with urllib.request.urlopen(req) as r:
        r.read()
except urllib.error.HTTPError as e:
    if which == "3":
        sys.stderr.write('Post "%s": %s\n' % (url, e))
        sys.exit(1)
print("ok")
`

// TestReplay_RedactionEndToEnd plants credentials in the fixtures and in
// an agent's headers, query and body (matched, mismatched-and-rescued and
// mismatched-and-failed requests), for a Go agent (in-process replay) and
// a command agent (the proxy), saves each run in SQLite and in PostgreSQL,
// reads it back and renders every report format: no planted value appears
// anywhere.
func TestReplay_RedactionEndToEnd(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for this test (Debian package python3): %v", err)
	}
	for _, kind := range []string{"go", "command"} {
		for _, backend := range []string{"sqlite", "postgres"} {
			t.Run(kind+"/"+backend, func(t *testing.T) {
				url := "sqlite:" + filepath.Join(t.TempDir(), "runs.sqlite3")
				if backend == "postgres" {
					url = testdb.PostgresURL(t)
				}
				checkNoLeak(t, url, leakyRun(t, kind, python))
			})
		}
	}
}

// leakyRun executes the redaction suite with the Go or the command agent
// and checks the case statuses.
func leakyRun(t *testing.T, kind, python string) *models.Run {
	dir := t.TempDir()
	agentCfg := `{"name": "Leaky"}`
	if kind == "command" {
		agentCfg = fmt.Sprintf(`{"name": "Leaky", "command": [%q, "agent.py"]}`, python)
		if err := os.WriteFile(filepath.Join(dir, "agent.py"), []byte(leakyPyAgent), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	path := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(path, []byte(redactionSuite(agentCfg)), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	var a agent.Agent = leakyGoAgent
	if kind == "command" {
		if a, err = adapter.New(s.Agent, adapter.Options{Concurrency: 3}); err != nil {
			t.Fatal(err)
		}
		if c, ok := a.(io.Closer); ok {
			defer c.Close()
		}
	}
	run, err := runner.Execute(context.Background(), s, a, runner.ExecOptions{Concurrency: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range run.Cases {
		if want := map[string]string{"matched": models.StatusPassed}[c.CaseID]; want == "" && c.Status != models.StatusError || want != "" && c.Status != want {
			t.Errorf("case %s: status %s (%s)", c.CaseID, c.Status, c.ErrorDetails)
		}
		if c.CaseID != "matched" && !strings.Contains(string(c.ResponseMetadata), `"status":"mismatched"`) {
			t.Errorf("case %s: evidence %s, want the agent's credential-laden request observed as mismatched", c.CaseID, c.ResponseMetadata)
		}
	}
	return run
}

// checkNoLeak saves run at url (migrating first), reads it back, renders
// every report format and fails on any planted credential.
func checkNoLeak(t *testing.T, url string, run *models.Run) {
	ctx := context.Background()
	db, err := models.Open(ctx, url, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := schema.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	if err := db.InsertRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	saved, err := db.GetRun(ctx, run.ID)
	if err != nil {
		t.Fatal(err)
	}
	docs := map[string][]byte{}
	if docs["saved run"], err = json.Marshal(saved); err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(docs["saved run"]), "api_replay") {
		t.Fatalf("saved run holds no replay evidence: %s", docs["saved run"])
	}
	r, err := report.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	cmp := compare.Compare(saved, nil, compare.Options{})
	for _, f := range report.Formats() {
		if docs[string(f)], err = r.Bytes(f, cmp); err != nil {
			t.Fatalf("render %s: %v", f, err)
		}
	}
	for name, doc := range docs {
		for _, p := range planted {
			if strings.Contains(string(doc), p) {
				i := strings.Index(string(doc), p)
				t.Errorf("%s leaks %q: …%s…", name, p, string(doc[max(0, i-120):min(len(doc), i+40)]))
			}
		}
	}
}
