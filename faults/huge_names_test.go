package faults

import (
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"
)

// TestSuite_HugeUnknownCheckTypeRefusedQuickly: a check whose type is 5 MB
// of letters is refused (exit 2) naming the field, without a "did you
// mean" computed over the whole value (that took 32 s) and without
// echoing it: the message shows its first bytes and its size.
func TestSuite_HugeUnknownCheckTypeRefusedQuickly(t *testing.T) {
	huge := strings.Repeat("containz", 5<<20/8)
	dir := writeFiles(t, map[string]string{
		"suite.json": `{"suite": "Huge", "agent": {"name": "A", "command": ["true"]},
		  "questions": [{"id": "q1", "question": "q", "expected_answer": "a",
		    "checks": [{"type": "` + huge + `", "value": "x"}]}]}`,
	})
	r := evalrun(t, dir, "validate", "suite.json")
	t.Logf("refused in %s", r.elapsed)
	if r.code != 2 || !strings.Contains(r.stderr, "unknown check type \"containzcontainz") || !strings.Contains(r.stderr, "(5242880 bytes)") {
		t.Errorf("exit %d, stderr %.400q; want exit 2 naming the unknown type by its first bytes and its size", r.code, r.stderr)
	}
	if len(r.stdout)+len(r.stderr) > 16<<10 {
		t.Errorf("the output is %d bytes: the 5 MB type was echoed", len(r.stdout)+len(r.stderr))
	}
}

// TestImport_PassedWithErrorDetailsSaysSo: an evidence file whose metric
// passed with a score of 1 and error details is refused for its error
// details, not as "passed without a score".
func TestImport_PassedWithErrorDetailsSaysSo(t *testing.T) {
	dir, doc := baseEvidence(t, "ok")
	m := doc.metricRow(0)
	m["passed"], m["score"], m["error_details"] = true, 1, map[string]any{"message": "judge timed out"}
	doc.write(t, dir, "errored.json")
	r := evalrun(t, dir, "--database-url", "sqlite:"+filepath.Join(dir, "db.sqlite3"), "db:import", "errored.json")
	if r.code != 2 || !strings.Contains(r.stderr, "passed with error_details") || strings.Contains(r.stderr, "without a score") {
		t.Errorf("exit %d, stderr %q; want exit 2 saying it passed with error_details", r.code, r.stderr)
	}
}

// TestSignal_SIGTERMStopsEvalrunBlockedOnStdout: with its standard output
// a pipe that nobody reads, evalrun blocks writing the 111 KB schema; a
// SIGTERM still ends it (the write is abandoned after a short grace)
// instead of being caught and ignored while the write waits for ever.
func TestSignal_SIGTERMStopsEvalrunBlockedOnStdout(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close() // open and never read: writes block once the pipe is full
	cmd := exec.Command(evalrunBin, "schema")
	cmd.Stdout, cmd.Stderr = w, io.Discard
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	w.Close()
	exited := make(chan error, 1)
	go func() { exited <- cmd.Wait() }()
	select {
	case err := <-exited:
		t.Fatalf("evalrun schema ended before the signal (%v): the pipe did not fill", err)
	case <-time.After(time.Second):
	}
	start := time.Now()
	if err := cmd.Process.Signal(syscall.SIGTERM); err != nil {
		t.Fatal(err)
	}
	select {
	case <-exited:
		t.Logf("ended %s after SIGTERM", time.Since(start).Round(time.Millisecond))
	case <-time.After(30 * time.Second):
		cmd.Process.Kill()
		<-exited
		t.Fatal("evalrun was still running 30 s after SIGTERM, blocked on its standard output")
	}
}
