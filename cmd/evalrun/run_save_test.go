package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/evidence"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// writeSlowSuite writes a suite of n questions whose command agent marks
// that it started (a file in dir) and answers "yes" after a pause.
func writeSlowSuite(t *testing.T, dir string, n int) (s, marker string) {
	t.Helper()
	marker = filepath.Join(dir, "agent-started")
	var qs []string
	for i := range n {
		qs = append(qs, fmt.Sprintf(`{"id":"q%d","question":"Question %d?","expected_answer":"yes","minimum_scores":{"exact":1}}`, i, i))
	}
	doc := fmt.Sprintf(`{"suite":"Durable","version":"1",
 "agent":{"name":"Slow","command":["sh","-c","cat >/dev/null; touch %s; sleep 0.3; printf yes"]},
 "evaluators":{"exact":{"type":"exact_match"}},
 "questions":[%s]}`, marker, strings.Join(qs, ","))
	s = filepath.Join(dir, "suite.json")
	if err := os.WriteFile(s, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return s, marker
}

// runResult is how an evalrun that ran in the background ended.
type runResult struct {
	code        int
	out, errOut string
}

// evalrunAsync runs the command line in the background.
func evalrunAsync(t *testing.T, args ...string) <-chan runResult {
	done := make(chan runResult, 1)
	go func() {
		code, out, errOut := evalrun(t, args...)
		done <- runResult{code, out, errOut}
	}()
	return done
}

// waitForAgent waits until the agent of writeSlowSuite has started.
func waitForAgent(t *testing.T, marker string) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); ; time.Sleep(10 * time.Millisecond) {
		if _, err := os.Stat(marker); err == nil {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the agent never started")
		}
	}
}

// getRun reads one run with its cases and metrics.
func getRun(t *testing.T, url, id string) *models.Run {
	t.Helper()
	db, err := models.Open(context.Background(), url, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	run, err := db.GetRun(context.Background(), uuid.MustParse(id))
	if err != nil {
		t.Fatal(err)
	}
	return run
}

// withoutTiming returns a copy of run's evidence with what differs between
// two executions of the same suite blanked: ids, times, durations and the
// summary's duration_ms and concurrency.
func withoutTiming(t *testing.T, run *models.Run) *models.Run {
	t.Helper()
	cp := *run
	cp.ID, cp.StartedAt, cp.FinishedAt = uuid.Nil, time.Time{}, time.Time{}
	var sum map[string]any
	if err := run.Summary.Decode(&sum); err != nil {
		t.Fatal(err)
	}
	delete(sum, "duration_ms")
	delete(sum, "concurrency")
	delete(sum, "gate") // the recorded decision depends on the history the run met
	cp.Summary = models.MustJSON(sum)
	cp.Cases = nil
	for _, c := range run.Cases {
		cc := *c
		cc.RunID, cc.DurationMS = uuid.Nil, 0
		cp.Cases = append(cp.Cases, &cc)
	}
	return &cp
}

// TestRun_DatabaseStoppedWhileCasesRun stops a dedicated PostgreSQL server
// in immediate mode while cases are running: the run still finishes, its
// reports are written, its evidence file is written and the exit code is 3;
// after the restart db:import restores exactly the evidence, which holds
// the same cases and metrics as an uninterrupted run, and a second import
// inserts nothing.
func TestRun_DatabaseStoppedWhileCasesRun(t *testing.T) {
	srv := testdb.StartDedicated(t)
	dir := t.TempDir()
	s, marker := writeSlowSuite(t, dir, 6)
	db := []string{"--database-url", srv.URL}
	if code, out, errOut := evalrun(t, append(db, "db:migrate")...); code != exitOK {
		t.Fatalf("db:migrate: exit %d\n%s%s", code, out, errOut)
	}
	if code, out, errOut := evalrun(t, append(db, "run", s, "-j", "3")...); code != exitOK {
		t.Fatalf("uninterrupted run: exit %d\n%s%s", code, out, errOut)
	}
	uninterrupted := getRun(t, srv.URL, latestRunID(t, srv.URL))
	if err := os.Remove(marker); err != nil {
		t.Fatal(err)
	}

	evDir, html, junit := filepath.Join(dir, "evidence"), filepath.Join(dir, "report.html"), filepath.Join(dir, "junit.xml")
	done := evalrunAsync(t, append(db, "--save-wait", "1s", "run", s, "-j", "2",
		"--evidence-dir", evDir, "--report", html, "--junit", junit)...)
	waitForAgent(t, marker)
	srv.StopImmediate()
	res := <-done
	if res.code != exitNotSaved {
		t.Fatalf("exit %d, want %d (not saved)\n%s%s", res.code, exitNotSaved, res.out, res.errOut)
	}
	if lines := strings.Split(strings.TrimSpace(res.out), "\n"); !strings.HasPrefix(lines[len(lines)-1], "exit 3: the run was NOT saved") {
		t.Errorf("the rule line must say the code the process exits with (3), got %q", lines[len(lines)-1])
	}
	files, _ := filepath.Glob(filepath.Join(evDir, "*.json"))
	if len(files) != 1 {
		t.Fatalf("evidence files %v, want one\n%s", files, res.errOut)
	}
	for _, want := range []string{"NOT saved", "save attempt 1 failed", "evalrun --database-url " + shellQuote(srv.URL) + " db:import " + files[0]} {
		if !strings.Contains(res.errOut, want) {
			t.Errorf("stderr lacks %q:\n%s", want, res.errOut)
		}
	}
	for _, p := range []string{html, junit} {
		if st, err := os.Stat(p); err != nil || st.Size() == 0 {
			t.Errorf("report %s not written: %v", p, err)
		}
	}

	srv.Start()
	code, out, errOut := evalrun(t, append(db, "db:import", files[0])...)
	if code != exitOK || !strings.Contains(out, "Imported run") {
		t.Fatalf("db:import: exit %d\n%s%s", code, out, errOut)
	}
	file, err := evidence.Read(files[0])
	if err != nil {
		t.Fatal(err)
	}
	imported := getRun(t, srv.URL, file.Run.ID.String())
	if same, diff := evidence.Equal(imported, file.Run); !same {
		t.Errorf("imported run differs from its evidence file: %s", diff)
	}
	if same, diff := evidence.Equal(withoutTiming(t, imported), withoutTiming(t, uninterrupted)); !same {
		t.Errorf("imported run differs from an uninterrupted run: %s", diff)
	}
	code, out, errOut = evalrun(t, append(db, "db:import", files[0])...)
	if code != exitOK || !strings.Contains(out, "nothing inserted") {
		t.Errorf("second db:import: exit %d\n%s%s", code, out, errOut)
	}
	if got, want := countRuns(t, srv.URL), 2; got != want {
		t.Errorf("%d runs saved, want %d", got, want)
	}
}

// TestRun_SilentDatabase points evalrun at a server that accepts the
// connection and never answers: it must end with a clear error within the
// connect timeout instead of hanging.
func TestRun_SilentDatabase(t *testing.T) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	go func() {
		for {
			conn, err := l.Accept()
			if err != nil {
				return
			}
			defer conn.Close() // held open, never answered
		}
	}()
	s, _ := writeSlowSuite(t, t.TempDir(), 1)
	url := "postgres://evalrun@" + l.Addr().String() + "/db?sslmode=disable"
	start := time.Now()
	code, out, errOut := evalrun(t, "--database-url", url, "--connect-timeout", "1s", "run", s)
	elapsed := time.Since(start)
	if code != exitInvalid {
		t.Errorf("exit %d, want %d\n%s%s", code, exitInvalid, out, errOut)
	}
	if want := "did not answer within the connect timeout of 1s"; !strings.Contains(errOut, want) {
		t.Errorf("stderr lacks %q:\n%s", want, errOut)
	}
	t.Logf("gave up after %s (connect timeout 1s)", elapsed.Round(time.Millisecond))
}

// TestRun_SaveFlags covers --save-to, --no-save and the refused
// combinations.
func TestRun_SaveFlags(t *testing.T) {
	dir := t.TempDir()
	s, _ := writeSlowSuite(t, dir, 2)
	dbURL := "sqlite:" + filepath.Join(dir, "db.sqlite3")
	t.Setenv("DATABASE_URL", dbURL)
	for _, tc := range []struct {
		name   string
		args   []string
		code   int
		stdout string
		stderr string
	}{
		{"save-to and no-save", []string{"--save-to", "x.json", "--no-save"}, exitInvalid, "", "choose one"},
		{"shard without save-to", []string{"--shard", "1/2"}, exitInvalid, "", "needs --save-to"},
		{"bad shard", []string{"--shard", "3/2", "--save-to", "x.json"}, exitInvalid, "", "want I/N with 1 <= I <= N"},
		{"alpha without database", []string{"--save-to", filepath.Join(dir, "a.json"), "--alpha", "0"}, exitInvalid, "", "--alpha 0: want a significance level"},
		{"save-to a directory", []string{"--save-to", dir}, exitInvalid, "", "is a directory; want a file path such as"},
		{"save-to under a file", []string{"--save-to", filepath.Join(s, "run.json")}, exitInvalid, "", "cannot write there"},
		{"baseline without database", []string{"--no-save", "--baseline", uuid.NewString()}, exitInvalid, "", "--baseline needs the database"},
		{"dry run", []string{"--no-save", "--report", filepath.Join(dir, "dry.json")}, exitOK, "not saved (--no-save: dry run)", ""},
		{"save to a file", []string{"--save-to", filepath.Join(dir, "out", "run.json")}, exitOK, "(not to a database)", ""},
	} {
		t.Run(tc.name, func(t *testing.T) {
			code, out, errOut := evalrun(t, append([]string{"run", s}, tc.args...)...)
			if code != tc.code || !strings.Contains(out, tc.stdout) || !strings.Contains(errOut, tc.stderr) {
				t.Errorf("exit %d (want %d), want stdout %q and stderr %q:\n%s%s", code, tc.code, tc.stdout, tc.stderr, out, errOut)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "db.sqlite3")); err == nil {
		t.Error("--no-save or --save-to created the database")
	}
	if _, err := os.Stat(filepath.Join(dir, "dry.json")); err != nil {
		t.Errorf("--no-save did not write the report: %v", err)
	}
	f, err := evidence.Read(filepath.Join(dir, "out", "run.json"))
	if err != nil {
		t.Fatal(err)
	}
	if got, want := len(f.Run.Cases), 2; got != want {
		t.Errorf("evidence holds %d cases, want %d", got, want)
	}
	b, _ := json.Marshal(f.Definition)
	t.Logf("definition %s", b)
	code, out, errOut := evalrun(t, "--database-url", "postgres://evalrun@127.0.0.1:1/db?sslmode=disable", "--connect-timeout", "1s",
		"db:import", filepath.Join(dir, "out", "run.json"))
	if code != exitFailed || !strings.Contains(errOut, "nothing was imported; the files are valid") {
		t.Errorf("db:import into an unreachable database: exit %d, want 1\n%s%s", code, out, errOut)
	}
}
