package runner

import (
	"context"
	"encoding/json"
	"errors"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/suite"
)

// weatherUpstream answers GET /weather?city=… and POST /notes (JSON in,
// JSON out); its reply carries a token field that must be redacted in
// the recorded fixture.
func weatherUpstream() http.Handler {
	mux := http.NewServeMux()
	mux.HandleFunc("GET /weather", func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"city": "`+r.URL.Query().Get("city")+`", "temp_c": 21, "session_token": "tok-live-123"}`)
	})
	mux.HandleFunc("POST /notes", func(w http.ResponseWriter, r *http.Request) {
		var in map[string]any
		if err := json.NewDecoder(r.Body).Decode(&in); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		w.WriteHeader(http.StatusCreated)
		json.NewEncoder(w).Encode(map[string]any{"saved": in["text"]})
	})
	return mux
}

// curlAgent asks the upstream for $CITY's weather and posts a note, with
// curl through whatever proxy its environment names.
const curlAgent = `set -eu
case "$(cat)" in *'"id":"quiet"'*) echo '{"output": "ok"}'; exit 0 ;; esac
w=$(curl -sS --fail "$UPSTREAM/weather?city=${CITY:-Paris}")
n=$(curl -sS --fail -X POST -H 'Content-Type: application/json' -H 'Authorization: Bearer sk-live-secret-123456' \
  --data '{"text": "hello"}' "$UPSTREAM/notes")
printf '{"output": %s}\n' "$(printf '%s %s' "$w" "$n" | sed 's/"/\\"/g; s/^/"/; s/$/"/')"
`

// TestRecord_ThenReplayStrictly records a command agent (curl), a worker
// agent (the same curl calls, one question per line) and a Go agent against a local upstream over HTTP and HTTPS, writes the recorded
// suite, replays it strictly with the upstream gone, and shows that a
// changed request then fails the case.
func TestRecord_ThenReplayStrictly(t *testing.T) {
	if _, err := exec.LookPath("curl"); err != nil {
		t.Fatalf("curl is needed: apt-get install -y curl (%v)", err)
	}
	for _, tls := range []bool{false, true} {
		for _, agentKind := range []string{"command", "worker", "go"} {
			name := agentKind + "-http"
			if tls {
				name = agentKind + "-https"
			}
			t.Run(name, func(t *testing.T) {
				var srv *httptest.Server
				if tls {
					srv = httptest.NewTLSServer(weatherUpstream())
				} else {
					srv = httptest.NewServer(weatherUpstream())
				}
				t.Setenv("UPSTREAM", srv.URL)
				t.Setenv("CITY", "Paris")
				dir := t.TempDir()
				a := `{"name": "A", "command": ["sh", "agent.sh"], "env": ["UPSTREAM", "CITY"]}`
				testfile.Write(t, dir, "agent.sh", curlAgent)
				if agentKind == "worker" { // the same requests, one question per line
					a = `{"name": "A", "type": "worker", "command": ["sh", "worker.sh"], "env": ["UPSTREAM", "CITY"]}`
					testfile.Write(t, dir, "worker.sh", "while IFS= read -r line; do printf '%s' \"$line\" | sh agent.sh || echo '{\"output\": \"request failed\"}'; done\n")
				}
				suitePath := testfile.Write(t, dir, "suite.json", `{"suite": "Weather", "agent": `+a+`,
				  "questions": [{"id": "paris", "question": "Weather in Paris?", "checks": [{"type": "contains", "value": "21"}]},
				                {"id": "quiet", "question": "Say nothing", "checks": [{"type": "min_length", "limit": 0}]}]}`)
				s, err := suite.Load(suitePath)
				if err != nil {
					t.Fatal(err)
				}
				ag := recordAgent(t, agentKind, s)
				rec := suite.NewRecordings()
				run, err := Execute(context.Background(), s, ag, ExecOptions{Record: rec, Upstream: srv.Client().Transport, Timeout: 20 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				if st := run.Cases[0].Status; st != models.StatusPassed {
					t.Fatalf("recording run: paris is %s: %s", st, run.Cases[0].ErrorDetails)
				}
				res, err := rec.Write(s, filepath.Join(dir, "suite.recorded.json"))
				if err != nil {
					t.Fatal(err)
				}
				if res.Requests != 2 || res.Questions != 1 || len(res.Files) != 2 {
					t.Errorf("recorded %+v, want 2 requests of 1 question in 2 files", res)
				}
				recorded, err := os.ReadFile(res.Suite)
				if err != nil {
					t.Fatal(err)
				}
				for _, secret := range []string{"sk-live-secret", "tok-live-123", "Authorization"} {
					if strings.Contains(string(recorded), secret) {
						t.Errorf("the recorded suite holds %q:\n%s", secret, recorded)
					}
					for _, f := range res.Files {
						if b, _ := os.ReadFile(f); strings.Contains(string(b), secret) {
							t.Errorf("%s holds %q", f, secret)
						}
					}
				}
				srv.Close() // the replay run must not need the upstream

				// Writing again never overwrites.
				if _, err := rec.Write(s, filepath.Join(dir, "suite.recorded.json")); err == nil || !strings.Contains(err.Error(), "exists: nothing was written") {
					t.Errorf("second Write = %v, want a refusal naming the existing file", err)
				}

				replayed, err := suite.Load(res.Suite)
				if err != nil {
					t.Fatalf("the recorded suite does not load: %v\n%s", err, recorded)
				}
				run, err = Execute(context.Background(), replayed, recordAgent(t, agentKind, replayed), ExecOptions{Timeout: 20 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				for _, c := range run.Cases {
					if c.Status != models.StatusPassed {
						t.Errorf("strict replay: %s is %s: %s", c.CaseID, c.Status, c.ErrorDetails)
					}
				}

				t.Setenv("CITY", "Rome") // a changed request
				run, err = Execute(context.Background(), replayed, recordAgent(t, agentKind, replayed), ExecOptions{Timeout: 20 * time.Second})
				if err != nil {
					t.Fatal(err)
				}
				if c := run.Cases[0]; c.Status != models.StatusError || !strings.Contains(string(c.ErrorDetails), "api_replay") {
					t.Errorf("changed request: paris is %s (%s), want an api_replay error", c.Status, c.ErrorDetails)
				}
			})
		}
	}
}

// recordAgent is the suite's curl command agent, or a Go function agent
// making the same requests with HTTPClient(ctx).
func recordAgent(t *testing.T, kind string, s *suite.Suite) agent.Agent {
	t.Helper()
	if kind != "go" {
		return mustAgent(t, s.Agent, adapter.Options{})
	}
	return agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		if q.ID != "paris" {
			return agent.Response{Output: json.RawMessage(`"ok"`)}, nil
		}
		c := agent.HTTPClient(ctx)
		resp, err := c.Get(os.Getenv("UPSTREAM") + "/weather?city=" + os.Getenv("CITY"))
		if err != nil {
			return agent.Response{}, err
		}
		w, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, os.Getenv("UPSTREAM")+"/notes", strings.NewReader(`{"text": "hello"}`))
		req.Header.Set("Authorization", "Bearer sk-live-secret-123456")
		req.Header.Set("Content-Type", "application/json")
		resp, err = c.Do(req)
		if err != nil {
			return agent.Response{}, err
		}
		n, _ := io.ReadAll(resp.Body)
		resp.Body.Close()
		if resp.StatusCode >= 300 {
			return agent.Response{}, errors.New("notes: " + resp.Status)
		}
		out, _ := json.Marshal(string(w) + " " + string(n))
		return agent.Response{Output: out}, nil
	})
}
