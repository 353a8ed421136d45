package main

import (
	"bytes"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// gracefulSuite writes a four-question suite whose agent answers at once,
// except "second": it touches started-second, then takes hold seconds.
func gracefulSuite(t *testing.T, hold string) (dir, suite string) {
	t.Helper()
	dir = t.TempDir()
	writeTestFile(t, filepath.Join(dir, "agent.sh"), `q=$(cat)
case "$q" in *second*) touch started-second; sleep `+hold+` ;; esac
echo ok
`)
	suite = filepath.Join(dir, "suite.json")
	writeTestFile(t, suite, `{"suite": "Graceful", "agent": {"name": "A", "command": ["sh", "agent.sh"]},
	  "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [{"id": "first", "question": "first", "expected_answer": "ok"},
	    {"id": "second", "question": "second", "expected_answer": "ok"},
	    {"id": "third", "question": "third", "expected_answer": "ok"},
	    {"id": "fourth", "question": "fourth", "expected_answer": "ok"}]}`)
	return dir, suite
}

// startAndSignal starts the real evalrun on suite and sends it SIGINT
// (count times, 200 ms apart) once "second" has started; it returns the
// exit code and the output.
func startAndSignal(t *testing.T, bin, dir string, count int, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "DATABASE_URL=")
	var out bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	deadline := time.Now().Add(30 * time.Second)
	for {
		if _, err := os.Stat(filepath.Join(dir, "started-second")); err == nil {
			break
		}
		if time.Now().After(deadline) {
			_ = cmd.Process.Kill()
			_ = cmd.Wait()
			t.Fatalf("the second question never started:\n%s", out.String())
		}
		time.Sleep(20 * time.Millisecond)
	}
	for i := range count {
		if i > 0 {
			time.Sleep(200 * time.Millisecond)
		}
		if err := cmd.Process.Signal(syscall.SIGINT); err != nil {
			t.Fatal(err)
		}
	}
	err := cmd.Wait()
	code := 0
	if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
		code = ee.ExitCode()
	} else if err != nil {
		t.Fatal(err)
	}
	return code, out.String()
}

var keptFileRe = regexp.MustCompile(`finished cases are in (\S+);`)

// TestBinary_InterruptKeepsFinishedCases: SIGINT while the second of four
// questions runs lets it finish, starts no other, exits 1 and writes the
// two finished cases to an evidence file; db:import keeps it as an
// interrupted run, which the next run does not take as its baseline. A
// second signal stops at once: only the first question is kept.
func TestBinary_InterruptKeepsFinishedCases(t *testing.T) {
	bin := buildBinary(t)
	url := migratedURL(t, "sqlite")

	dir, suite := gracefulSuite(t, "1")
	evidenceDir := filepath.Join(dir, "evidence")
	code, out := startAndSignal(t, bin, dir, 1, "--database-url", url, "run", suite, "-j", "1", "--evidence-dir", evidenceDir)
	m := keptFileRe.FindStringSubmatch(out)
	if code != exitFailed || m == nil || !strings.Contains(out, "2 of 4 cases finished, 2 unfinished") ||
		!strings.Contains(out, "no new questions") {
		t.Fatalf("exit %d, want 1 with two finished cases kept in a file:\n%s", code, out)
	}
	file := m[1]
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	if got := strings.Count(string(data), `"case_id"`); got != 2 || !strings.Contains(string(data), `"interrupted": {`) {
		t.Errorf("the evidence file holds %d cases, want 2, and an interrupted summary:\n%.1500s", got, data)
	}
	if got := countRuns(t, url); got != 0 {
		t.Errorf("%d runs saved by the interrupted run, want 0 (the file is the evidence)", got)
	}
	if code, out, errOut := evalrun(t, "--database-url", url, "db:import", file); code != exitOK {
		t.Fatalf("db:import of the interrupted run: exit %d\n%s%s", code, out, errOut)
	}
	if got := countRuns(t, url); got != 1 {
		t.Fatalf("%d runs after db:import, want 1", got)
	}
	if _, out, _ := evalrun(t, "--database-url", url, "history", "--json"); !strings.Contains(out, `"interrupted": true`) {
		t.Errorf("history does not mark the imported run as interrupted:\n%s", out)
	}
	// The next run finds no automatic baseline: the interrupted run is never one.
	writeTestFile(t, filepath.Join(dir, "agent.sh"), "cat >/dev/null; echo ok\n")
	code, out, _ = evalrun(t, "--database-url", url, "run", suite)
	if code != exitOK || !strings.Contains(out, "Baseline: none") {
		t.Errorf("the run after an interrupted one: exit %d, want 0 without a baseline:\n%s", code, out)
	}

	dir, suite = gracefulSuite(t, "20")
	evidenceDir = filepath.Join(dir, "evidence")
	start := time.Now()
	code, out = startAndSignal(t, bin, dir, 2, "--database-url", url, "run", suite, "-j", "1", "--evidence-dir", evidenceDir)
	if code != exitFailed || !strings.Contains(out, "1 of 4 cases finished, 3 unfinished") || keptFileRe.FindStringSubmatch(out) == nil {
		t.Fatalf("two signals: exit %d, want 1 with only the first case kept:\n%s", code, out)
	}
	if d := time.Since(start); d > 15*time.Second {
		t.Errorf("two signals did not stop at once: the run took %s against an agent holding 20 s", d)
	}
}
