package runner_test

import (
	"context"
	"encoding/json"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentevals/models"
	"agentevals/reports"
	"agentevals/runner"
	"agentevals/schema"
)

// TestReplay_RedactionEndToEnd plants credentials in the fixtures and in
// an agent's headers, query and body (matched, mismatched-and-rescued and
// mismatched-and-failed requests), saves the run in SQLite, reads it back
// and renders every report format: no planted value appears anywhere.
func TestReplay_RedactionEndToEnd(t *testing.T) {
	planted := []string{"fixture-auth-0001", "fixture-key-0002", "fixture-token-0003",
		"agent-bearer-0004", "agent-cookie-0005", "agent-apikey-0006", "agent-qkey-0007",
		"agent-password-0008", "agent-secret-0009", "sk-agentplanted0010"}
	interaction := `{"expect_request": {"method": "POST", "url": "https://api.example/v1/orders",
	    "query": {"api_key": "fixture-key-0002"}, "headers": {"Authorization": "Bearer fixture-auth-0001"},
	    "json": {"access_token": "fixture-token-0003", "n": 1}},
	   "respond_with": {"headers": {"Set-Cookie": "sid=fixture-token-0003"}, "json": {"ok": true}}}`
	suite := `{"suite": "Redaction", "agent": {"name": "Leaky"}, "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [
	    {"id": "matched", "question": "1", "expected_answer": "ok", "api_interactions": [` + interaction + `]},
	    {"id": "rescued", "question": "2", "expected_answer": "ok", "api_interactions": [` + interaction + `]},
	    {"id": "failed", "question": "3", "expected_answer": "ok", "api_interactions": [` + interaction + `]}]}`
	dir := t.TempDir()
	path := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(path, []byte(suite), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := runner.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	agent := runner.Func(func(ctx context.Context, q runner.Question) (runner.Response, error) {
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
		resp, err := runner.HTTPClient(ctx).Do(req)
		switch {
		case err != nil && which == "3":
			return runner.Response{}, err // the client's error quotes the URL and its query
		case err != nil:
			return runner.Response{Output: json.RawMessage(`"ok"`)}, nil
		}
		resp.Body.Close()
		return runner.Response{Output: json.RawMessage(`"ok"`)}, nil
	})
	run, err := runner.Execute(context.Background(), s, agent, runner.ExecOptions{Concurrency: 3})
	if err != nil {
		t.Fatal(err)
	}
	for _, c := range run.Cases {
		if want := map[string]string{"matched": models.StatusPassed}[c.CaseID]; want == "" && c.Status != models.StatusError || want != "" && c.Status != want {
			t.Errorf("case %s: status %s (%s)", c.CaseID, c.Status, c.ErrorDetails)
		}
	}

	ctx := context.Background()
	db, err := models.Open(ctx, "sqlite:"+filepath.Join(dir, "runs.sqlite3"), models.OpenOptions{})
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
	r, err := reports.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	cmp := reports.Compare(saved, nil, reports.Options{})
	for _, f := range reports.Formats() {
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
