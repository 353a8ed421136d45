package main

import (
	"bytes"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/runner"
)

// syncBuffer is a bytes.Buffer safe for the batch's timer goroutine.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// TestProgress_PlainLinesInBatches: off a terminal the progress lines
// reach stderr in batches, every one of them and in order by the time
// Finished returns (before anything else is printed).
func TestProgress_PlainLinesInBatches(t *testing.T) {
	var stderr syncBuffer
	var e eval.Exec
	showProgress(&Globals{Stderr: &stderr}, &e, 3, nil)
	e.Started()
	var want strings.Builder
	for i, id := range []string{"a", "b", "c"} {
		e.Progress(runner.Progress{Done: i + 1, Total: 3, Case: &models.CaseResult{CaseID: id, Status: models.StatusPassed, DurationMS: 5}})
		fmt.Fprintf(&want, "[%d/3] passed        %s (5 ms) · elapsed \n", i+1, id)
	}
	e.Finished()
	// The elapsed time and ETA vary; everything else is fixed.
	got := regexp.MustCompile(`elapsed [0-9.a-zµ]+(, ETA [0-9.a-zµ]+)?`).ReplaceAllString(stderr.String(), "elapsed ")
	if got != want.String() {
		t.Errorf("stderr after Finished = %q, want %q", got, want.String())
	}
}

// TestLineBatch: lines wait for flush or for the interval, whichever comes
// first, and are written whole and in order.
func TestLineBatch(t *testing.T) {
	var held syncBuffer
	b := &lineBatch{w: &held, every: time.Hour}
	fmt.Fprint(b, "one\n")
	fmt.Fprint(b, "two\n")
	if got := held.String(); got != "" {
		t.Errorf("before the interval and the flush: %q written", got)
	}
	b.flush()
	b.flush()
	if got := held.String(); got != "one\ntwo\n" {
		t.Errorf("after flush: %q, want both lines once", got)
	}

	var timed syncBuffer
	b = &lineBatch{w: &timed, every: time.Millisecond}
	fmt.Fprint(b, "three\n")
	for stop := time.Now().Add(10 * time.Second); timed.String() == "" && time.Now().Before(stop); {
		time.Sleep(time.Millisecond)
	}
	fmt.Fprint(b, "four\n")
	b.flush()
	if got := timed.String(); got != "three\nfour\n" {
		t.Errorf("after the interval and a flush: %q, want both lines", got)
	}
}

// TestRunTable_FailuresFirstPassesCollapsed: in a long run the failed
// questions open the table and the passed ones are counted on one line,
// so the summary stays on the screen; a short run lists every question,
// failures first.
func TestRunTable_FailuresFirstPassesCollapsed(t *testing.T) {
	qs := make([]string, 0, 45)
	for i := range 45 {
		want := "ok"
		if i == 30 || i == 44 {
			want = "nope"
		}
		qs = append(qs, fmt.Sprintf(`{"id": "q%02d", "question": "q", "checks": [{"type": "contains", "value": %q}]}`, i, want))
	}
	dir := t.TempDir()
	suitePath := filepath.Join(dir, "suite.json")
	os.WriteFile(suitePath, []byte(`{"suite": "Long", "agent": {"name": "A", "command": ["sh", "-c", "cat >/dev/null; echo ok"]},
	  "questions": [`+strings.Join(qs, ",")+`]}`), 0o644)
	url := testdb.SQLiteURL(t)
	code, out, stderr := evalrun(t, "--database-url", url, "run", suitePath)
	if code != exitFailed {
		t.Fatalf("exit %d\n%s%s", code, out, stderr)
	}
	_, table, _ := strings.Cut(out, "METRICS\n")
	lines := strings.Split(table, "\n")
	if !strings.HasPrefix(lines[0], "q30 ") || !strings.HasPrefix(lines[2], "q44 ") {
		t.Errorf("the failed questions do not open the table:\n%s", out)
	}
	if strings.Contains(out, "\nq00 ") || !strings.Contains(out, "43 questions passed, not listed") {
		t.Errorf("the passed questions are listed, or not counted:\n%s", out)
	}
	if !strings.Contains(stderr, "2 failed · elapsed") {
		t.Errorf("the progress lines do not count the failures:\n%s", stderr)
	}
}
