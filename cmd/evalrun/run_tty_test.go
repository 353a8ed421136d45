package main

import (
	"bytes"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/creack/pty"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// whySuite has a passing question, a failed check, a metric error, an
// agent error and a long list of metrics that must wrap at 80 columns.
const whySuite = `{"suite": "Why", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
  "evaluators": {"no_apology": {"type": "not_contains", "params": {"value": "sorry"}}},
  "defaults": ["no_apology"],
  "questions": [
    {"id": "capital", "question": "capital", "checks": [{"type": "contains", "value": "Paris"}, {"type": "max_words", "limit": 20},
      {"type": "min_length", "limit": 3}, {"type": "valid_json", "name": "json", "threshold": 0}]},
    {"id": "boiling", "question": "boiling", "checks": [{"type": "contains", "value": "100"}]},
    {"id": "cost", "question": "cost", "checks": [{"type": "max_cost", "limit": 0.01}]},
    {"id": "crash", "question": "crash", "checks": [{"type": "contains", "value": "x"}]}
  ]}`

const whyAgent = `input=$(cat)
case "$input" in
  *'"id":"capital"'*) echo "Paris is the capital of France." ;;
  *'"id":"boiling"'*) printf 'Water boils at 212 \033[31m°F\033[0m at sea level.' ;;
  *'"id":"cost"'*) echo "cheap" ;;
  *) echo "the model is down" >&2; exit 3 ;;
esac
`

// ttyRun runs evalrun with stdout and stderr on two pseudo-terminals of
// 80x24 and returns what each showed (CRLF turned back into LF).
func ttyRun(t *testing.T, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	return ttyRunCols(t, 80, args...)
}

// ttyRunCols is ttyRun on terminals of cols columns.
func ttyRunCols(t *testing.T, cols uint16, args ...string) (code int, stdout, stderr string) {
	t.Helper()
	open := func() (master, tty *os.File, out *bytes.Buffer, done chan struct{}) {
		master, tty, err := pty.Open()
		if err != nil {
			t.Fatalf("open a pseudo-terminal: %v", err)
		}
		if err := pty.Setsize(master, &pty.Winsize{Rows: 24, Cols: cols}); err != nil {
			t.Fatal(err)
		}
		out, done = &bytes.Buffer{}, make(chan struct{})
		go func() {
			defer close(done)
			_, _ = io.Copy(out, master) // ends with EIO once the tty side is closed
		}()
		return master, tty, out, done
	}
	om, otty, obuf, odone := open()
	em, etty, ebuf, edone := open()
	code = run(args, otty, etty)
	otty.Close()
	etty.Close()
	<-odone
	<-edone
	om.Close()
	em.Close()
	return code, strings.ReplaceAll(obuf.String(), "\r\n", "\n"), strings.ReplaceAll(ebuf.String(), "\r\n", "\n")
}

var (
	runIDRE    = regexp.MustCompile(`run [0-9a-f-]{36} saved to \S+`)
	durationRE = regexp.MustCompile(`Time: [0-9.]+m?s|\([0-9]+ ms\)|elapsed [0-9.a-zµ]+(, ETA [0-9.a-zµ]+)?`)
	// barTailRE is the end of a progress bar's line, the case cut to the
	// terminal's width: where the cut falls depends on how long the
	// elapsed time and the ETA before it were.
	barTailRE = regexp.MustCompile("(DURATION · )[^\r\n\x1b]*\r")
)

// normalize replaces what changes between runs: the run id, the database
// path and durations.
func normalize(s string) string {
	s = runIDRE.ReplaceAllString(s, "run RUN_ID saved to DB")
	s = durationRE.ReplaceAllString(s, "DURATION")
	return barTailRE.ReplaceAllString(s, "${1}CASE\r")
}

// checkGolden compares got with testdata/name (rewritten with -update).
func checkGolden(t *testing.T, name, got string) {
	t.Helper()
	path := filepath.Join("testdata", name)
	if *updateGolden {
		if err := os.WriteFile(path, []byte(got), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("%v (run: go test ./cmd/evalrun -run %s -update)", err, t.Name())
	}
	if got != string(want) {
		t.Errorf("%s differs (go test ./cmd/evalrun -run %s -update rewrites it)\ngot:\n%s\nwant:\n%s", path, t.Name(), got, want)
	}
}

// TestRunCmd_TerminalGolden runs a suite through pseudo-terminals: in
// colour with a progress bar, in CI mode (CI=true: plain progress lines),
// and with NO_COLOR (no escape sequences in the table). Every failed or
// errored check shows its reason under its row, sanitized, and rows fit
// 80 columns.
func TestRunCmd_TerminalGolden(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "agent.sh"), whyAgent)
	s := filepath.Join(dir, "suite.json")
	writeTestFile(t, s, whySuite)
	tests := []struct {
		name, ci, noColor string
	}{
		{"tty", "", ""},
		{"ci", "true", ""},
		{"nocolor", "", "1"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			t.Setenv("CI", tt.ci)
			t.Setenv("NO_COLOR", tt.noColor)
			t.Setenv("TERM", "xterm")
			code, stdout, stderr := ttyRun(t, "--database-url", testdb.SQLiteURL(t), "run", s, "-j", "1")
			if code != exitFailed {
				t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
			}
			for _, line := range strings.Split(stdout, "\n") {
				if w := displayWidth(stripANSI(line)); w > 79 && !strings.HasPrefix(line, "Suite ") && !strings.HasPrefix(line, "Passing ") {
					t.Errorf("line of %d columns on an 80-column terminal: %q", w, line)
				}
			}
			if strings.Contains(stripANSI(stdout), "\x1b") || strings.Contains(stdout, "\x07") {
				t.Errorf("an escape sequence from the agent reached the terminal: %q", stdout)
			}
			checkGolden(t, "run_"+tt.name+".stdout.golden", normalize(stdout))
			checkGolden(t, "run_"+tt.name+".stderr.golden", normalize(stderr))
		})
	}
}

// TestRunCmd_CILogGolden is the same run as a CI log sees it: stdout and
// stderr are pipes and CI=true, so no colour, no wrapping, plain progress
// lines, and each reason whole on one line.
func TestRunCmd_CILogGolden(t *testing.T) {
	dir := t.TempDir()
	writeTestFile(t, filepath.Join(dir, "agent.sh"), whyAgent)
	s := filepath.Join(dir, "suite.json")
	writeTestFile(t, s, whySuite)
	t.Setenv("CI", "true")
	code, stdout, stderr := evalrun(t, "--database-url", testdb.SQLiteURL(t), "run", s, "-j", "1")
	if code != exitFailed {
		t.Fatalf("exit %d, want 1\n%s%s", code, stdout, stderr)
	}
	if strings.Contains(stdout+stderr, "\x1b") {
		t.Errorf("escape sequences in a CI log: %q", stdout+stderr)
	}
	checkGolden(t, "run_cilog.stdout.golden", normalize(stdout))
	checkGolden(t, "run_cilog.stderr.golden", normalize(stderr))
}

var ansiRE = regexp.MustCompile(`\x1b\[[0-9;]*m|\r\x1b\[K`)

// stripANSI removes the colours and line clears evalrun itself writes.
func stripANSI(s string) string { return ansiRE.ReplaceAllString(s, "") }

// TestRunCmd_ContextBloatSaysWhy runs the context_bloat example's
// regressed revision: run's output names the oversized tool result, as the
// example's README promises.
func TestRunCmd_ContextBloatSaysWhy(t *testing.T) {
	t.Setenv("AGENT_REVISION", "regressed")
	code, stdout, stderr := evalrun(t, "--database-url", testdb.SQLiteURL(t), "run", filepath.Join("..", "..", "examples", "context_bloat", "suite.json"))
	if code != exitFailed {
		t.Fatalf("exit %d, want 1 (python3 is needed: apt-get install -y python3)\n%s%s", code, stdout, stderr)
	}
	if want := "  -> tool_budget FAIL: largest tool result 536513 bytes exceeds the 4096-byte budget"; !strings.Contains(stdout, want) {
		t.Errorf("output lacks %q:\n%s", want, stdout)
	}
}
