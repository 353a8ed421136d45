package main

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/creack/pty"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// labelRun saves a run of 20 questions, each with a judge metric
// (semantic_accuracy, minimum 0.7) that passes on q01..q12, and a
// deterministic check that passes everywhere.
func labelRun(t *testing.T) (url, id string) {
	t.Helper()
	url = testdb.SQLiteURL(t)
	if code, _, stderr := evalrun(t, "--database-url", url, "db:migrate"); code != exitOK {
		t.Fatalf("db:migrate: %s", stderr)
	}
	db, err := models.Open(context.Background(), url, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var cases []runfixture.Case
	for i := 1; i <= 20; i++ {
		s := 0.95
		if i > 12 {
			s = 0.2
		}
		cases = append(cases, runfixture.Case{ID: fmt.Sprintf("q%02d", i), Question: fmt.Sprintf("Question %d?", i), Expected: "Yes.",
			Output: fmt.Sprintf("Answer \x1b[31m%d\x1b[0m", i), Metrics: []runfixture.Metric{
				runfixture.NewMetric("semantic_accuracy", 0.7, runfixture.Score(s)), runfixture.NewMetric("contains", 1, runfixture.Score(1))}})
	}
	run := runfixture.Build("33333333-3333-4333-8333-333333333333", 1, time.Date(2026, 11, 30, 9, 0, 0, 0, time.UTC), cases...)
	for _, c := range run.Cases {
		c.ResponseMetadata = models.JSON(`{"metric_details":{"semantic_accuracy":{"judge":{"provider":"openai","model":"judge"}}}}`)
	}
	return url, runfixture.SaveRun(t, db, run).ID.String()
}

// humanPass is the person's verdict: pass on q01..q10, q13 and q14.
func humanPass(caseID string) bool {
	var n int
	fmt.Sscanf(caseID, "q%d", &n)
	return n <= 10 || n == 13 || n == 14
}

// TestLabelCmd_Terminal labels 20 cases through a pseudo-terminal, as a
// person would, then calibrates against the file it wrote. By hand: the
// judge passes q01..q12; the person passes q01..q10, q13, q14. Agreement
// 16/20 = 0.8; chance 0.6·0.6 + 0.4·0.4 = 0.52; kappa 0.28/0.48 = 0.583;
// TPR 10/12 = 0.833; TNR 6/8 = 0.750.
func TestLabelCmd_Terminal(t *testing.T) {
	url, id := labelRun(t)
	dir := t.TempDir()
	suitePath := filepath.Join(dir, "support.json")
	master, tty, err := pty.Open()
	if err != nil {
		t.Fatalf("open a pseudo-terminal: %v", err)
	}
	defer master.Close()
	stdin := os.Stdin
	os.Stdin = tty
	t.Cleanup(func() { os.Stdin = stdin })

	var mu sync.Mutex
	var screen bytes.Buffer
	drained := make(chan struct{})
	go func() {
		defer close(drained)
		buf := make([]byte, 4096)
		for {
			n, err := master.Read(buf)
			mu.Lock()
			screen.Write(buf[:n])
			mu.Unlock()
			if err != nil {
				return
			}
		}
	}()
	done := make(chan int)
	go func() {
		done <- run([]string{"--database-url", url, "label", id, "--suite", suitePath, "--rater", "ana", "--limit", "25"}, tty, tty)
	}()

	header := regexp.MustCompile(`\[(\d+)/20\] (q\d\d) · semantic_accuracy`)
	for n := 1; n <= 20; n++ {
		var caseID string
		deadline := time.Now().Add(20 * time.Second)
		for caseID == "" {
			mu.Lock()
			s := screen.String()
			mu.Unlock()
			if ms := header.FindAllStringSubmatch(s, -1); len(ms) == n && strings.HasSuffix(strings.TrimRight(s, " "), "[q]uit:") {
				caseID = ms[n-1][2]
			}
			if time.Now().After(deadline) {
				t.Fatalf("case %d never asked:\n%s", n, s)
			}
			time.Sleep(5 * time.Millisecond)
		}
		key := "f"
		if humanPass(caseID) {
			key = "p"
		}
		if n == 3 {
			io.WriteString(master, "maybe\r") // not a key: asked again
		}
		io.WriteString(master, key+"\r")
		io.WriteString(master, "checked "+caseID+"\r")
	}
	var code int
	select {
	case code = <-done:
	case <-time.After(20 * time.Second):
		t.Fatal("label did not finish")
	}
	tty.Close()
	select { // everything written is read before the screen is checked
	case <-drained:
	case <-time.After(10 * time.Second):
		t.Fatal("the pseudo-terminal was not drained")
	}
	mu.Lock()
	shown := screen.String()
	mu.Unlock()
	if code != exitOK || !strings.Contains(shown, "20 labelled, appended to ") || !strings.Contains(shown, "type one of p, f, s, q") {
		t.Fatalf("exit %d:\n%s", code, shown)
	}
	if strings.Contains(shown, "\x1b[31m") {
		t.Error("an answer's terminal escape reached the terminal")
	}
	labels := filepath.Join(dir, "support.labels.jsonl")
	data, err := os.ReadFile(labels)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(data)), "\n")
	if len(lines) != 21 || lines[0] != `{"format":"agentevals-labels","version":1}` || !strings.Contains(lines[1], `"rater":"ana"`) || !strings.Contains(lines[1], `"at":"`) {
		t.Fatalf("labels file: %d lines:\n%s", len(lines), data)
	}

	code, out, stderr := evalrun(t, "--database-url", url, "calibrate", id, "--labels", labels)
	if want := "semantic_accuracy  20      16     0.800          0.583 [0.13, 0.90]            0.833  0.750  0"; code != exitOK || !strings.Contains(out, want) {
		t.Errorf("calibrate: exit %d, lacks %q\n%s%s", code, want, out, stderr)
	}
	// A second session has nothing left to ask.
	code, out, _ = evalrun(t, "--database-url", url, "label", id, "--labels", labels)
	if code != exitOK || !strings.Contains(out, "Nothing to label") {
		t.Errorf("second session: exit %d\n%s", code, out)
	}
}

// TestLabelCmd_Export writes the cases to a file: by default a random
// sample for calibration, saying how many more exist; with --queue review
// the cases worth a second look, judge disagreements first. Once filled
// in, calibrate reads the file as it is, and unfilled rows are left out.
func TestLabelCmd_Export(t *testing.T) {
	url, id := labelRun(t)
	file := filepath.Join(t.TempDir(), "todo.jsonl")
	sample := filepath.Join(t.TempDir(), "sample.jsonl")
	code, out, stderr := evalrun(t, "--database-url", url, "label", id, "--export", sample, "--limit", "5")
	if code != exitOK || !strings.Contains(out, "wrote 5 cases") || !strings.Contains(out, "15 more cases in the calibrate queue") {
		t.Fatalf("export of the calibrate sample: exit %d, want 5 cases and 15 more\n%s%s", code, out, stderr)
	}
	if b, _ := os.ReadFile(sample); strings.Count(string(b), `"why":"random sample for calibration"`) != 5 {
		t.Errorf("the default queue is not the calibration sample:\n%s", b)
	}
	code, out, stderr = evalrun(t, "--database-url", url, "label", id, "--export", file, "--limit", "20", "--queue", "review")
	if code != exitOK || !strings.Contains(out, "wrote 8 cases") {
		t.Fatalf("export: exit %d\n%s%s", code, out, stderr)
	}
	data, err := os.ReadFile(file)
	if err != nil {
		t.Fatal(err)
	}
	rows := strings.Split(strings.TrimSpace(string(data)), "\n")
	if !strings.Contains(rows[0], `"case_id":"q13"`) || !strings.Contains(rows[0], `"why":"judge and deterministic check disagree"`) {
		t.Errorf("first row is not a disagreement: %s", rows[0])
	}
	// Fill in all but the last row.
	for i, r := range rows[:len(rows)-1] {
		l := `"fail"`
		if humanPass(regexp.MustCompile(`q\d\d`).FindString(r)) {
			l = `"pass"`
		}
		rows[i] = strings.Replace(r, `"label":null`, `"label":`+l, 1)
	}
	if err := os.WriteFile(file, []byte(strings.Join(rows, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = evalrun(t, "--database-url", url, "calibrate", id, "--labels", file)
	// The review queue holds the 8 verdicts that contradict the check, 7
	// of them labelled: their kappa (0) is not the judge's (0.583 over all
	// 20, TestLabelCmd_Terminal), which is why calibration samples.
	if code != exitOK || !strings.Contains(out, "semantic_accuracy  7       5      0.714          0.000") {
		t.Errorf("calibrate the exported file: exit %d\n%s%s", code, out, stderr)
	}
	if code, _, stderr := evalrun(t, "--database-url", url, "label", id, "--export", file); code != exitInvalid || !strings.Contains(stderr, "--export") {
		t.Errorf("export over an existing file: exit %d %s", code, stderr)
	}
}
