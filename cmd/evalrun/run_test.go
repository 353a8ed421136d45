package main

import (
	"bufio"
	"bytes"
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/runner"
)

var supportSuite = filepath.Join("..", "..", "examples", "support", "suite.json")

// TestRunCmd_SupportExample reproduces the README's table on both databases:
// reference 3 of 3 (quality 1.000, exit 0), regressed 2 of 3 (0.667, exit 1).
func TestRunCmd_SupportExample(t *testing.T) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			url := migratedURL(t, backend)
			t.Setenv("AGENT_REVISION", "reference")
			code, out, stderr := evalrun(t, "--database-url", url, "run", supportSuite, "--metadata", `{"revision":"reference"}`)
			if code != exitOK || !strings.Contains(out, "Passing questions: 3 of 3   Quality: 1.000") {
				t.Fatalf("reference: exit %d\n%s%s", code, out, stderr)
			}
			t.Setenv("AGENT_REVISION", "regressed")
			code, out, stderr = evalrun(t, "--database-url", url, "run", supportSuite, "--metadata", `{"revision":"regressed"}`)
			if code != exitFailed || !strings.Contains(out, "Passing questions: 2 of 3   Quality: 0.667") {
				t.Fatalf("regressed: exit %d\n%s%s", code, out, stderr)
			}
			if !strings.Contains(out, "returns   failed  0.000    exact 0.000/1.000 FAIL, lookup 0.000/1.000 FAIL") {
				t.Errorf("regressed table does not show both checks failing on returns:\n%s", out)
			}

			db, err := models.Open(context.Background(), url, models.OpenOptions{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			runs, _, err := db.ListRuns(context.Background(), models.RunFilter{Suite: "Customer support"})
			if err != nil || len(runs) != 2 {
				t.Fatalf("runs = %d, %v", len(runs), err)
			}
			latest, err := db.GetRun(context.Background(), runs[0].ID)
			if err != nil {
				t.Fatal(err)
			}
			if got := string(latest.Metadata); !strings.Contains(got, `"regressed"`) {
				t.Errorf("metadata = %s", got)
			}
			returns := latest.Cases[0]
			if returns.CaseID != "returns" || returns.Status != models.StatusFailed || len(returns.Metrics) != 2 {
				t.Fatalf("returns case = %+v", returns)
			}
			for _, m := range returns.Metrics {
				if m.Score == nil || *m.Score != 0 || m.Passed {
					t.Errorf("metric %s = %v passed %v, want a calculated 0", m.Name, m.Score, m.Passed)
				}
			}
			if !strings.Contains(string(returns.Actions), `"shipping"`) {
				t.Errorf("observed actions = %s", returns.Actions)
			}
			if runs[0].SuiteDigest != runs[1].SuiteDigest {
				t.Errorf("the two revisions have different digests")
			}

			code, out, _ = evalrun(t, "--database-url", url, "history", "--suite", "Customer support", "--limit", "5")
			if code != exitOK || strings.Count(out, "Customer support") != 2 || !strings.Contains(out, "2/3") {
				t.Errorf("history: exit %d\n%s", code, out)
			}
		})
	}
}

// TestRunCmd_InvalidSuites runs the malformed-suite corpus through the CLI:
// exit 2, a message naming the field, and nothing written.
func TestRunCmd_InvalidSuites(t *testing.T) {
	dir := filepath.Join("..", "..", "suite", "testdata", "invalid")
	f, err := os.Open(filepath.Join(dir, "want.tsv"))
	if err != nil {
		t.Fatal(err)
	}
	defer f.Close()
	db := testdb.SQLite(t)
	url := db.URL
	db.Close()
	n := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		name, want, _ := strings.Cut(sc.Text(), "\t")
		n++
		for _, cmd := range []string{"run", "validate"} {
			code, out, stderr := evalrun(t, "--database-url", url, cmd, filepath.Join(dir, name))
			if code != exitInvalid || !strings.Contains(stderr, want) || !strings.Contains(stderr, name) {
				t.Errorf("%s %s: exit %d, want 2 and %q in:\n%s%s", cmd, name, code, want, out, stderr)
			}
		}
	}
	if n < 30 {
		t.Errorf("corpus has %d suites, want at least 30", n)
	}
	if got := countRuns(t, url); got != 0 {
		t.Errorf("%d runs written by invalid suites", got)
	}
}

func TestRunCmd_InvalidOptions(t *testing.T) {
	db := testdb.SQLite(t)
	url := db.URL
	db.Close()
	tests := []struct {
		name string
		args []string
		want string
	}{
		{"metadata not an object", []string{"--metadata", `[1]`}, "--metadata: want a JSON object"},
		{"metadata not json", []string{"--metadata", `{revision`}, "--metadata: want a JSON object"},
		{"unknown --only id", []string{"--only", "nope"}, `--only: no question has id "nope"`},
		{"negative concurrency", []string{"--concurrency=-2"}, "--concurrency: want a whole number ≥ 0 (0 = default min(4, cases)), got -2"},
		{"negative concurrency as its own argument", []string{"--concurrency", "-3"}, "--concurrency: want a whole number ≥ 0 (0 = default min(4, cases)), got -3"},
		{"negative -j", []string{"-j", "-1"}, "--concurrency: want a whole number ≥ 0 (0 = default min(4, cases)), got -1"},
		{"concurrency not a number", []string{"--concurrency", "many"}, `--concurrency: want a whole number ≥ 0 (0 = default min(4, cases)), got "many"`},
		{"zero timeout", []string{"--timeout", "0s"}, "--timeout: want a positive duration such as 30s (omit it for the suite's agent.timeout, else 5m), got 0s"},
		{"negative timeout", []string{"--timeout=-5s"}, "--timeout: want a positive duration"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"--database-url", url, "run", supportSuite}, tt.args...)
			code, out, stderr := evalrun(t, args...)
			if code != exitInvalid || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, want 2 and %q:\n%s%s", code, tt.want, out, stderr)
			}
		})
	}
	code, out, stderr := evalrun(t, "--database-url", url, "run", filepath.Join(t.TempDir(), "missing.json"))
	if code != exitInvalid || !strings.Contains(stderr, "missing.json: cannot read the suite file") {
		t.Errorf("missing suite: exit %d\n%s%s", code, out, stderr)
	}
	if got := countRuns(t, url); got != 0 {
		t.Errorf("%d runs written", got)
	}
	code, out, stderr = evalrun(t, "--database-url", url, "run", supportSuite, "--only", "warranty")
	if code != exitOK || !strings.Contains(out, "Passing questions: 1 of 1") {
		t.Errorf("--only warranty: exit %d\n%s%s", code, out, stderr)
	}
}

// TestRunCmd_Interrupted interrupts a run the way Ctrl-C does: the second
// agent process sends SIGINT to evalrun (this test process). With --grace 0
// the run stops at once and nothing is saved, on SQLite and on PostgreSQL
// (TestBinary_InterruptKeepsFinishedCases covers the grace period).
func TestRunCmd_Interrupted(t *testing.T) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			dir := t.TempDir()
			os.WriteFile(filepath.Join(dir, "agent.sh"), []byte(`q=$(cat)
case "$q" in *second*) kill -INT $PPID; sleep 5 ;; esac
echo ok
`), 0o644)
			s := filepath.Join(dir, "suite.json")
			os.WriteFile(s, []byte(`{"suite": "Interrupt", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
			  "evaluators": {"exact": {"type": "exact_match"}},
			  "questions": [{"question": "first", "expected_answer": "ok"}, {"question": "second", "expected_answer": "ok"},
			    {"question": "third", "expected_answer": "ok"}]}`), 0o644)
			url := migratedURL(t, backend)
			code, out, stderr := evalrun(t, "--database-url", url, "run", s, "--concurrency", "1", "--grace", "0")
			if code != exitFailed || !strings.Contains(stderr, "1 of 3 cases finished, 2 unfinished; nothing was saved") {
				t.Errorf("exit %d, stderr:\n%s%s", code, out, stderr)
			}
			if got := countRuns(t, url); got != 0 {
				t.Errorf("%d runs written by an interrupted run", got)
			}
		})
	}
}

func TestSchemaCmd_MatchesCommittedFile(t *testing.T) {
	committed, err := os.ReadFile(filepath.Join("..", "..", "docs", "suite.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	code, out, _ := evalrun(t, "schema")
	if code != exitOK || !bytes.Equal([]byte(out), committed) {
		t.Errorf("evalrun schema differs from docs/suite.schema.json (exit %d); copy runner/suite.schema.json there", code)
	}
}

func TestValidateCmd_Example(t *testing.T) {
	code, out, stderr := evalrun(t, "validate", supportSuite)
	if code != exitOK || !strings.Contains(out, `3 questions, metrics: exact, lookup`) {
		t.Errorf("exit %d\n%s%s", code, out, stderr)
	}
}

// TestRunCmd_StripsControlSequences shows untrusted ids and agent errors
// without terminal escape sequences.
func TestRunCmd_StripsControlSequences(t *testing.T) {
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "agent.sh"), []byte(`cat >/dev/null; printf '\033[2J\033]0;pwned\007' >&2; exit 4`), 0o644)
	s := filepath.Join(dir, "suite.json")
	os.WriteFile(s, []byte(`{"suite": "Esc\u001b[31m", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
	  "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [{"id": "red\u001b[31m\nline", "question": "q", "expected_answer": "ok"}]}`), 0o644)
	db := testdb.SQLite(t)
	url := db.URL
	db.Close()
	code, out, stderr := evalrun(t, "--database-url", url, "run", s)
	if code != exitFailed || !strings.Contains(out, "red line") || !strings.Contains(out, "-> agent ERROR: exit_status: ") {
		t.Errorf("exit %d\n%s%s", code, out, stderr)
	}
	if strings.ContainsAny(out+stderr, "\x1b\x07") {
		t.Errorf("output contains control characters: %q", out+stderr)
	}
}

// TestRunCmd_UnmigratedPostgres runs a suite on an empty PostgreSQL schema:
// exit 2 naming db:migrate before the agent is called; after db:migrate the
// same command runs. A contract column dropped later is reported the same
// way, pointing at db:check.
func TestRunCmd_UnmigratedPostgres(t *testing.T) {
	dir := t.TempDir()
	calls := filepath.Join(dir, "calls.txt")
	os.WriteFile(filepath.Join(dir, "agent.sh"), []byte("cat >/dev/null; echo called >> calls.txt; echo ok\n"), 0o644)
	s := filepath.Join(dir, "suite.json")
	os.WriteFile(s, []byte(`{"suite": "Unmigrated", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
	  "evaluators": {"exact": {"type": "exact_match"}}, "questions": [{"question": "q", "expected_answer": "ok"}]}`), 0o644)
	agentCalled := func() bool {
		_, err := os.Stat(calls)
		return err == nil
	}
	url := testdb.PostgresURL(t)

	code, out, stderr := evalrun(t, "--database-url", url, "run", s)
	if code != exitInvalid || !strings.Contains(stderr, "evaluation tables are missing") ||
		!strings.Contains(stderr, "(ruby_llm_evaluations_runs, ruby_llm_evaluations_case_results, ruby_llm_evaluations_metric_results): run `evalrun db:migrate`") || strings.Contains(stderr, "does not exist") {
		t.Fatalf("run on an unmigrated schema: exit %d, want 2 naming the missing tables and db:migrate\n%s%s", code, out, stderr)
	}
	if agentCalled() {
		t.Fatal("the agent was called although nothing could be saved")
	}

	if code, out, stderr := evalrun(t, "--database-url", url, "db:migrate"); code != exitOK {
		t.Fatalf("db:migrate: exit %d\n%s%s", code, out, stderr)
	}
	if code, out, stderr := evalrun(t, "--database-url", url, "run", s); code != exitOK || !agentCalled() {
		t.Fatalf("run after db:migrate: exit %d, agent called %v\n%s%s", code, agentCalled(), out, stderr)
	}

	db, err := models.Open(context.Background(), url, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), "ALTER TABLE ruby_llm_evaluations_metric_results DROP COLUMN threshold"); err != nil {
		t.Fatal(err)
	}
	os.Remove(calls)
	code, out, stderr = evalrun(t, "--database-url", url, "run", s)
	if code != exitInvalid || !strings.Contains(stderr, "incompatible columns (ruby_llm_evaluations_metric_results.threshold)") ||
		!strings.Contains(stderr, "evalrun db:check") || agentCalled() {
		t.Errorf("run with a dropped contract column: exit %d, agent called %v; want 2 naming the column and db:check\n%s%s",
			code, agentCalled(), out, stderr)
	}
}

// TestRunCmd_NoJudgeBuiltWithoutJudgeMetrics runs a suite of deterministic
// checks whose judge section names a provider without its API key: no judge
// is built, so the run succeeds, with the digest of a --no-judge run. A
// judge-backed metric still needs the key, and judge flags are still checked.
func TestRunCmd_NoJudgeBuiltWithoutJudgeMetrics(t *testing.T) {
	t.Setenv("ANTHROPIC_API_KEY", "")
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "agent.sh"), []byte("cat >/dev/null; echo ok\n"), 0o644)
	write := func(name, scores string) string {
		path := filepath.Join(dir, name)
		os.WriteFile(path, []byte(`{"suite": "Judge section", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
		  "judge": {"provider": "anthropic", "model": "claude-judge"},
		  "evaluators": {"exact": {"type": "exact_match"}},
		  "questions": [{"id": "q", "question": "q", "expected_answer": "ok", "minimum_scores": `+scores+`}]}`), 0o644)
		return path
	}
	deterministic := write("deterministic.json", `{"exact": 1}`)
	url := testdb.SQLiteURL(t)

	code, out, stderr := evalrun(t, "--database-url", url, "run", deterministic)
	if code != exitOK || !strings.Contains(out, "Passing questions: 1 of 1") {
		t.Fatalf("deterministic suite with a judge section and no key: exit %d\n%s%s", code, out, stderr)
	}
	first := latestRunID(t, url)
	code, out, stderr = evalrun(t, "--database-url", url, "run", deterministic, "--no-judge")
	if code != exitOK || !strings.Contains(out, "Baseline: "+first) {
		t.Errorf("--no-judge run: exit %d, want the first run %s as its baseline (same digest)\n%s%s", code, first, out, stderr)
	}

	code, out, stderr = evalrun(t, "--database-url", url, "run", deterministic, "--judge-provider", "openai")
	if code != exitInvalid || !strings.Contains(stderr, "give --judge-model too") {
		t.Errorf("inconsistent judge flags: exit %d, want 2\n%s%s", code, out, stderr)
	}
	judged := write("judged.json", `{"exact": 1, "semantic_accuracy": 0.9}`)
	code, out, stderr = evalrun(t, "--database-url", url, "run", judged)
	if code != exitInvalid || !strings.Contains(stderr, "ANTHROPIC_API_KEY is not set") || !strings.Contains(stderr, "or pass --no-judge") {
		t.Errorf("judge-backed metric without the key: exit %d, want 2 naming ANTHROPIC_API_KEY\n%s%s", code, out, stderr)
	}
	if got := countRuns(t, url); got != 2 {
		t.Errorf("%d runs saved, want 2", got)
	}
}

// TestProgress_FitsTheTerminal draws the bar on a 40-column "terminal":
// every frame fits in 39 columns (a wrapped frame would leave a stale row
// behind), shows the running failure count and the ETA before the last
// question's id, and finish clears the line before the table or an error.
func TestProgress_FitsTheTerminal(t *testing.T) {
	var b bytes.Buffer
	clock := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	now := func() time.Time { clock = clock.Add(2 * time.Second); return clock }
	p := &progress{w: &b, total: 3, cols: func() int { return 40 }, now: now}
	p.start()
	for i, id := range []string{"returns", strings.Repeat("shipping-", 10), strings.Repeat("返品期限", 10)} {
		status := models.StatusPassed
		if i == 1 {
			status = models.StatusFailed
		}
		p.update(runner.Progress{Done: i + 1, Total: 3, Case: &models.CaseResult{CaseID: id, Status: status}})
	}
	frames := strings.Split(b.String(), "\r\x1b[K")
	if frames[0] != "" || len(frames) != 5 {
		t.Fatalf("frames = %q, want 4 frames each after \\r\\x1b[K", frames)
	}
	want := []string{"[.............] 0/3", "[####.........] 1/3 elapsed 2s, ETA 4s…",
		"[########.....] 2/3 1 failed · elapsed…", "[#############] 3/3 1 failed · elapsed…"}
	for i, f := range frames[1:] {
		if w := displayWidth(f); w > 39 || f != want[i] {
			t.Errorf("frame %d = %q (%d columns), want %q (at most 39 columns)", i, f, w, want[i])
		}
	}
	b.Reset()
	p.finish()
	p.finish()
	if got := b.String(); got != "\r\x1b[K" {
		t.Errorf("finish wrote %q, want one line clear", got)
	}

	var plain bytes.Buffer
	q := newProgress(&plain, 1) // not a terminal
	q.start()
	q.update(runner.Progress{Done: 1, Total: 1, Case: &models.CaseResult{CaseID: "returns", Status: models.StatusFailed, DurationMS: 12}})
	q.finish()
	if got, want := plain.String(), "[1/1] failed        returns (12 ms) · 1 failed · elapsed 0s\n"; got != want {
		t.Errorf("plain progress = %q, want %q", got, want)
	}
}
