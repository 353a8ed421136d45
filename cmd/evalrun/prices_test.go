package main

import (
	"context"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

// TestRunCmd_Prices: a judge on a local server has an unknown cost until
// the user's price file names its model; then the run's judge cost is
// what the file's prices make of the tokens the server reported. A bad
// price file is an exit-2 error naming it.
func TestRunCmd_Prices(t *testing.T) {
	srv, _, file := pricedJudge(t)
	dir := t.TempDir()
	dbURL := "sqlite:" + filepath.Join(dir, "runs.sqlite3")
	st := filepath.Join("..", "..", "examples", "llm_judge", "suite.json")
	args := []string{"--database-url", dbURL, "run", st, "--judge-base-url", srv.URL + "/v1", "--judge-model", "judge", "--prices", file}
	if code, out, stderr := evalrun(t, args...); code != exitOK {
		t.Fatalf("run: exit %d\n%s%s", code, out, stderr)
	}
	db, err := (&Globals{DatabaseURL: dbURL}).open(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, _, err := db.ListRuns(context.Background(), models.RunFilter{})
	if err != nil || len(runs) != 1 {
		t.Fatalf("runs = %d, %v", len(runs), err)
	}
	var s struct {
		JudgeUsage struct {
			Calls int      `json:"calls"`
			Cost  *float64 `json:"cost"`
		} `json:"judge_usage"`
	}
	if err := runs[0].Summary.Decode(&s); err != nil {
		t.Fatal(err)
	}
	want := float64(s.JudgeUsage.Calls) * (200*1.5 + 25*6) / 1e6
	if s.JudgeUsage.Calls != 9 || s.JudgeUsage.Cost == nil || math.Abs(*s.JudgeUsage.Cost-want) > 1e-12 {
		t.Errorf("judge usage: %d calls, cost %v; want 9 calls costing %v", s.JudgeUsage.Calls, s.JudgeUsage.Cost, want)
	}

	if err := os.WriteFile(file, []byte(`{"prices": [{"model": "judge"}]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := evalrun(t, args...)
	if code != exitInvalid || !strings.Contains(stderr, "--prices") || !strings.Contains(stderr, "prices.json: $.prices[0]") {
		t.Errorf("bad price file: exit %d, stderr %q; want exit 2 naming the flag, the file and the entry", code, stderr)
	}
}
