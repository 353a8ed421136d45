package main

import (
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/google/uuid"
)

// judgedSuite writes a one-question suite whose command agent records each
// call in a marker file, judged by a local OpenAI-compatible server whose
// score the test sets. It returns the suite path, the marker file, the score
// setter and the judge flags.
func judgedSuite(t *testing.T, dir, suiteName string) (s, marker string, score *atomic.Value, judgeFlags []string) {
	t.Helper()
	score = &atomic.Value{}
	score.Store(0.98)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		io.Copy(io.Discard, r.Body)
		writeVerdict(w, "Same facts.", score.Load())
	}))
	t.Cleanup(srv.Close)
	t.Setenv("OPENAI_API_KEY", "")
	marker = filepath.Join(dir, "agent-calls")
	s = filepath.Join(dir, "suite.json")
	def := map[string]any{
		"suite": suiteName, "version": "1",
		"agent": map[string]any{"name": "SupportAgent", "timeout": "10s",
			"command": []string{"sh", "-c", "cat >/dev/null; echo call >> " + marker + "; echo 'You can return it within 30 days.'"}},
		"evaluators": map[string]any{"semantic_accuracy": map[string]any{"type": "semantic_accuracy", "threshold": 0.9}},
		"questions": []any{map[string]any{"id": "returns", "question": "How long do I have to return an item?",
			"expected_answer": "You can return it within 30 days.", "minimum_scores": map[string]any{"semantic_accuracy": 0.9},
			"metadata": map[string]any{"failure_mode": "policy"}}},
	}
	b, _ := json.Marshal(def)
	if err := os.WriteFile(s, b, 0o644); err != nil {
		t.Fatal(err)
	}
	return s, marker, score, []string{"--judge-base-url", srv.URL + "/v1", "--judge-model", "judge"}
}

func agentCalls(t *testing.T, marker string) int {
	t.Helper()
	b, err := os.ReadFile(marker)
	if os.IsNotExist(err) {
		return 0
	}
	if err != nil {
		t.Fatal(err)
	}
	return strings.Count(string(b), "call")
}

// TestGateFlags_WorkedExample is the gem's README example through the CLI:
// minimum 0.9, a previous score of 0.98 and a later one of 0.92 both pass;
// with tolerance 0.02 the later run regresses, and --fail-on-regression
// makes it exit 1.
func TestGateFlags_WorkedExample(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "runs.sqlite3")
	s, _, score, judge := judgedSuite(t, dir, "Customer support")
	runArgs := func(extra ...string) []string {
		return append(append([]string{"--database-url", db, "run", s}, judge...), extra...)
	}
	code, out, stderr := evalrun(t, runArgs()...)
	if code != exitOK || !strings.Contains(out, "Baseline: none") {
		t.Fatalf("first run (0.98): exit %d\n%s%s", code, out, stderr)
	}
	first := latestRunID(t, db)

	score.Store(0.92)
	code, out, stderr = evalrun(t, runArgs("--tolerance", "0.02")...)
	if code != exitOK {
		t.Fatalf("0.92 passes its minimum and the gate is off: exit %d\n%s%s", code, out, stderr)
	}
	if !strings.Contains(out, "Baseline: "+first) || !strings.Contains(out, "Regressed: 1 regression (! fails the gate)") ||
		!strings.Contains(out, "semantic_accuracy fell by 0.060") {
		t.Fatalf("second run does not report the regression against %s:\n%s", first, out)
	}
	second := latestRunID(t, db)

	reportsDir := t.TempDir()
	html, js, xml := filepath.Join(reportsDir, "r.html"), filepath.Join(reportsDir, "r.json"), filepath.Join(reportsDir, "r.xml")
	code, out, stderr = evalrun(t, runArgs("--baseline", first, "--tolerance", "0.02", "--fail-on-regression",
		"--report", html, "--report", js, "--junit", xml)...)
	if code != exitFailed {
		t.Fatalf("--fail-on-regression: exit %d, want %d\n%s%s", code, exitFailed, out, stderr)
	}
	if n := strings.Count(stderr, "for judged suites use --gate ci"); n != 1 {
		t.Errorf("strict gate over a judge metric: the --gate ci note appears %d times on stderr, want once\n%s", n, stderr)
	}
	for _, p := range []string{html, js, xml} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("report %s not written: %v", p, err)
		}
	}
	b, _ := os.ReadFile(js)
	if !strings.Contains(string(b), `"regressed": true`) || !strings.Contains(string(b), `"id": "`+first+`"`) {
		t.Errorf("JSON report lacks the regression against %s", first)
	}

	// A tolerance of 0.1 hides the drop; the gate passes.
	code, out, stderr = evalrun(t, runArgs("--baseline", first, "--tolerance", "0.1", "--fail-on-regression")...)
	if code != exitOK {
		t.Fatalf("tolerance 0.1: exit %d\n%s%s", code, out, stderr)
	}
	// The ci gate decides judge metrics by a paired test: one question
	// cannot show a significant drop (the exact sign-flip p-value of one
	// pair is 0.5), so it is within noise and says so.
	code, out, stderr = evalrun(t, runArgs("--baseline", first, "--gate", "ci", "--fail-on-regression")...)
	if code != exitOK || !strings.Contains(out, "Judge metric semantic_accuracy: within noise: p = 0.5, mean change −0.060 over 1 question") ||
		!strings.Contains(out, "not gating: judge metrics gate in aggregate") {
		t.Fatalf("--gate ci: exit %d, want %d, within noise\n%s%s", code, exitOK, out, stderr)
	}
	if strings.Contains(stderr, "--gate ci") {
		t.Errorf("--gate ci still notes to use --gate ci:\n%s", stderr)
	}
	if code, _, _ := evalrun(t, runArgs("--gate", "lenient")...); code != exitInvalid {
		t.Fatalf("--gate lenient: exit %d, want %d", code, exitInvalid)
	}
	// The report command agrees and never picks a later run as baseline.
	code, out, stderr = evalrun(t, "--database-url", db, "report", second, "--tolerance", "0.02")
	if code != exitOK || !strings.Contains(out, "Baseline  "+first) || !strings.Contains(out, "REGRESSED") {
		t.Fatalf("report %s: exit %d\n%s%s", second, code, out, stderr)
	}
}

// TestGateFlags_RejectedBeforeAgent: a missing, malformed or incompatible
// --baseline and unusable report paths exit 2 before the agent is called.
func TestGateFlags_RejectedBeforeAgent(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "runs.sqlite3")
	s, marker, _, judge := judgedSuite(t, dir, "Customer support")
	code, out, stderr := evalrun(t, append([]string{"--database-url", db, "run", s}, judge...)...)
	if code != exitOK {
		t.Fatalf("seed run: exit %d\n%s%s", code, out, stderr)
	}
	judged := latestRunID(t, db)
	// Without a judge the calculated metric set differs: another definition.
	otherDir := t.TempDir()
	otherSuite, _, _, _ := judgedSuite(t, otherDir, "Another suite")
	if code, out, stderr := evalrun(t, append([]string{"--database-url", db, "run", otherSuite}, judge...)...); code != exitOK {
		t.Fatalf("other suite run: exit %d\n%s%s", code, out, stderr)
	}
	otherSuiteRun := latestRunID(t, db)
	calls := agentCalls(t, marker)
	if calls != 1 {
		t.Fatalf("the seed run called the agent %d times, want 1", calls)
	}

	tests := []struct {
		name string
		args []string
		want string
	}{
		{"unknown run", append([]string{"--baseline", uuid.NewString()}, judge...), "no such run"},
		{"malformed id", append([]string{"--baseline", "last-week"}, judge...), "not a run id"},
		{"another suite", append([]string{"--baseline", otherSuiteRun}, judge...), "incompatible baseline"},
		{"another metric set", []string{"--no-judge", "--baseline", judged}, "incompatible baseline"},
		{"unknown report format", append([]string{"--report", filepath.Join(dir, "r.pdf")}, judge...), "unknown report format"},
		{"missing report dir", append([]string{"--junit", filepath.Join(dir, "nope", "r.xml")}, judge...), "--junit"},
		{"negative tolerance", append([]string{"--tolerance", "-0.1"}, judge...), "tolerance"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			args := append([]string{"--database-url", db, "run", s}, tt.args...)
			code, out, stderr := evalrun(t, args...)
			if code != exitInvalid || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d, want %d with %q\n%s%s", code, exitInvalid, tt.want, out, stderr)
			}
			if got := agentCalls(t, marker); got != calls {
				t.Fatalf("the agent was called %d times before the rejection", got-calls)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "r.pdf")); !os.IsNotExist(err) {
		t.Errorf("a report with an unknown format was written: %v", err)
	}
}

func TestGateFlags_ReportTargets(t *testing.T) {
	dir := t.TempDir()
	tests := []struct {
		report string
		want   string // "" means accepted
	}{
		{filepath.Join(dir, "r.html"), ""},
		{filepath.Join(dir, "r.MD"), ""},
		{"github", ""},
		{"html", `--report "html": unknown report format: want a path ending .html/.htm, .md/.markdown, .txt/.text, .json or .xml (JUnit), or the word github; to write html, give a file name such as report.html`},
		{"markdown", "give a file name such as report.md"},
		{"junit", "give a file name such as report.xml"},
		{filepath.Join(dir, "r.pdf"), "want a path ending .html/.htm"},
	}
	for _, tt := range tests {
		f := &GateFlags{Report: []string{tt.report}}
		_, err := f.targets()
		switch {
		case tt.want == "" && err != nil:
			t.Errorf("--report %s: %v", tt.report, err)
		case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want) || strings.Contains(err.Error(), "name the format")):
			t.Errorf("--report %s: error %v, want %q", tt.report, err, tt.want)
		}
	}
}
