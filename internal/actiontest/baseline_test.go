package actiontest

import (
	"bytes"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
)

// fakeIssues is the part of the GitHub REST API the comment script uses:
// one pull request's comments, listed, created and edited.
type fakeIssues struct {
	mu       sync.Mutex
	comments []map[string]any
	calls    []string
}

func (f *fakeIssues) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.calls = append(f.calls, r.Method+" "+r.URL.Path)
	if r.Header.Get("Authorization") != "Bearer test-token" {
		http.Error(w, `{"message":"Bad credentials"}`, http.StatusUnauthorized)
		return
	}
	var body struct {
		Body string `json:"body"`
	}
	if r.Method != http.MethodGet {
		b, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if err := json.Unmarshal(b, &body); err != nil || body.Body == "" {
			http.Error(w, `{"message":"Problems parsing JSON"}`, http.StatusBadRequest)
			return
		}
	}
	switch {
	case r.Method == http.MethodGet && r.URL.Path == "/repos/o/r/issues/7/comments":
		if r.URL.Query().Get("page") != "1" {
			_ = json.NewEncoder(w).Encode([]any{})
			return
		}
		_ = json.NewEncoder(w).Encode(f.comments)
	case r.Method == http.MethodPost && r.URL.Path == "/repos/o/r/issues/7/comments":
		c := map[string]any{"id": 100 + len(f.comments), "body": body.Body}
		f.comments = append(f.comments, c)
		w.WriteHeader(http.StatusCreated)
		_ = json.NewEncoder(w).Encode(c)
	case r.Method == http.MethodPatch && strings.HasPrefix(r.URL.Path, "/repos/o/r/issues/comments/"):
		for _, c := range f.comments {
			if "/repos/o/r/issues/comments/"+jsonNumber(c["id"]) == r.URL.Path {
				c["body"] = body.Body
				_ = json.NewEncoder(w).Encode(c)
				return
			}
		}
		http.NotFound(w, r)
	default:
		http.NotFound(w, r)
	}
}

func jsonNumber(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// installEvalrun runs the action's install step and returns the directory
// holding evalrun.
func installEvalrun(t *testing.T, repo string, r runner) string {
	t.Helper()
	install := exec.Command("bash", filepath.Join(repo, "action", "install.sh"))
	install.Env = r.env("GITHUB_ACTION_PATH="+repo, "INPUT_VERSION=")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("action/install.sh: %v\n%s", err, out)
	}
	return strings.TrimSpace(r.read(t, r.path))
}

// supportCheckout writes the support example under dir/evals.
func supportCheckout(t *testing.T, repo, dir string) {
	t.Helper()
	if err := os.MkdirAll(filepath.Join(dir, "evals"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, f := range []string{"suite.json", "agent.sh", "policies.txt"} {
		b, err := os.ReadFile(filepath.Join(repo, "examples", "support", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(dir, "evals", f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// TestAction_BaselineWithoutDatabase runs the action's script as three
// jobs with no database-url: the default branch's push saves its run as the
// baseline; a regressed pull request, whose job restores that file (the
// cache's part, done here by copying it), exits 1 on the regression alone
// (--fail-on regressions) and posts one comment; its fix exits 0 and edits
// the same comment, which the local API server records.
func TestAction_BaselineWithoutDatabase(t *testing.T) {
	repo := root(t)
	mainJob := newRunner(t)
	bin := installEvalrun(t, repo, mainJob)
	work := filepath.Join(mainJob.dir, "repo")
	supportCheckout(t, repo, work)
	api := &fakeIssues{}
	srv := httptest.NewServer(api)
	t.Cleanup(srv.Close)
	event := filepath.Join(mainJob.dir, "event.json")
	if err := os.WriteFile(event, []byte(`{"pull_request": {"number": 7}}`), 0o644); err != nil {
		t.Fatal(err)
	}

	job := func(r runner, revision string, extra ...string) (outputs, summary, log string) {
		t.Helper()
		for _, f := range []string{r.summary, r.output} {
			os.Remove(f)
		}
		cmd := exec.Command("bash", filepath.Join(repo, "action", "run.sh"))
		cmd.Dir = work
		cmd.Env = r.env(append([]string{"PATH=" + bin + ":" + os.Getenv("PATH"), "INPUT_SUITE=evals/suite.json",
			"INPUT_FAIL_ON=regressions", "INPUT_GATE=ci", "INPUT_ARGS=", "INPUT_DATABASE_URL=", "AGENT_REVISION=" + revision,
			"AGENTEVALS_BASELINE_DIR=", "GITHUB_API_URL=" + srv.URL, "GITHUB_REPOSITORY=o/r", "GITHUB_TOKEN=test-token",
			"GITHUB_SERVER_URL=https://github.example", "GITHUB_RUN_ID=42"}, extra...)...)
		var out bytes.Buffer
		cmd.Stdout, cmd.Stderr = &out, &out
		if err := cmd.Run(); err != nil {
			t.Fatalf("action/run.sh must exit 0: %v\n%s", err, out.String())
		}
		return r.read(t, r.output), r.read(t, r.summary), out.String()
	}

	outputs, _, log := job(mainJob, "reference", "INPUT_SAVE_BASELINE=true", "GITHUB_EVENT_NAME=push")
	saved := filepath.Join(mainJob.temp, "agentevals-baseline", "baseline.json")
	if !strings.Contains(outputs, "exit-code=0\n") || !strings.Contains(outputs, "baseline-file="+saved+"\n") {
		t.Fatalf("main's job outputs %q, want exit 0 and the baseline file %s\n%s", outputs, saved, log)
	}

	prJob := newRunner(t)
	restored := filepath.Join(prJob.temp, "agentevals-baseline")
	if err := os.MkdirAll(restored, 0o755); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(saved)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(restored, "baseline.json"), data, 0o644); err != nil {
		t.Fatal(err)
	}
	pr := []string{"INPUT_RESTORE_BASELINE=true", "INPUT_COMMENT=true", "GITHUB_EVENT_NAME=pull_request", "GITHUB_EVENT_PATH=" + event}
	outputs, summary, log := job(prJob, "regressed", pr...)
	if !strings.Contains(outputs, "exit-code=1\n") || strings.Contains(outputs, "baseline-file=") {
		t.Fatalf("the regressed pull request's outputs %q, want exit 1 and no baseline saved\n%s", outputs, log)
	}
	if !strings.Contains(log, "--baseline-from") && !strings.Contains(summary, "returns") {
		t.Errorf("the regressed pull request was not compared with the saved baseline:\n%s\n%s", log, summary)
	}
	if len(api.comments) != 1 {
		t.Fatalf("%d comments after the regressed run, want 1; calls %v\n%s", len(api.comments), api.calls, log)
	}
	first, _ := api.comments[0]["body"].(string)
	for _, want := range []string{"<!-- agentevals:evals/suite.json -->", "❌", "exit 1", "returns", "--baseline-from baseline.json",
		"https://github.example/o/r/actions/runs/42"} {
		if !strings.Contains(first, want) {
			t.Errorf("the comment lacks %q:\n%s", want, first)
		}
	}

	outputs, _, log = job(prJob, "reference", pr...)
	if !strings.Contains(outputs, "exit-code=0\n") {
		t.Fatalf("the fixed pull request's outputs %q, want exit 0\n%s", outputs, log)
	}
	if len(api.comments) != 1 {
		t.Fatalf("%d comments after the fix, want the one comment edited; calls %v", len(api.comments), api.calls)
	}
	if body, _ := api.comments[0]["body"].(string); !strings.Contains(body, "✅") || !strings.Contains(body, "exit 0") {
		t.Errorf("the edited comment does not say the fix passed:\n%s", body)
	}
	if !strings.Contains(strings.Join(api.calls, "\n"), "PATCH /repos/o/r/issues/comments/100") {
		t.Errorf("the comment was not edited in place: %v", api.calls)
	}
}
