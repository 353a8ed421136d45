package evaltest_test

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/schema"
)

// example is the package of examples/gotest.
const example = "./examples/gotest/..."

// goTest runs `go test` on the example package from the repository root;
// see goTestPackage.
func goTest(t *testing.T, env []string, args ...string) (string, bool) {
	t.Helper()
	return goTestPackage(t, example, env, args...)
}

// goTestPackage runs `go test -count=1 args pkg` from the repository root
// with env added to a copy of the environment from which every variable
// evaltest reads was removed. It returns the output and whether go test
// passed.
func goTestPackage(t *testing.T, pkg string, env []string, args ...string) (string, bool) {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to run go test as a subprocess (put the Go toolchain on PATH): %v", err)
	}
	cmd := exec.CommandContext(t.Context(), goBin, append(append([]string{"test", "-count=1"}, args...), pkg)...)
	cmd.Dir = repoRoot(t)
	return runCmd(t, cmd, env)
}

// repoRoot is the repository's root directory.
func repoRoot(t *testing.T) string {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	return root
}

// runCmd runs cmd with env added to a copy of the environment from which
// every variable evaltest reads was removed, and returns its output and
// whether it exited 0.
func runCmd(t *testing.T, cmd *exec.Cmd, env []string) (string, bool) {
	t.Helper()
	for _, kv := range os.Environ() {
		name, _, _ := strings.Cut(kv, "=")
		if strings.HasPrefix(name, "EVAL_") || strings.HasPrefix(name, "EVALTEST_") || name == "AGENT_REVISION" {
			continue
		}
		cmd.Env = append(cmd.Env, kv)
	}
	cmd.Env = append(cmd.Env, env...)
	out, err := cmd.CombinedOutput()
	var exit *exec.ExitError
	if err != nil && !errors.As(err, &exit) {
		t.Fatalf("%s: %v\n%s", cmd, err, out)
	}
	return string(out), err == nil
}

// wantAll fails t for every want that out lacks.
func wantAll(t *testing.T, what, out string, wants ...string) {
	t.Helper()
	for _, want := range wants {
		if !strings.Contains(out, want) {
			t.Errorf("%s: output lacks %q:\n%s", what, want, out)
		}
	}
}

// TestRun_exampleJSONAndSelection checks -json events per question and
// that -run asks only the selected question.
func TestRun_exampleJSONAndSelection(t *testing.T) {
	out, ok := goTest(t, []string{"AGENT_REVISION=regressed"}, "-json", "-run", "TestSupportSuite/warranty")
	if ok {
		t.Fatalf("go test passed:\n%s", out)
	}
	results := map[string]string{}
	sc := bufio.NewScanner(strings.NewReader(out))
	for sc.Scan() {
		var ev struct{ Action, Test string }
		if json.Unmarshal(sc.Bytes(), &ev) != nil {
			t.Fatalf("not a test2json event: %s", sc.Bytes())
		}
		if ev.Test != "" && (ev.Action == "pass" || ev.Action == "fail" || ev.Action == "skip") {
			results[ev.Test] = ev.Action
		}
	}
	want := map[string]string{"TestSupportSuite": "fail", "TestSupportSuite/warranty": "fail"}
	if len(results) != len(want) {
		t.Errorf("test results %v, want %v", results, want)
	}
	for k, v := range want {
		if results[k] != v {
			t.Errorf("%s: %q, want %q (all: %v)", k, results[k], v, results)
		}
	}
}

// TestRun_historyAndGate: with a database configured, go test runs are
// saved, each baselined by the one before it. The drifted revision passes
// every threshold; without the gate its drop is logged, under
// EVALTEST_FAIL_ON_REGRESSION the ci gate fails it.
func TestRun_historyAndGate(t *testing.T) {
	args := []string{"-v", "-run", "TestSupportSuite"}
	first := func(t *testing.T, db string) {
		out, ok := goTest(t, []string{db, "AGENT_REVISION=reference"}, args...)
		if !ok || !strings.Contains(out, "baseline: none (first run of this definition)") {
			t.Fatalf("first run (ok=%v):\n%s", ok, out)
		}
	}
	gated := func(t *testing.T, db string) {
		out, ok := goTest(t, []string{db, "AGENT_REVISION=drifted", "EVALTEST_FAIL_ON_REGRESSION=1"}, args...)
		if ok || !strings.Contains(out, "regression (metric_drop, fails the ci gate)") || !strings.Contains(out, "--- FAIL: TestSupportSuite ") {
			t.Fatalf("drifted run under the gate (ok=%v): want a failure naming the drop:\n%s", ok, out)
		}
	}
	t.Run("sqlite", func(t *testing.T) {
		u := testdb.SQLiteURL(t)
		db := "EVALTEST_DATABASE_URL=" + u
		first(t, db)
		out, ok := goTest(t, []string{db, "AGENT_REVISION=drifted"}, args...)
		if !ok || !strings.Contains(out, "regression (metric_drop; fails the ci gate under FailOnRegression)") {
			t.Fatalf("drifted run without the gate (ok=%v): want a pass that logs the gating drop:\n%s", ok, out)
		}
		if out, ok := goTest(t, []string{db, "AGENT_REVISION=reference"}, args...); !ok {
			t.Fatalf("reference run after the drift:\n%s", out)
		}
		gated(t, db)
		checkHistory(t, u, "Support (go test)", "TestSupportSuite", []int{1, 2, 3, -1})
	})
	t.Run("postgres", func(t *testing.T) {
		u := testdb.PostgresURL(t)
		migrateURL(t, u) // evaltest never creates tables in PostgreSQL
		db := "EVALTEST_DATABASE_URL=" + u
		first(t, db)
		gated(t, db)
		checkHistory(t, u, "Support (go test)", "TestSupportSuite", []int{1, -1})
	})
}

// migrateURL creates the evaluation tables (evalrun db:migrate).
func migrateURL(t *testing.T, u string) {
	t.Helper()
	db, err := models.Open(t.Context(), u, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := schema.Migrate(t.Context(), db); err != nil {
		t.Fatal(err)
	}
}

// checkHistory checks the runs of suite in the database at u, newest
// first: baselines[i] is the index in that order of run i's baseline, -1
// for none; every run's metadata names the test that saved it.
func checkHistory(t *testing.T, u, s, test string, baselines []int) {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := models.Open(ctx, u, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, _, err := db.ListRuns(ctx, models.RunFilter{Suite: s, Limit: 10})
	if err != nil {
		t.Fatal(err)
	}
	if len(runs) != len(baselines) {
		t.Fatalf("history holds %d runs, want %d", len(runs), len(baselines))
	}
	for i, want := range baselines {
		run, err := db.GetRun(ctx, runs[i].ID)
		if err != nil {
			t.Fatal(err)
		}
		base, err := compare.FindBaseline(ctx, db, run, nil)
		if err != nil {
			t.Fatal(err)
		}
		switch {
		case want < 0 && base != nil:
			t.Errorf("run %d (%s) has baseline %s, want none", i, run.ID, base.ID)
		case want >= 0 && (base == nil || base.ID != runs[want].ID):
			t.Errorf("run %d (%s) has baseline %v, want %s", i, run.ID, base, runs[want].ID)
		}
		var meta struct {
			GoTest string `json:"go_test"`
		}
		if err := json.Unmarshal(bytes.TrimSpace(run.Metadata), &meta); err != nil || meta.GoTest != test {
			t.Errorf("run %d metadata %s: want go_test %s", i, run.Metadata, test)
		}
	}
}
