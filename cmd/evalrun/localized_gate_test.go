package main

import (
	"crypto/sha256"
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// buildEvalrun builds this command into a temporary binary.
func buildEvalrun(t *testing.T) string {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build evalrun (put the Go toolchain on PATH): %v", err)
	}
	bin := filepath.Join(t.TempDir(), "evalrun")
	build := exec.CommandContext(t.Context(), goBin, "build", "-o", bin, ".")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", build, err, out)
	}
	return bin
}

// TestRunBinary_SliceRegressed is a regression carried by one failure
// mode through the real binary: 40 judged questions in four slices of 10,
// a judge whose verdicts move by ±0.05 from run to run, and a candidate
// whose refund answers turn wrong (the judge takes 0.4 off them). The mean
// over the suite drops by 0.1 of what matters, and under --gate ci
// --fail-on regressions the run exits 1 and the text output, the JSON
// report, the JUnit report and the GitHub annotations name the slice.
func TestRunBinary_SliceRegressed(t *testing.T) {
	bin := buildEvalrun(t)
	var epoch atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		h := sha256.New()
		binary.Write(h, binary.LittleEndian, epoch.Load())
		h.Write(body)
		u := float64(binary.LittleEndian.Uint64(h.Sum(nil))>>11) / (1 << 53)
		score := 0.85 + 0.1*(u-0.5)
		if strings.Contains(string(body), "WRONG") {
			score -= 0.4
		}
		writeVerdict(w, "Scripted.", score)
	}))
	t.Cleanup(srv.Close)
	dir := t.TempDir()
	broken := filepath.Join(dir, "broken")
	agent := filepath.Join(dir, "agent.sh")
	writeTestFile(t, agent, `in=$(cat)
case "$in" in
  *refund*) if [ -e '`+broken+`' ]; then echo 'WRONG: no refunds'; else echo 'Within 30 days.'; fi ;;
  *) echo 'Within 30 days.' ;;
esac
`)
	var questions []string
	for i, mode := range []string{"refunds", "shipping", "warranty", "billing"} {
		for j := range 10 {
			questions = append(questions, fmt.Sprintf(`{"id": "%s-%d", "question": "Question %d about %s?", "expected_answer": "Within 30 days.",
			  "minimum_scores": {"semantic_accuracy": 0.3}, "metadata": {"failure_mode": %q}}`, mode, j, 10*i+j, strings.TrimSuffix(mode, "s")+"s", mode))
		}
	}
	suitePath := filepath.Join(dir, "suite.json")
	writeTestFile(t, suitePath, `{"suite": "Slices", "agent": {"name": "A", "command": ["sh", "`+agent+`"]},
	  "questions": [`+strings.ReplaceAll(strings.Join(questions, ",\n"), "about refunds", "about a refund")+`]}`)
	url := testdb.SQLiteURL(t)
	run := func(e int64, args ...string) (int, string, string) {
		t.Helper()
		epoch.Store(e)
		cmd := exec.CommandContext(t.Context(), bin, append([]string{"--database-url", url, "run", suitePath,
			"--judge-base-url", srv.URL + "/v1", "--judge-model", "judge", "--gate", "ci", "--fail-on", "regressions"}, args...)...)
		cmd.Env = append(os.Environ(), "OPENAI_API_KEY=", "GITHUB_STEP_SUMMARY="+filepath.Join(dir, "summary.md"))
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		var exit *exec.ExitError
		if errors.As(err, &exit) {
			code = exit.ExitCode()
		} else if err != nil {
			t.Fatal(err)
		}
		return code, out.String(), errOut.String()
	}
	if code, out, stderr := run(1); code != exitOK {
		t.Fatalf("baseline: exit %d\n%s%s", code, out, stderr)
	}
	writeTestFile(t, broken, "")
	reports := map[string]string{"json": filepath.Join(dir, "r.json"), "junit": filepath.Join(dir, "r.xml"), "text": filepath.Join(dir, "r.txt")}
	code, out, stderr := run(2, "--report", reports["json"], "--report", reports["junit"], "--report", reports["text"], "--report", "github")
	if code != exitFailed {
		t.Fatalf("candidate: exit %d, want 1\n%s%s", code, out, stderr)
	}
	const slice = "slice failure_mode=refunds"
	checks := map[string]string{"stdout": out}
	for name, path := range reports {
		b, err := os.ReadFile(path)
		if err != nil {
			t.Fatal(err)
		}
		checks[name] = string(b)
	}
	for name, text := range checks {
		if !strings.Contains(text, slice) {
			t.Errorf("%s does not name %q:\n%s", name, slice, text)
		}
	}
	for _, want := range []string{"Localized: 10 questions in slice failure_mode=refunds regressed", "::error title=Slices / A%3A slice failure_mode=refunds regressed on semantic_accuracy::",
		"Regressed: 10 regressions, slice failure_mode=refunds regressed on semantic_accuracy, semantic_accuracy regressed overall (! fails the gate)"} {
		if !strings.Contains(out, want) {
			t.Errorf("stdout lacks %q:\n%s", want, out)
		}
	}
	if !strings.Contains(checks["json"], `"slice": "failure_mode=refunds"`) || !strings.Contains(checks["junit"], `name="slice.failure_mode=refunds.regressed"`) {
		t.Errorf("JSON or JUnit lacks the slice finding:\n%s\n%s", checks["json"], checks["junit"])
	}
}
