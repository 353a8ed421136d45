package runner

import (
	"context"
	"crypto/tls"
	"crypto/x509"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// rpSuite writes a suite (and extra files) into a temp dir and returns its path.
func rpSuite(tb testing.TB, s string, files map[string]string) string {
	tb.Helper()
	dir := tb.TempDir()
	for name, body := range files {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			tb.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(body), 0o755); err != nil {
			tb.Fatal(err)
		}
	}
	p := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(p, []byte(s), 0o644); err != nil {
		tb.Fatal(err)
	}
	return p
}

// rpQuestions is n shipping questions, each declaring its own order lookup.
func rpQuestions(n int) string { return rpQuestionsScheme(n, "https") }

// rpQuestionsScheme is rpQuestions for API URLs of the given scheme.
func rpQuestionsScheme(n int, scheme string) string {
	var qs []string
	for i := range n {
		qs = append(qs, fmt.Sprintf(`{"id": "q%d", "question": "Track order %d", "expected_answer": "ready-%d",
		  "api_interactions": [{"expect_request": {"method": "GET", "url": "%s://shipping.example/orders", "query": {"id": "%d"}},
		                        "respond_with": {"body_file": "fixtures/order%d.json"}}]}`, i, i, i, scheme, i, i))
	}
	return strings.Join(qs, ",")
}

func rpFixtureFiles(n int, extra map[string]string) map[string]string {
	files := map[string]string{}
	for i := range n {
		files[fmt.Sprintf("fixtures/order%d.json", i)] = fmt.Sprintf("{\"status\": \"ready-%d\"}\n", i)
	}
	for k, v := range extra {
		files[k] = v
	}
	return files
}

// goShippingAgent looks the order up through the case's HTTP client; off
// shifts the order id (a regression sending wrong arguments).
func goShippingAgent(off int) agent.Func {
	return func(ctx context.Context, q agent.Question) (agent.Response, error) {
		var text string
		json.Unmarshal(q.Question, &text)
		var id int
		fmt.Sscanf(text, "Track order %d", &id)
		resp, err := agent.HTTPClient(ctx).Get(fmt.Sprintf("https://shipping.example/orders?id=%d", id+off))
		if err != nil {
			// Rescue the failure and answer anyway: replay must still fail the case.
			return agent.Response{Output: json.RawMessage(fmt.Sprintf(`"ready-%d"`, id))}, nil
		}
		defer resp.Body.Close()
		var body struct{ Status string }
		if err := json.NewDecoder(resp.Body).Decode(&body); err != nil {
			return agent.Response{}, err
		}
		out, _ := json.Marshal(body.Status)
		return agent.Response{Output: out}, nil
	}
}

func rpRun(t *testing.T, path string, a agent.Agent) *models.Run {
	t.Helper()
	s, err := suite.Load(path)
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	run, err := Execute(context.Background(), s, a, ExecOptions{Concurrency: 4})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	return run
}

// replayEvidence decodes a case's response_metadata.api_replay.
func replayEvidence(t *testing.T, c *models.CaseResult) map[string]any {
	t.Helper()
	var meta map[string]any
	json.Unmarshal(c.ResponseMetadata, &meta)
	ev, ok := meta["api_replay"].(map[string]any)
	if !ok {
		t.Fatalf("case %s: response_metadata %s has no api_replay object", c.CaseID, c.ResponseMetadata)
	}
	return ev
}

func checkReplayRun(t *testing.T, run *models.Run, pass bool) {
	t.Helper()
	for _, c := range run.Cases {
		ev := replayEvidence(t, c)
		if got := ev["passed"]; got != pass {
			t.Errorf("case %s: api_replay.passed = %v, want %v: %v", c.CaseID, got, pass, ev)
		}
		obs, _ := ev["observed"].([]any)
		for _, o := range obs {
			q, _ := o.(map[string]any)["query"].(map[string]any)
			id, _ := q["id"].([]any)
			own := strings.TrimPrefix(c.CaseID, "q")
			if pass && (len(id) != 1 || id[0] != own) {
				t.Errorf("case %s: evidence shows another case's request: %v", c.CaseID, o)
			}
		}
		if pass && c.Status != models.StatusPassed {
			t.Errorf("case %s: status %s (error %s), want passed", c.CaseID, c.Status, c.ErrorDetails)
		}
		if !pass {
			var details struct{ Kind string }
			json.Unmarshal(c.ErrorDetails, &details)
			if c.Status != models.StatusError || details.Kind != "api_replay" {
				t.Errorf("case %s: status %s, error %s; want an api_replay agent error", c.CaseID, c.Status, c.ErrorDetails)
			}
		}
	}
}

func TestExecute_ReplayGoAgent(t *testing.T) {
	path := rpSuite(t, `{"suite": "Shipping", "agent": {"name": "GoShipping"},
	  "evaluators": {"exact": {"type": "exact_match"}}, "questions": [`+rpQuestions(8)+`]}`, rpFixtureFiles(8, nil))
	t.Run("right arguments", func(t *testing.T) { checkReplayRun(t, rpRun(t, path, goShippingAgent(0)), true) })
	t.Run("wrong arguments, rescued", func(t *testing.T) { checkReplayRun(t, rpRun(t, path, goShippingAgent(1)), false) })
}

const rpPythonCommand = `import json, sys, os, urllib.request
q = json.load(sys.stdin)
order = int(q["question"].split()[-1]) + int(os.environ.get("OFFSET", "0"))
with urllib.request.urlopen(os.environ["SCHEME"] + "://shipping.example/orders?id=%d" % order) as r:
    print(json.load(r)["status"])
`

const rpPythonWorker = `import json, sys, os, urllib.request, urllib.error
for line in sys.stdin:
    q = json.loads(line)
    order = int(q["question"].split()[-1]) + int(os.environ.get("OFFSET", "0"))
    try:
        with urllib.request.urlopen(os.environ["SCHEME"] + "://shipping.example/orders?id=%d" % order) as r:
            out = json.load(r)["status"]
    except urllib.error.HTTPError as e:
        out = "error %d" % e.code
    print(json.dumps({"output": out, "metadata": {"pid": os.getpid()}}), flush=True)
`

func TestExecute_ReplayProcessAgents(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for this test (Debian package python3): %v", err)
	}
	for _, tc := range []struct{ name, agent, script string }{
		{"command", `{"name": "PyShipping", "type": "command", "command": ["` + python + `", "agent.py"], "env": ["OFFSET", "SCHEME"]}`, rpPythonCommand},
		{"worker", `{"name": "PyShipping", "type": "worker", "command": ["` + python + `", "agent.py"], "env": ["OFFSET", "SCHEME"]}`, rpPythonWorker},
	} {
		for _, scheme := range []string{"http", "https"} {
			path := rpSuite(t, `{"suite": "Shipping", "agent": `+tc.agent+`,
		  "evaluators": {"exact": {"type": "exact_match"}}, "questions": [`+rpQuestionsScheme(6, scheme)+`]}`,
				rpFixtureFiles(6, map[string]string{"agent.py": tc.script}))
			for _, off := range []int{0, 1} {
				t.Run(fmt.Sprintf("%s/%s/offset %d", tc.name, scheme, off), func(t *testing.T) {
					t.Setenv("OFFSET", fmt.Sprint(off))
					t.Setenv("SCHEME", scheme)
					s, err := suite.Load(path)
					if err != nil {
						t.Fatal(err)
					}
					a := mustAgent(t, s.Agent, adapter.Options{Concurrency: 3})
					run := mustExecute(t, s, a, ExecOptions{Concurrency: 3})
					checkReplayRun(t, run, off == 0)
					if tc.name == "worker" && off == 0 {
						pids := map[any]bool{}
						for _, c := range run.Cases {
							var meta map[string]any
							json.Unmarshal(c.ResponseMetadata, &meta)
							pids[meta["pid"]] = true
						}
						if len(pids) > 3 || len(pids) == 0 {
							t.Errorf("%d cases answered by %d worker processes, want at most 3 (re-armed proxies)", len(run.Cases), len(pids))
						}
					}
				})
			}
		}
	}
}

func TestLoad_ReplayProblemsAndDigest(t *testing.T) {
	const suiteJSON = `{"suite": "S", "agent": {"name": "A"}, "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [{"id": "q", "question": "x", "expected_answer": "y",
	    "api_interactions": [{"expect_request": {"method": "GET", "url": "https://a.example/"}, "respond_with": {"body_file": "%s"}}]}]}`
	_, err := suite.Load(rpSuite(t, fmt.Sprintf(suiteJSON, "missing.json"), nil))
	var ve *suite.ValidationError
	if !errors.As(err, &ve) || len(ve.Problems) != 1 {
		t.Fatalf("Load = %v, want one problem", err)
	}
	if got, want := ve.Problems[0].Path, "$.questions[0].api_interactions[0].respond_with.body_file"; got != want {
		t.Errorf("problem path = %q, want %q", got, want)
	}
	if !strings.Contains(ve.Problems[0].Message, "want a readable file") {
		t.Errorf("problem message = %q", ve.Problems[0].Message)
	}
	two := strings.Replace(fmt.Sprintf(suiteJSON, "missing.json"), `}}]}]}`,
		`}}, {"expect_request": {"method": "GET", "url": "ftp://a.example/"}, "respond_with": {"json": 1}}]}]}`, 1)
	_, err = suite.Load(rpSuite(t, two, nil))
	if !errors.As(err, &ve) || len(ve.Problems) != 2 || ve.Problems[1].Path != "$.questions[0].api_interactions[1].expect_request.url" {
		t.Errorf("Load with two bad interactions = %v, want both reported", err)
	}

	digest := func(body string) string {
		s, err := suite.Load(rpSuite(t, fmt.Sprintf(suiteJSON, "r.json"), map[string]string{"r.json": body}))
		if err != nil {
			t.Fatal(err)
		}
		d, err := s.Digest(s.Calculated(false))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if a, b := digest(`{"a": 1}`), digest(`{"a":  1}`); a == b {
		t.Errorf("changing the fixture's bytes (whitespace) kept the digest %s", a)
	}
	if a, b := digest(`{"a": 1}`), digest(`{"a": 1}`); a != b {
		t.Errorf("the same fixture gave digests %s and %s", a, b)
	}
}

// httpShippingAgent is an http agent on loopback that sends its API calls
// through the proxy named in the request headers, trusting the named CA.
func httpShippingAgent(t *testing.T, off int) *httptest.Server {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q agent.Question
		json.NewDecoder(r.Body).Decode(&q)
		var text string
		json.Unmarshal(q.Question, &text)
		var id int
		fmt.Sscanf(text, "Track order %d", &id)
		proxy, err := url.Parse(r.Header.Get(ReplayProxyHeader))
		pem, err2 := os.ReadFile(r.Header.Get(ReplayCAFileHeader))
		if err != nil || err2 != nil || r.Header.Get(ReplayProxyHeader) == "" {
			http.Error(w, "no replay headers", http.StatusBadRequest)
			return
		}
		pool := x509.NewCertPool()
		pool.AppendCertsFromPEM(pem)
		c := &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxy), TLSClientConfig: &tls.Config{RootCAs: pool}}}
		out := "unavailable"
		if resp, err := c.Get(fmt.Sprintf("https://shipping.example/orders?id=%d", id+off)); err == nil {
			var body struct{ Status string }
			json.NewDecoder(resp.Body).Decode(&body)
			resp.Body.Close()
			if body.Status != "" {
				out = body.Status
			}
		}
		json.NewEncoder(w).Encode(map[string]any{"output": out})
	}))
	t.Cleanup(srv.Close)
	return srv
}

func TestExecute_ReplayHTTPAgent(t *testing.T) {
	for _, off := range []int{0, 1} {
		t.Run(fmt.Sprintf("offset %d", off), func(t *testing.T) {
			srv := httpShippingAgent(t, off)
			path := rpSuite(t, `{"suite": "Shipping", "agent": {"name": "HTTPShipping", "type": "http", "url": "`+srv.URL+`"},
			  "evaluators": {"exact": {"type": "exact_match"}}, "questions": [`+rpQuestions(4)+`]}`, rpFixtureFiles(4, nil))
			s, err := suite.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			a := mustAgent(t, s.Agent, adapter.Options{Concurrency: 2})
			run := mustExecute(t, s, a, ExecOptions{Concurrency: 2})
			checkReplayRun(t, run, off == 0)
		})
	}
}

const rpCurlAgent = `#!/bin/sh
set -eu
id=$(sed 's/.*Track order \([0-9]*\).*/\1/')
curl -sS --fail "https://shipping.example/orders?id=$id" | sed 's/.*"status": *"\([^"]*\)".*/\1/'
`

// TestExecute_Replay100Concurrent runs 100 cases with fixtures at once, in
// process (Go agent) and as 100 concurrent curl processes each with its own
// proxy; every case's evidence holds only its own request.
func TestExecute_Replay100Concurrent(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatalf("curl is needed for this test (Debian package curl): %v", err)
	}
	for _, tc := range []struct{ name, agent string }{
		{"go", `{"name": "GoShipping"}`},
		{"curl", `{"name": "CurlShipping", "command": ["sh", "agent.sh"]}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			path := rpSuite(t, `{"suite": "Shipping", "agent": `+tc.agent+`,
			  "evaluators": {"exact": {"type": "exact_match"}}, "questions": [`+rpQuestions(100)+`]}`,
				rpFixtureFiles(100, map[string]string{"agent.sh": rpCurlAgent}))
			s, err := suite.Load(path)
			if err != nil {
				t.Fatal(err)
			}
			var a agent.Agent = goShippingAgent(0)
			if tc.name == "curl" {
				a = mustAgent(t, s.Agent, adapter.Options{Concurrency: 100})
			}
			run := mustExecute(t, s, a, ExecOptions{Concurrency: 100})
			checkReplayRun(t, run, true)
		})
	}
}

// TestExecute_ReplayFailureKeepsTheAnswer: when the agent rescues a refused
// request and still answers, the case is an agent error, yet its answer,
// actions and own metadata stay in the evidence beside api_replay.
func TestExecute_ReplayFailureKeepsTheAnswer(t *testing.T) {
	path := rpSuite(t, `{"suite": "Shipping", "agent": {"name": "GoShipping"},
	  "evaluators": {"exact": {"type": "exact_match"}}, "questions": [`+rpQuestions(1)+`]}`, rpFixtureFiles(1, nil))
	wrong := goShippingAgent(1)
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		resp, err := wrong(ctx, q)
		resp.Actions = []score.Action{{Group: "orders", Name: "track", Arguments: json.RawMessage(`{"id":1}`)}}
		resp.Metadata = map[string]any{"revision": "regressed"}
		return resp, err
	})
	c := rpRun(t, path, a).Cases[0]
	if c.Status != models.StatusError || c.ErrorDetails.IsNull() {
		t.Fatalf("status %s, error %s: want an agent error", c.Status, c.ErrorDetails)
	}
	if got, want := string(c.Output), `"ready-0"`; got != want {
		t.Errorf("output = %s, want the agent's answer %s", got, want)
	}
	if !strings.Contains(string(c.Actions), `"track"`) {
		t.Errorf("actions = %s, want the observed call", c.Actions)
	}
	var meta map[string]any
	if err := c.ResponseMetadata.Decode(&meta); err != nil || meta["revision"] != "regressed" || meta["api_replay"] == nil {
		t.Errorf("response metadata = %s, want the agent's own keys and api_replay", c.ResponseMetadata)
	}
	for _, m := range c.Metrics {
		if m.Calculated() {
			t.Errorf("metric %s calculated after an agent error", m.Name)
		}
	}
}
