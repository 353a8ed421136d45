package faults

import (
	"bytes"
	"context"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// evalrunBin is the evalrun binary built once for the package's tests.
var evalrunBin string

func TestMain(m *testing.M) {
	dir, err := os.MkdirTemp("", "faults-evalrun-")
	if err != nil {
		panic(err)
	}
	evalrunBin = filepath.Join(dir, "evalrun")
	build := exec.Command("go", "build", "-o", evalrunBin, "github.com/agentevals-go/agentevals/cmd/evalrun")
	if out, err := build.CombinedOutput(); err != nil {
		os.Stderr.Write(out)
		os.Stderr.WriteString("faults: go build github.com/agentevals-go/agentevals/cmd/evalrun failed: " + err.Error() + "\n")
		os.Exit(2)
	}
	code := m.Run()
	os.RemoveAll(dir)
	os.Exit(code)
}

// result is one evalrun invocation.
type result struct {
	code           int
	stdout, stderr string
	peakRSSKB      int64
	elapsed        time.Duration
}

// evalrun runs the binary with args in dir and waits for it.
func evalrun(t *testing.T, dir string, args ...string) result {
	t.Helper()
	cmd := exec.Command(evalrunBin, args...)
	cmd.Dir = dir
	cmd.Env = append(os.Environ(), "NO_COLOR=1")
	var out, errb bytes.Buffer
	cmd.Stdout, cmd.Stderr = &out, &errb
	start := time.Now()
	err := cmd.Run()
	r := result{stdout: out.String(), stderr: errb.String(), elapsed: time.Since(start)}
	if cmd.ProcessState == nil {
		t.Fatalf("evalrun %v: %v", args, err)
	}
	r.code = cmd.ProcessState.ExitCode()
	if ru, ok := cmd.ProcessState.SysUsage().(*syscall.Rusage); ok {
		r.peakRSSKB = ru.Maxrss
	}
	return r
}

// postgres returns a database URL of a fresh schema on the shared test
// server, migrated.
func postgres(t *testing.T) string {
	t.Helper()
	u := testdb.PostgresURL(t)
	if r := evalrun(t, t.TempDir(), "--database-url", u, "db:migrate"); r.code != 0 {
		t.Fatalf("db:migrate: exit %d: %s", r.code, r.stderr)
	}
	return u
}

// writeFiles writes name -> content into a new directory.
func writeFiles(t *testing.T, files map[string]string) string {
	t.Helper()
	dir := t.TempDir()
	for name, content := range files {
		if err := os.WriteFile(filepath.Join(dir, name), []byte(content), 0o755); err != nil {
			t.Fatal(err)
		}
	}
	return dir
}

// dumpTables returns every row of the three evaluation tables as JSON text.
func dumpTables(t *testing.T, dbURL string) string {
	t.Helper()
	db, err := models.Open(context.Background(), dbURL, models.OpenOptions{})
	if err != nil {
		t.Fatalf("open %s: %v", dbURL, err)
	}
	defer db.Close()
	var b strings.Builder
	for _, table := range []string{"ruby_llm_evaluations_runs", "ruby_llm_evaluations_case_results", "ruby_llm_evaluations_metric_results"} {
		rows, err := db.DB.QueryContext(context.Background(), "SELECT row_to_json(t)::text FROM "+table+" t")
		if err != nil {
			t.Fatalf("dump %s: %v", table, err)
		}
		for rows.Next() {
			var s string
			if err := rows.Scan(&s); err != nil {
				t.Fatal(err)
			}
			b.WriteString(s)
			b.WriteByte('\n')
		}
		rows.Close()
	}
	return b.String()
}

// reportFormats are every format `evalrun report` writes.
var reportFormats = []string{"text", "markdown", "html", "json", "junit", "github"}

// allReports renders the latest run in every format.
func allReports(t *testing.T, dbURL string) map[string]string {
	t.Helper()
	out := map[string]string{}
	dir := t.TempDir()
	for _, f := range reportFormats {
		r := evalrun(t, dir, "--database-url", dbURL, "report", "--format", f)
		if r.code == 2 {
			t.Fatalf("report --format %s: exit 2: %s", f, r.stderr)
		}
		out["report "+f] = r.stdout + r.stderr
	}
	return out
}

// assertNoSecrets fails for every planted secret found in any document.
func assertNoSecrets(t *testing.T, docs map[string]string, secrets ...string) {
	t.Helper()
	for name, doc := range docs {
		for _, s := range secrets {
			if strings.Contains(doc, s) {
				i := strings.Index(doc, s)
				t.Errorf("%s leaks %q: …%s…", name, s, doc[max(0, i-80):min(len(doc), i+len(s)+40)])
			}
		}
	}
}

// alive reports whether process pid exists and is not a zombie.
func alive(pid int) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return false
	}
	i := bytes.LastIndexByte(b, ')')
	return i < 0 || i+2 >= len(b) || b[i+2] != 'Z'
}

// readPids reads the pids an agent appended to a file, one per line.
func readPids(t *testing.T, path string) []int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var pids []int
	for _, f := range strings.Fields(string(b)) {
		if n, err := strconv.Atoi(f); err == nil {
			pids = append(pids, n)
		}
	}
	return pids
}

// assertAllGone waits briefly (SIGKILL is asynchronous) and fails for every
// pid still running; survivors are killed so the machine stays clean.
func assertAllGone(t *testing.T, pids []int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for _, pid := range pids {
		for alive(pid) && time.Now().Before(deadline) {
			time.Sleep(20 * time.Millisecond)
		}
		if alive(pid) {
			t.Errorf("process %d outlived the run", pid)
			_ = syscall.Kill(pid, syscall.SIGKILL)
		}
	}
}

// execCmd is exec.Cmd, named for the one test that starts evalrun without waiting.
type execCmd = exec.Cmd

func newExecCmd(name string, args ...string) *execCmd { return exec.Command(name, args...) }
