package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
)

// scriptedJudge is a local OpenAI-compatible judge: score(n) is the
// verdict's score on the n-th call (1-based), or "" to answer 503 as a
// provider in an outage does. It returns the server and its call counter.
func scriptedJudge(t *testing.T, score func(n int64) string) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		s := score(calls.Add(1))
		if s == "" {
			http.Error(w, "upstream unavailable", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		fmt.Fprintf(w, `{"id":"1","object":"chat.completion","model":"judge","choices":[{"index":0,`+
			`"message":{"role":"assistant","content":"{\"reason\":\"Scripted.\",\"score\":%s}"},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":20,"completion_tokens":5,"total_tokens":25}}`, s)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// switchableJudge scores 0.95 except while down is set, when it answers 503.
func switchableJudge(t *testing.T, down *atomic.Bool) *httptest.Server {
	t.Helper()
	srv, _ := scriptedJudge(t, func(int64) string {
		if down.Load() {
			return ""
		}
		return "0.95"
	})
	return srv
}

// cyclingJudge scores 0.9, 0.8, 1.0, 0.9, … in call order.
func cyclingJudge(t *testing.T) (*httptest.Server, *atomic.Int64) {
	t.Helper()
	cycle := []string{"0.9", "0.8", "1.0"}
	return scriptedJudge(t, func(n int64) string { return cycle[(n-1)%3] })
}

// judgedSuiteFile writes a two-question judged suite whose agent is a
// shell script (or the given agent section) and returns its path.
func judgedSuiteFile(t *testing.T, judgeURL, a string) string {
	t.Helper()
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "agent.sh"), []byte(`echo '{"output":"Within 30 days."}'`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	if a == "" {
		a = `{"name": "A", "command": ["sh", "agent.sh"]}`
	}
	s := fmt.Sprintf(`{"suite": "Outage", "agent": %s,
  "judge": {"provider": "openai", "model": "judge", "base_url": %q, "timeout": "5s"},
  "questions": [
    {"id": "q1", "question": "How long?", "expected_answer": "30 days.", "minimum_scores": {"semantic_accuracy": 0.9}},
    {"id": "q2", "question": "How long again?", "expected_answer": "30 days.", "minimum_scores": {"semantic_accuracy": 0.9}}
  ]}`, a, judgeURL)
	path := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// closedAddr is a loopback address nothing listens on.
func closedAddr(t *testing.T) string {
	t.Helper()
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	addr := l.Addr().String()
	l.Close()
	return addr
}

// TestRunCmd_JudgeOutageIsNotABaseline: a run during a judge outage is
// saved, marked, exits 1 and says so; the next healthy run is compared with
// the healthy run before the outage, not with the outage.
func TestRunCmd_JudgeOutageIsNotABaseline(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	var down atomic.Bool
	srv := switchableJudge(t, &down)
	s := judgedSuiteFile(t, srv.URL+"/v1", "")
	dir := t.TempDir()
	dbURL := "sqlite:" + filepath.Join(dir, "runs.sqlite3")
	if code, out, stderr := evalrun(t, "--database-url", dbURL, "run", s); code != exitOK {
		t.Fatalf("healthy run: exit %d\n%s%s", code, out, stderr)
	}
	healthy := latestRunID(t, dbURL)

	down.Store(true)
	code, out, stderr := evalrun(t, "--database-url", dbURL, "run", s)
	if code != exitFailed || !strings.Contains(stderr, "failed from infrastructure") ||
		!strings.Contains(stderr, "judge: server_error") || !strings.Contains(stderr, "(2 of 2 calls)") {
		t.Fatalf("outage run: exit %d, want 1 with the infrastructure message\n%s%s", code, out, stderr)
	}
	outage := latestRunID(t, dbURL)
	for format, want := range map[string]string{"text": "INFRASTRUCTURE FAILURE judge: server_error", "markdown": "**Infrastructure failure** judge: server",
		"html": `<dd class="outage">judge: server_error`} {
		if _, out, stderr := evalrun(t, "--database-url", dbURL, "report", outage, "--format", format); !strings.Contains(out, want) {
			t.Errorf("%s report of the outage run lacks %q\n%s%s", format, want, out, stderr)
		}
	}
	if code, out, _ := evalrun(t, "--database-url", dbURL, "history"); code != exitOK || !strings.Contains(out, "0/2 outage") {
		t.Errorf("history does not flag the outage run (exit %d):\n%s", code, out)
	}

	down.Store(false)
	rep := filepath.Join(dir, "next.json")
	if code, out, stderr := evalrun(t, "--database-url", dbURL, "run", s, "--report", rep); code != exitOK {
		t.Fatalf("run after the outage: exit %d\n%s%s", code, out, stderr)
	}
	var doc struct {
		Summary    map[string]any `json:"summary"`
		Comparison struct {
			Baseline struct{ ID string } `json:"baseline"`
		} `json:"comparison"`
	}
	b, err := os.ReadFile(rep)
	if err != nil || json.Unmarshal(b, &doc) != nil {
		t.Fatalf("report: %v\n%s", err, b)
	}
	if got := doc.Comparison.Baseline.ID; got != healthy {
		t.Errorf("baseline = %s, want the healthy run %s (the outage run is %s)", got, healthy, outage)
	}
	if _, marked := doc.Summary["infrastructure_failure"]; marked {
		t.Errorf("the healthy run is marked: %v", doc.Summary["infrastructure_failure"])
	}
	// An explicit --baseline may still name the outage run.
	if code, out, stderr := evalrun(t, "--database-url", dbURL, "run", s, "--baseline", outage); code != exitOK ||
		!strings.Contains(out+stderr, outage) {
		t.Errorf("--baseline %s: exit %d\n%s%s", outage, code, out, stderr)
	}
}

// TestRunCmd_OnlyOutagesBefore: when every earlier run of the definition
// is an outage, the next run has no baseline and says why instead of
// calling itself the first run.
func TestRunCmd_OnlyOutagesBefore(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	var down atomic.Bool
	srv := switchableJudge(t, &down)
	s := judgedSuiteFile(t, srv.URL+"/v1", "")
	dbURL := "sqlite:" + filepath.Join(t.TempDir(), "runs.sqlite3")
	down.Store(true)
	if code, out, stderr := evalrun(t, "--database-url", dbURL, "run", s); code != exitFailed {
		t.Fatalf("outage run: exit %d, want 1\n%s%s", code, out, stderr)
	}
	down.Store(false)
	code, out, stderr := evalrun(t, "--database-url", dbURL, "run", s)
	want := "Baseline: none (the earlier runs of this definition are marked as infrastructure failures, never automatic baselines; " +
		"--baseline RUN_ID compares with one anyway); thresholds only"
	if code != exitOK || !strings.Contains(out, want) {
		t.Errorf("run after an outage: exit %d, want 0 and %q\n%s%s", code, want, out, stderr)
	}
}

// TestRunCmd_Preflight: an unreachable judge, http agent or missing agent
// program stops the run before any case (exit 2, nothing saved, a message
// naming what and --no-preflight); with --no-preflight the run happens, is
// marked as an infrastructure failure and exits 1.
func TestRunCmd_Preflight(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	var down atomic.Bool
	judgeURL := switchableJudge(t, &down).URL + "/v1"
	closed := closedAddr(t)
	tests := []struct {
		name, judge, agent, want string
	}{
		{"judge", "http://" + closed + "/v1", "", "judge (openai judge): cannot connect to " + closed},
		{"http agent", judgeURL, fmt.Sprintf(`{"name": "A", "url": "http://%s/answer"}`, closed), `agent "A": cannot connect to ` + closed},
		{"command agent", judgeURL, `{"name": "A", "command": ["./missing-agent"]}`, `agent "A": program `},
		{"program not on PATH", judgeURL, `{"name": "A", "command": ["no-such-agent-program"]}`, `program "no-such-agent-program" is not on PATH`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			dbURL := "sqlite:" + filepath.Join(t.TempDir(), "runs.sqlite3")
			s := judgedSuiteFile(t, tc.judge, tc.agent)
			code, out, stderr := evalrun(t, "--database-url", dbURL, "run", s)
			if code != exitInvalid || !strings.Contains(stderr, tc.want) || !strings.Contains(stderr, "--no-preflight") ||
				!strings.Contains(stderr, "Nothing was run or saved") {
				t.Errorf("exit %d, want 2 naming %q and --no-preflight\n%s%s", code, tc.want, out, stderr)
			}
			if n := countRuns(t, dbURL); n != 0 {
				t.Errorf("%d runs saved after a failed preflight, want 0", n)
			}
		})
	}
	t.Run("--no-preflight", func(t *testing.T) {
		dbURL := "sqlite:" + filepath.Join(t.TempDir(), "runs.sqlite3")
		s := judgedSuiteFile(t, judgeURL, fmt.Sprintf(`{"name": "A", "url": "http://%s/answer"}`, closed))
		code, out, stderr := evalrun(t, "--database-url", dbURL, "run", s, "--no-preflight")
		if code != exitFailed || !strings.Contains(stderr, "agent: http: ") || !strings.Contains(stderr, "connection refused (2 of 2 calls)") {
			t.Errorf("exit %d, want 1 with the agent outage named\n%s%s", code, out, stderr)
		}
		if n := countRuns(t, dbURL); n != 1 {
			t.Errorf("%d runs saved, want the marked run", n)
		}
	})
}

// TestRunCmd_Repeat answers each question three times with a judge whose
// scores cycle 0.9, 0.8, 1.0: every question passes on its mean (0.9 at a
// 0.9 threshold), pass@3 is 100 %, pass^3 0 %, the within-question sd 0.1,
// and every report format says so. Out-of-range --repeat values exit 2.
func TestRunCmd_Repeat(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	srv, n := cyclingJudge(t)
	s := judgedSuiteFile(t, srv.URL+"/v1", "")
	dir := t.TempDir()
	dbURL := "sqlite:" + filepath.Join(dir, "runs.sqlite3")
	for _, bad := range []string{"0", "101", "-1"} {
		if code, _, stderr := evalrun(t, "--database-url", dbURL, "run", s, "--repeat="+bad); code != exitInvalid ||
			!strings.Contains(stderr, "--repeat: want a whole number of repeats from 1 to 100") {
			t.Errorf("--repeat=%s: exit %d, want 2 with the rule\n%s", bad, code, stderr)
		}
	}
	args := []string{"--database-url", dbURL, "run", s, "--repeat", "3", "--concurrency", "1"}
	for _, ext := range []string{"txt", "md", "html", "json", "xml"} {
		args = append(args, "--report", filepath.Join(dir, "report."+ext))
	}
	code, out, stderr := evalrun(t, args...)
	if code != exitOK {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	if got := n.Load(); got != 6 {
		t.Errorf("judge calls = %d, want 6 (2 questions x 3 repeats)", got)
	}
	line := "3 answers per question; pass@3 100.0% (some answer passed), pass^3 0.0% (every answer passed), over 2 evaluated questions"
	for _, name := range []string{"stdout", "report.txt", "report.md", "report.html"} {
		text := out
		if name != "stdout" {
			b, err := os.ReadFile(filepath.Join(dir, name))
			if err != nil {
				t.Fatal(err)
			}
			text = strings.ReplaceAll(string(b), `\`, "") // Markdown escapes _ and ()
		}
		if !strings.Contains(text, line) || !strings.Contains(text, "semantic_accuracy 0.100 (2 questions)") {
			t.Errorf("%s lacks the repeat line or the within-question sd:\n%s", name, text)
		}
	}
	junit, _ := os.ReadFile(filepath.Join(dir, "report.xml"))
	for _, p := range []string{`<property name="repeats" value="3">`, `<property name="pass_at_k" value="1.000">`, `<property name="pass_hat_k" value="0.000">`} {
		if !strings.Contains(string(junit), p) {
			t.Errorf("JUnit lacks %s:\n%s", p, junit)
		}
	}
	var doc struct {
		Summary map[string]any         `json:"summary"`
		Repeats map[string]any         `json:"repeats"`
		Cases   []struct{ Status any } `json:"cases"`
	}
	b, _ := os.ReadFile(filepath.Join(dir, "report.json"))
	if err := json.Unmarshal(b, &doc); err != nil {
		t.Fatal(err)
	}
	if doc.Summary["repeats"] != 3.0 || doc.Summary["pass_at_k"] != 1.0 || doc.Summary["pass_hat_k"] != 0.0 ||
		doc.Repeats["k"] != 3.0 || len(doc.Cases) != 2 || doc.Cases[0].Status != "passed" {
		t.Errorf("JSON report: summary %v, repeats %v, cases %v", doc.Summary, doc.Repeats, doc.Cases)
	}
	// K is not part of the definition: a K=2 run is compared with the K=3
	// run, and says what the baseline's K was.
	code, out, stderr = evalrun(t, "--database-url", dbURL, "run", s, "--repeat", "2", "--report", filepath.Join(dir, "next.txt"))
	b, _ = os.ReadFile(filepath.Join(dir, "next.txt"))
	if code == exitInvalid || !strings.Contains(string(b), "2 answers per question") || !strings.Contains(string(b), "the baseline had 3 per question") {
		t.Errorf("K=2 after K=3: exit %d\n%s%s\n%s", code, out, stderr, b)
	}
}
