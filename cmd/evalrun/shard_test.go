package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/evidence"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// writeHTTPSuite writes a suite of n questions answered by an HTTP agent
// that gets every third question wrong, so runs mix passed and failed
// cases.
func writeHTTPSuite(t *testing.T, dir string, n int) string {
	t.Helper()
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q struct {
			ID string `json:"id"`
		}
		if err := json.NewDecoder(r.Body).Decode(&q); err != nil {
			http.Error(w, err.Error(), http.StatusBadRequest)
			return
		}
		var i int
		fmt.Sscanf(q.ID, "q%d", &i)
		answer := fmt.Sprintf("answer %d", i)
		if i%3 == 0 {
			answer = "something else"
		}
		json.NewEncoder(w).Encode(map[string]any{"output": answer, "input_tokens": i, "output_tokens": 2, "cost": 0.001})
	}))
	t.Cleanup(srv.Close)
	var qs []string
	for i := range n {
		qs = append(qs, fmt.Sprintf(`{"id":"q%d","question":"Question %d?","expected_answer":"answer %d","minimum_scores":{"exact":1,"has":0.5},"metadata":{"n":%d}}`, i, i, i, i))
	}
	doc := fmt.Sprintf(`{"suite":"Sharded","version":"1","agent":{"name":"HTTP","url":%q},
 "evaluators":{"exact":{"type":"exact_match"},"has":{"type":"contains","params":{"value":"answer"}}},
 "questions":[%s]}`, srv.URL, strings.Join(qs, ","))
	path := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(path, []byte(doc), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// TestRun_ShardsMergeIntoTheUnshardedRun runs a 400-question suite whole,
// then as 4 shards merged by db:import --merge: the merged run holds
// field for field what the unsharded run stores (ids, times and durations
// aside), has its digest, and is baselined by it.
func TestRun_ShardsMergeIntoTheUnshardedRun(t *testing.T) {
	dir := t.TempDir()
	s := writeHTTPSuite(t, dir, 400)
	url := testdb.PostgresURL(t)
	db := []string{"--database-url", url}
	if code, out, errOut := evalrun(t, append(db, "db:migrate")...); code != exitOK {
		t.Fatalf("db:migrate: exit %d\n%s%s", code, out, errOut)
	}
	if code, _, errOut := evalrun(t, append(db, "run", s, "-j", "8")...); code != exitFailed {
		t.Fatalf("unsharded run: exit %d, want %d (a third of the answers are wrong)\n%s", code, exitFailed, errOut)
	}
	unsharded := getRun(t, url, latestRunID(t, url))

	var shards []string
	for i := 1; i <= 4; i++ {
		p := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		shards = append(shards, p)
		code, out, errOut := evalrun(t, append(db, "run", s, "-j", "8", "--shard", fmt.Sprintf("%d/4", i), "--save-to", p)...)
		if code != exitFailed || !strings.Contains(out, "(not to a database)") {
			t.Fatalf("shard %d: exit %d\n%s%s", i, code, out, errOut)
		}
		f, err := evidence.Read(p)
		if err != nil {
			t.Fatal(err)
		}
		if got, want := len(f.Run.Cases), 100; got != want {
			t.Errorf("shard %d holds %d questions, want %d", i, got, want)
		}
	}
	if got, want := countRuns(t, url), 1; got != want {
		t.Fatalf("%d runs after the shards, want %d (shards never touch the database)", got, want)
	}
	code, out, errOut := evalrun(t, append(append(db, "db:import", "--merge"), shards[2], shards[0], shards[3], shards[1])...)
	if code != exitOK {
		t.Fatalf("db:import --merge: exit %d\n%s%s", code, out, errOut)
	}
	merged := getRun(t, url, latestRunID(t, url))
	if merged.ID == unsharded.ID {
		t.Fatal("the newest run is still the unsharded one")
	}
	if merged.SuiteDigest != unsharded.SuiteDigest {
		t.Errorf("merged digest %s, unsharded %s", merged.SuiteDigest, unsharded.SuiteDigest)
	}
	if same, diff := evidence.Equal(withoutTiming(t, merged), withoutTiming(t, unsharded)); !same {
		t.Errorf("merged run differs from the unsharded run: %s", diff)
	}

	code, out, errOut = evalrun(t, append(db, "report", "--fail-on-regression")...)
	if code != exitFailed || !strings.Contains(out, "Baseline  "+unsharded.ID.String()) || !strings.Contains(out, "no regression") {
		t.Errorf("report: exit %d (want 1: failed checks, no regression), want the unsharded run as baseline\n%s%s", code, out, errOut)
	}
	code, out, _ = evalrun(t, append(append(db, "db:import", "--merge"), shards...)...)
	if code != exitOK || !strings.Contains(out, "nothing inserted") {
		t.Errorf("merging the same shards again: exit %d\n%s", code, out)
	}
}

// TestImport_RefusesBadShardSets checks that missing, duplicated and
// mismatched shards are refused with exit 2 and nothing is written.
func TestImport_RefusesBadShardSets(t *testing.T) {
	dir := t.TempDir()
	s := writeHTTPSuite(t, dir, 10)
	url := "sqlite:" + filepath.Join(dir, "db.sqlite3")
	shard := func(spec, meta string) string {
		p := filepath.Join(dir, strings.ReplaceAll(spec, "/", "of")+meta+".json")
		args := []string{"run", s, "--shard", spec, "--save-to", p}
		if meta != "" {
			args = append(args, "--metadata", `{"job":"`+meta+`"}`)
		}
		if code, out, errOut := evalrun(t, args...); code != exitOK && code != exitFailed {
			t.Fatalf("shard %s: exit %d\n%s%s", spec, code, out, errOut)
		}
		return p
	}
	s1, s2, s3 := shard("1/3", ""), shard("2/3", ""), shard("3/3", "")
	other := shard("3/3", "x")
	half := shard("1/2", "")
	for _, tc := range []struct {
		name  string
		files []string
		want  string
	}{
		{"missing", []string{s1, s2}, "missing shard(s) 3 of 3"},
		{"duplicated", []string{s1, s2, s3, s3}, "duplicated shard"},
		{"other count", []string{s1, s2, half}, "shard of 2"},
		{"other metadata", []string{s1, s2, other}, "mismatched shards"},
		{"shard without merge", nil, "import all 3 shards together with --merge"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			args := append([]string{"--database-url", url, "db:import", "--merge"}, tc.files...)
			if tc.files == nil {
				args = []string{"--database-url", url, "db:import", s1}
			}
			code, out, errOut := evalrun(t, args...)
			if code != exitInvalid || !strings.Contains(errOut, tc.want) {
				t.Errorf("exit %d (want 2), want stderr %q\n%s%s", code, tc.want, out, errOut)
			}
		})
	}
	if _, err := os.Stat(filepath.Join(dir, "db.sqlite3")); err == nil {
		t.Error("a refused import created the database")
	}
}
