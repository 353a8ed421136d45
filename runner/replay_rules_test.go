package runner

import (
	"context"
	"encoding/json"
	"encoding/pem"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/suite"
)

// rule is a row of ../replay/testdata/rules.json (the table the replay
// package runs through its transports).
type rule struct {
	Name     string          `json:"name"`
	Fixtures json.RawMessage `json:"fixtures"`
	Calls    []ruleCall      `json:"calls"`
	Want     []string        `json:"want"`
	Pass     bool            `json:"pass"`
}

// ruleCall is one request the agent is told to make.
type ruleCall struct {
	Method string            `json:"method"`
	URL    string            `json:"url"`
	Body   string            `json:"body,omitempty"`
	Header map[string]string `json:"header,omitempty"`
}

// rulesAgentPy is a command (one question on stdin) or, with the argument
// "worker", a worker agent (one question per line) using only Python's
// standard library: it makes the requests listed in the question through
// the proxy of its environment and reports each status it saw, and whether
// replay refused it (502 with X-Api-Replay-Error).
const rulesAgentPy = `import json, sys, urllib.request, urllib.error
def answer(q):
    seen = []
    for c in q["question"]["calls"]:
        data = c["body"].encode() if c.get("body") else None
        req = urllib.request.Request(c["url"], data=data, method=c["method"], headers=c.get("header") or {})
        try:
            with urllib.request.urlopen(req, timeout=10) as r:
                r.read()
                seen.append({"status": r.status, "refused": False})
        except urllib.error.HTTPError as e:
            seen.append({"status": e.code, "refused": e.headers.get("X-Api-Replay-Error") is not None})
        except Exception as e:
            seen.append({"status": 0, "refused": True, "error": str(e)})
    return {"output": "done", "metadata": {"seen": seen}}
if sys.argv[1:] == ["worker"]:
    for line in sys.stdin:
        print(json.dumps(answer(json.loads(line))), flush=True)
else:
    print(json.dumps(answer(json.load(sys.stdin))))
`

// goRulesAgent makes the listed requests with the case's HTTP client.
func goRulesAgent(ctx context.Context, q agent.Question) (agent.Response, error) {
	var in struct{ Calls []ruleCall }
	if err := json.Unmarshal(q.Question, &in); err != nil {
		return agent.Response{}, err
	}
	var seen []any
	for _, c := range in.Calls {
		req, err := http.NewRequestWithContext(ctx, c.Method, c.URL, strings.NewReader(c.Body))
		if err != nil {
			return agent.Response{}, err
		}
		for k, v := range c.Header {
			req.Header[k] = []string{v}
		}
		resp, err := agent.HTTPClient(ctx).Do(req)
		if err != nil {
			seen = append(seen, map[string]any{"status": 0, "refused": true})
			continue
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		seen = append(seen, map[string]any{"status": resp.StatusCode, "refused": false})
	}
	return agent.Response{Output: json.RawMessage(`"done"`), Metadata: map[string]any{"seen": seen}}, nil
}

// rulesSuite writes one suite holding a question per rule, for scheme.
func rulesSuite(t *testing.T, rules []rule, scheme, liveHost, a string) string {
	fill := strings.NewReplacer("S://", scheme+"://", "LIVE", liveHost)
	var qs []string
	for i, r := range rules {
		calls := make([]ruleCall, len(r.Calls))
		for j, c := range r.Calls {
			c.URL = fill.Replace(c.URL)
			calls[j] = c
		}
		q, _ := json.Marshal(map[string]any{"calls": calls})
		qs = append(qs, fmt.Sprintf(`{"id": "r%02d", "name": %q, "question": %s, "expected_answer": "done", "api_interactions": %s}`,
			i, r.Name, q, fill.Replace(string(r.Fixtures))))
	}
	return rpSuite(t, `{"suite": "Rules", "agent": `+a+`, "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [`+strings.Join(qs, ",\n")+`]}`, map[string]string{"agent.py": rulesAgentPy})
}

// TestExecute_ReplayRules runs every matching rule of the shared table
// through a Go agent, a command agent and a worker agent (Python's
// standard library, trusting the run's CA through the environment), each
// over HTTP and HTTPS: the evidence shows the table's statuses, the agent
// saw each refusal, and the case is an api_replay agent error exactly when
// the rule fails, although the agent always answers correctly.
func TestExecute_ReplayRules(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for this test (Debian package python3): %v", err)
	}
	b, err := os.ReadFile("../replay/testdata/rules.json")
	if err != nil {
		t.Fatal(err)
	}
	var doc struct{ Rules []rule }
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	live := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte("live"))
	}))
	defer live.Close()
	liveHost := strings.TrimPrefix(live.URL, "http://")
	for _, kind := range []string{"go", "command", "worker"} {
		for _, scheme := range []string{"http", "https"} {
			t.Run(kind+"/"+scheme, func(t *testing.T) {
				agentCfg := fmt.Sprintf(`{"name": "Rules", "type": %q, "command": [%q, "agent.py"]}`, kind, python)
				switch kind {
				case "go":
					agentCfg = `{"name": "Rules"}`
				case "worker":
					agentCfg = fmt.Sprintf(`{"name": "Rules", "type": "worker", "command": [%q, "agent.py", "worker"]}`, python)
				}
				s, err := suite.Load(rulesSuite(t, doc.Rules, scheme, liveHost, agentCfg))
				if err != nil {
					t.Fatal(err)
				}
				var a agent.Agent = agent.Func(goRulesAgent)
				if kind != "go" {
					a = mustAgent(t, s.Agent, adapter.Options{Concurrency: 4})
				}
				run := mustExecute(t, s, a, ExecOptions{Concurrency: 4})
				for i, c := range run.Cases {
					checkRuleCase(t, doc.Rules[i], c)
				}
			})
		}
	}
}

// checkRuleCase compares one case with its rule.
func checkRuleCase(t *testing.T, r rule, c *models.CaseResult) {
	t.Helper()
	ev := replayEvidence(t, c)
	obs, _ := ev["observed"].([]any)
	var got []string
	for _, o := range obs {
		got = append(got, fmt.Sprint(o.(map[string]any)["status"]))
	}
	if strings.Join(got, ",") != strings.Join(r.Want, ",") {
		t.Errorf("%s: observed %v, want %v: %v", r.Name, got, r.Want, obs)
	}
	var details struct{ Kind string }
	json.Unmarshal(c.ErrorDetails, &details)
	if r.Pass && c.Status != models.StatusPassed {
		t.Errorf("%s: status %s (%s), want passed", r.Name, c.Status, c.ErrorDetails)
	}
	if !r.Pass && (c.Status != models.StatusError || details.Kind != "api_replay") {
		t.Errorf("%s: status %s (%s), want an api_replay agent error", r.Name, c.Status, c.ErrorDetails)
	}
	if !r.Pass {
		return // a failed case keeps only the replay evidence, not the agent's metadata
	}
	var meta struct {
		Seen []struct {
			Status  int
			Refused bool
		}
	}
	json.Unmarshal(c.ResponseMetadata, &meta)
	if len(meta.Seen) != len(r.Want) {
		t.Fatalf("%s: the agent reports %d requests, want %d: %s", r.Name, len(meta.Seen), len(r.Want), c.ResponseMetadata)
	}
	for i, want := range r.Want {
		if s := meta.Seen[i]; s.Refused || (want == "allowed") != (s.Status == http.StatusTeapot) {
			t.Errorf("%s: request %d: the agent saw %+v for a %s request", r.Name, i, s, want)
		}
	}
}

// TestExecute_ReplayCaseWithoutFixtures: in a suite with replay, a case
// without fixtures reaches the network the same way for a command agent
// (no proxy at all) and a worker agent (its proxy disarmed: plain
// forwarding for HTTP, a blind tunnel for HTTPS, trusted through the
// agent's own SSL_CERT_FILE, which the announced CA bundle includes).
func TestExecute_ReplayCaseWithoutFixtures(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for this test (Debian package python3): %v", err)
	}
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.WriteHeader(http.StatusTeapot) })
	plain := httptest.NewServer(handler)
	defer plain.Close()
	tlsSrv := httptest.NewTLSServer(handler)
	defer tlsSrv.Close()
	certFile := filepath.Join(t.TempDir(), "server.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tlsSrv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SSL_CERT_FILE", certFile)
	for _, kind := range []string{"command", "worker"} {
		for _, live := range []string{plain.URL, tlsSrv.URL} {
			t.Run(kind+"/"+strings.SplitN(live, ":", 2)[0], func(t *testing.T) {
				args := fmt.Sprintf("[%q, \"agent.py\"]", python)
				if kind == "worker" {
					args = fmt.Sprintf("[%q, \"agent.py\", \"worker\"]", python)
				}
				path := rpSuite(t, `{"suite": "Mixed", "agent": {"name": "Rules", "type": "`+kind+`", "command": `+args+`, "env": ["SSL_CERT_FILE"]},
				  "evaluators": {"exact": {"type": "exact_match"}}, "questions": [
				  {"id": "replayed", "expected_answer": "done", "question": {"calls": [{"method": "GET", "url": "https://shop.example/a"}]},
				   "api_interactions": [{"expect_request": {"method": "GET", "url": "https://shop.example/a"}, "respond_with": {"json": 1}}]},
				  {"id": "direct", "expected_answer": "done", "question": {"calls": [{"method": "GET", "url": "`+live+`/x"}]}}]}`,
					map[string]string{"agent.py": rulesAgentPy})
				s, err := suite.Load(path)
				if err != nil {
					t.Fatal(err)
				}
				a := mustAgent(t, s.Agent, adapter.Options{Concurrency: 1})
				run := mustExecute(t, s, a, ExecOptions{Concurrency: 1})
				for _, c := range run.Cases {
					if c.Status != models.StatusPassed {
						t.Errorf("case %s: status %s (%s)", c.CaseID, c.Status, c.ErrorDetails)
					}
				}
				if got := string(run.Cases[1].ResponseMetadata); !strings.Contains(got, `"status":418`) || strings.Contains(got, "api_replay") {
					t.Errorf("case without fixtures: metadata %s, want the real server's 418 and no replay evidence", got)
				}
			})
		}
	}
}
