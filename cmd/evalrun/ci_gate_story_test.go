package main

import (
	"crypto/sha256"
	"encoding/binary"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// noisyJudge is a local OpenAI-compatible judge whose score for a prompt
// is 0.85 plus noise uniform in [-0.1, 0.1], drawn from a hash of the
// prompt and *epoch: the same prompt gets the same score within an epoch
// and another one in the next, as a real judge's run-to-run noise.
func noisyJudge(t *testing.T, epoch *atomic.Int64) *httptest.Server {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h := sha256.New()
		binary.Write(h, binary.LittleEndian, epoch.Load())
		h.Write(body)
		u := float64(binary.LittleEndian.Uint64(h.Sum(nil))>>11) / (1 << 53)
		writeVerdict(w, "Scripted.", 0.75+0.2*u)
	}))
	t.Cleanup(srv.Close)
	return srv
}

// TestRunCmd_CIGateUserStory is issue 10's user story through the CLI
// under --gate ci --fail-on regressions, on a suite of 12 questions judged
// on two metrics by a noisy judge plus two deterministic checks, one of
// which fails from the start:
//   - a rerun with no change exits 0, each judge metric "within noise",
//     while the strict gate flags the same kind of rerun (judge noise alone);
//   - the question that failed at the baseline and still fails does not
//     turn the build red;
//   - a deterministic check that newly fails exits 1;
//   - the last line names the rule that produced the exit code.
func TestRunCmd_CIGateUserStory(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	var epoch atomic.Int64
	srv := noisyJudge(t, &epoch)
	dir := t.TempDir()
	a, answer := knownBugAgent(t, dir)
	write := func(path, text string) { writeTestFile(t, path, text) }
	questions := []string{
		`{"id": "known", "question": "known bug", "expected_answer": "right", "minimum_scores": {"exact": 1}}`,
		`{"id": "fine", "question": "exact answer please", "expected_answer": "ok", "minimum_scores": {"exact": 1}}`,
	}
	for i := range 12 {
		questions = append(questions, fmt.Sprintf(`{"id": "judged%02d", "question": "How long may I return item %d?", "expected_answer": "Within 30 days.",
		  "minimum_scores": {"semantic_accuracy": 0.8, "answer_relevancy": 0.8}}`, i, i))
	}
	s := filepath.Join(dir, "suite.json")
	write(s, `{"suite": "CI gate story", "agent": {"name": "A", "command": ["sh", "`+a+`"]},
	  "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [`+strings.Join(questions, ",\n")+`]}`)
	url := testdb.SQLiteURL(t)
	run := func(e int64, args ...string) (code int, out, last, stderr string) {
		t.Helper()
		epoch.Store(e)
		code, out, stderr = evalrun(t, append([]string{"--database-url", url, "run", s,
			"--judge-base-url", srv.URL + "/v1", "--judge-model", "judge"}, args...)...)
		lines := strings.Split(strings.TrimSpace(out), "\n")
		return code, out, lines[len(lines)-1], stderr
	}
	ci := []string{"--gate", "ci", "--fail-on", "regressions"}

	code, out, last, stderr := run(1, ci...)
	if code != exitOK || !strings.HasPrefix(last, "exit 0: no gated regression, no baseline to regress against (--fail-on regressions; not acted on: ") {
		t.Fatalf("first run: exit %d, last line %q\n%s%s", code, last, out, stderr)
	}
	baseline := latestRunID(t, url)

	// No change, new judge noise: within noise, exit 0, the known failure
	// not acted on.
	code, out, last, stderr = run(2, ci...)
	if code != exitOK || !strings.HasPrefix(last, "exit 0: no gated regression (--fail-on regressions; not acted on: ") ||
		!strings.Contains(out, "Baseline: "+baseline) {
		t.Fatalf("no-change rerun under ci: exit %d, last line %q, want 0 against %s\n%s%s", code, last, baseline, out, stderr)
	}
	checkJudgeMetricLines(t, "no-change rerun", out)
	if !strings.Contains(out, "not gating: judge metrics gate in aggregate") {
		t.Errorf("no-change rerun: the judged questions that flipped on noise are not listed as not gating\n%s", out)
	}
	if strings.Contains(out, "known [") {
		t.Errorf("the question failing since the baseline is listed as a regression\n%s", out)
	}

	// The same kind of rerun under the strict gate: judge noise alone
	// regresses, which is what --gate ci is for.
	code, out, last, stderr = run(3, "--gate", "strict", "--fail-on", "regressions", "--baseline", baseline)
	if code != exitFailed || !strings.HasPrefix(last, "exit 1: ") || !strings.Contains(last, "against baseline "+baseline+" (--fail-on regressions") ||
		!strings.Contains(stderr, "for judged suites use --gate ci") {
		t.Fatalf("no-change rerun under strict: exit %d, last line %q, want 1 from judge noise and the --gate ci note\n%s%s", code, last, out, stderr)
	}

	// A deterministic check newly fails: exit 1, whatever the judge noise.
	write(answer, "broken\n")
	code, out, last, stderr = run(4, append(ci, "--baseline", baseline)...)
	want := "exit 1: 1 regression against baseline " + baseline + " (--fail-on regressions; not acted on: "
	if code != exitFailed || !strings.HasPrefix(last, want) || !strings.Contains(out, "! fine [exact new_failure") {
		t.Fatalf("newly failing deterministic check under ci: exit %d, last line %q, want %q and \"! fine [exact new_failure]\"\n%s%s", code, last, want, out, stderr)
	}
	checkJudgeMetricLines(t, "newly failing check", out)
}

// checkJudgeMetricLines: the run output has one line per judge metric
// saying why it does not gate: "within noise: p = …" for a mean that fell
// without significance, "no drop: p = …" for one that rose (the seeded
// noise here gives at least one of each kind over the two metrics).
func checkJudgeMetricLines(t *testing.T, step, out string) {
	t.Helper()
	noise := 0
	for _, m := range []string{"semantic_accuracy", "answer_relevancy"} {
		within := strings.Contains(out, "Judge metric "+m+": within noise: p = ")
		if !within && !strings.Contains(out, "Judge metric "+m+": no drop: p = ") {
			t.Errorf("%s: no \"within noise\" or \"no drop\" line for %s\n%s", step, m, out)
		}
		if within {
			noise++
		}
	}
	if noise == 0 {
		t.Errorf("%s: no judge metric is \"within noise\"\n%s", step, out)
	}
}
