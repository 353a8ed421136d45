package faults

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"syscall"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// countRuns is the number of runs stored in dbURL (with id, when given).
func countRuns(t *testing.T, dbURL, id string) int {
	t.Helper()
	db, err := models.Open(context.Background(), dbURL, models.OpenOptions{})
	if err != nil {
		t.Fatalf("open %s: %v", dbURL, err)
	}
	defer db.Close()
	q := db.NewSelect().Model((*models.Run)(nil))
	if id != "" {
		q = q.Where("id = ?", id)
	}
	n, err := q.Count(context.Background())
	if err != nil {
		t.Fatal(err)
	}
	return int(n)
}

// db:import of several files is all or nothing, and eight imports of one
// file at once on PostgreSQL all succeed with the run stored once (two of
// eight failed on the primary key in one round of five).
func TestInputs_ImportIsAtomicAndConcurrentSafe(t *testing.T) {
	db := postgres(t)
	dir, d := baseEvidence(t, "ok")
	a := d.write(t, dir, "a.json")
	other := d.clone(t)
	other.renew()
	b := other.write(t, dir, "b.json")
	broken := other.clone(t)
	broken.caseRow(1)["duration_ms"] = -1.0
	bad := broken.write(t, dir, "bad.json")

	if r := evalrun(t, dir, "--database-url", db, "db:import", a, bad); r.code != 2 || countRuns(t, db, "") != 0 {
		t.Fatalf("db:import a.json bad.json: exit %d with %d runs stored, want 2 and none:\n%s", r.code, countRuns(t, db, ""), r.stderr)
	}
	if r := evalrun(t, dir, "--database-url", db, "db:import", a, b); r.code != 0 || countRuns(t, db, "") != 2 {
		t.Fatalf("db:import a.json b.json: exit %d with %d runs stored, want 0 and 2:\n%s", r.code, countRuns(t, db, ""), r.stderr)
	}

	for round := range 5 {
		c := d.clone(t)
		rid := c.renew()
		path := c.write(t, dir, "parallel.json")
		var wg sync.WaitGroup
		results := make([]result, 8)
		for i := range results {
			wg.Add(1)
			go func() {
				defer wg.Done()
				results[i] = evalrun(t, dir, "--database-url", db, "db:import", path)
			}()
		}
		wg.Wait()
		for i, r := range results {
			if r.code != 0 {
				t.Errorf("round %d, import %d of 8: exit %d: %s", round+1, i+1, r.code, r.stderr)
			}
		}
		if n := countRuns(t, db, rid); n != 1 {
			t.Errorf("round %d: the run is stored %d times", round+1, n)
		}
	}
}

// Merging shards with hostile counts is a clear refusal (exit 2), never a
// panic (2^62 shards: makeslice: len out of range) or an allocation that
// runs out of memory (1e9).
func TestInputs_MergeRefusesHostileCounts(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"agent.sh":   "cat >/dev/null; echo ok",
		"suite.json": suiteJSON(`{"name": "A", "command": ["sh", "agent.sh"]}`, 2),
	})
	for i := 1; i <= 2; i++ {
		if r := evalrun(t, dir, "run", "suite.json", "--shard", string(rune('0'+i))+"/2", "--save-to", "s"+string(rune('0'+i))+".json"); r.code != 0 {
			t.Fatalf("shard %d: exit %d: %s", i, r.code, r.stderr)
		}
	}
	db := "sqlite:" + filepath.Join(dir, "db.sqlite3")
	raw, _ := os.ReadFile(filepath.Join(dir, "s1.json"))
	for _, tc := range []struct{ name, from, to, want string }{
		{"2^62 shards", `"count": 2`, `"count": 4611686018427387904`, "count <= 10000"},
		{"1e9 shards", `"count": 2`, `"count": 1000000000`, "count <= 10000"},
		{"concurrency 1e300", `"concurrency": 1`, `"concurrency": 1e300`, "want a whole number"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if !strings.Contains(string(raw), tc.from) {
				t.Fatalf("%q not in the shard file:\n%s", tc.from, raw)
			}
			writeFile(t, filepath.Join(dir, "hostile.json"), strings.Replace(string(raw), tc.from, tc.to, 1))
			r := evalrun(t, dir, "--database-url", db, "db:import", "--merge", "hostile.json", "s2.json")
			if r.code != 2 || !strings.Contains(r.stderr, tc.want) || strings.Contains(r.stderr, "panic") {
				t.Errorf("exit %d, want 2 naming %q:\n%s", r.code, tc.want, r.stderr)
			}
		})
	}
	if r := evalrun(t, dir, "--database-url", db, "db:import", "--merge", "s1.json", "s2.json"); r.code != 0 {
		t.Errorf("the real shards: exit %d: %s", r.code, r.stderr)
	}
}

// A run dated in the future does not hijack the gate: the import of one
// dated 9999 is refused, and a run with a future date that reached the
// database anyway is never "the latest" that report --fail-on-regression
// gates, so a real regression still exits 1.
func TestInputs_FutureRunDoesNotHijackTheGate(t *testing.T) {
	db := postgres(t)
	dir := writeFiles(t, map[string]string{
		"agent.sh":   "cat >/dev/null; cat answer",
		"answer":     "ok",
		"suite.json": suiteJSON(`{"name": "A", "command": ["sh", "agent.sh"]}`, 2),
	})
	if r := evalrun(t, dir, "--database-url", db, "run", "suite.json", "--save-to", "good.json"); r.code != 0 {
		t.Fatalf("good run: exit %d: %s", r.code, r.stderr)
	}
	if r := evalrun(t, dir, "--database-url", db, "db:import", "good.json"); r.code != 0 {
		t.Fatalf("import: exit %d: %s", r.code, r.stderr)
	}
	writeFile(t, filepath.Join(dir, "answer"), "no")
	if r := evalrun(t, dir, "--database-url", db, "run", "suite.json"); r.code != 1 {
		t.Fatalf("regressed run: exit %d, want 1: %s", r.code, r.stderr)
	}

	good := readEvidence(t, filepath.Join(dir, "good.json"))
	good.renew()
	good.run()["started_at"], good.run()["finished_at"] = "9999-01-01T00:00:00Z", "9999-01-01T00:00:01Z"
	good.write(t, dir, "forged.json")
	if r := evalrun(t, dir, "--database-url", db, "db:import", "forged.json"); r.code != 2 || !strings.Contains(r.stderr, "outside the accepted window") {
		t.Errorf("import of a run dated 9999: exit %d, want 2 saying the window:\n%s", r.code, r.stderr)
	}

	// A future run stored by another writer (or an older evalrun).
	m, err := models.Open(context.Background(), db, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer m.Close()
	future := &models.Run{Suite: "Faults", Agent: "A", Version: "1", SuiteDigest: "forged", Status: models.RunStatusCompleted,
		StartedAt: time.Date(9999, 1, 1, 0, 0, 0, 0, time.UTC), FinishedAt: time.Date(9999, 1, 1, 0, 0, 1, 0, time.UTC),
		Metadata: models.JSON(`{}`), Summary: models.JSON(`{}`)}
	if err := m.InsertRun(context.Background(), future); err != nil {
		t.Fatal(err)
	}
	r := evalrun(t, dir, "--database-url", db, "report", "--fail-on-regression")
	if r.code != 1 || strings.Contains(r.stdout+r.stderr, future.ID.String()) {
		t.Errorf("report --fail-on-regression with a run dated 9999 stored: exit %d, want 1 for the real regressed run:\n%s%s", r.code, r.stdout, r.stderr)
	}
}

// SIGKILL during the save leaves an evidence file that db:import accepts,
// and the run is stored exactly once; when the save did commit, importing
// the file written ahead of it inserts nothing.
func TestInputs_SIGKILLDuringSaveLeavesAnImportableFile(t *testing.T) {
	db := postgres(t)
	dir := writeFiles(t, map[string]string{
		"agent.sh":   "cat >/dev/null; echo ok",
		"suite.json": suiteJSON(`{"name": "A", "command": ["sh", "agent.sh"]}`, 3),
	})
	for _, kill := range []bool{true, false} {
		evDir := filepath.Join(dir, "evidence-"+map[bool]string{true: "killed", false: "committed"}[kill])
		unlock := lockRuns(t, db)
		cmd := evalrunCmd(dir, "--database-url", db, "run", "suite.json", "--evidence-dir", evDir, "--save-wait", "5m")
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = cmd.Process.Kill(); _ = cmd.Wait() })
		file := waitForFile(t, evDir)
		time.Sleep(300 * time.Millisecond) // in the save, blocked on the lock
		copyPath := filepath.Join(dir, "copy.json")
		b, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		writeFile(t, copyPath, string(b))
		id := strings.TrimSuffix(filepath.Base(file), ".json")
		if kill {
			_ = cmd.Process.Signal(syscall.SIGKILL)
			_ = cmd.Wait()
			unlock()
			if _, err := os.Stat(file); err != nil {
				t.Fatalf("after SIGKILL the evidence file is gone: %v", err)
			}
			if n := countRuns(t, db, id); n != 0 {
				t.Fatalf("the killed save stored the run %d times", n)
			}
			if r := evalrun(t, dir, "--database-url", db, "db:import", file); r.code != 0 || !strings.Contains(r.stdout, "Imported") {
				t.Errorf("db:import of the file left by SIGKILL: exit %d: %s%s", r.code, r.stdout, r.stderr)
			}
		} else {
			unlock()
			if err := cmd.Wait(); err != nil {
				t.Fatalf("run after the lock was released: %v", err)
			}
			if _, err := os.Stat(file); !os.IsNotExist(err) {
				t.Errorf("the evidence file is still there after the save committed (%v)", err)
			}
		}
		if r := evalrun(t, dir, "--database-url", db, "db:import", copyPath); r.code != 0 || !strings.Contains(r.stdout, "already") {
			t.Errorf("import of the file again (kill=%v): exit %d, want 0 and 'already': %s%s", kill, r.code, r.stdout, r.stderr)
		}
		if n := countRuns(t, db, id); n != 1 {
			t.Errorf("kill=%v: the run is stored %d times, want once", kill, n)
		}
	}
}

// lockRuns holds an exclusive lock on the runs table until the returned
// func is called: reads go on (the baseline lookup), a save blocks.
func lockRuns(t *testing.T, dbURL string) func() {
	t.Helper()
	ctx := context.Background()
	db, err := models.Open(ctx, dbURL, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	tx, err := db.DB.BeginTx(ctx, nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := tx.ExecContext(ctx, "LOCK TABLE ruby_llm_evaluations_runs IN EXCLUSIVE MODE"); err != nil {
		t.Fatal(err)
	}
	var once sync.Once
	release := func() {
		once.Do(func() {
			_ = tx.Rollback()
			db.Close()
		})
	}
	t.Cleanup(release)
	return release
}

// waitForFile waits for the one .json file evalrun writes into dir.
func waitForFile(t *testing.T, dir string) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for time.Now().Before(deadline) {
		if m, _ := filepath.Glob(filepath.Join(dir, "*.json")); len(m) == 1 {
			return m[0]
		}
		time.Sleep(20 * time.Millisecond)
	}
	t.Fatalf("no evidence file appeared in %s", dir)
	return ""
}

// A suite whose agent program is missing fails validate, naming the
// suite and the program; run's preflight error names the suite file.
func TestInputs_MissingProgramFailsValidate(t *testing.T) {
	dir := writeFiles(t, map[string]string{
		"suite.json": suiteJSON(`{"name": "A", "command": ["./agent-that-is-not-there.sh"]}`, 1),
	})
	v := evalrun(t, dir, "validate", "suite.json")
	if v.code != 2 || !strings.Contains(v.stderr, "suite.json") || !strings.Contains(v.stderr, "agent-that-is-not-there.sh") {
		t.Errorf("validate: exit %d, want 2 naming the suite and the program:\n%s%s", v.code, v.stdout, v.stderr)
	}
	r := evalrun(t, dir, "--database-url", "sqlite:"+filepath.Join(dir, "db.sqlite3"), "run", "suite.json")
	if r.code != 2 || !strings.Contains(r.stderr, "suite.json") || !strings.Contains(r.stderr, "preflight") {
		t.Errorf("run: exit %d, want 2 with a preflight error naming suite.json:\n%s", r.code, r.stderr)
	}
}
