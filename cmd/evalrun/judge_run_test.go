package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

// TestRunCmd_JudgeCache runs the opt-in example suite through the CLI with a
// local OpenAI-compatible judge, twice with one --judge-cache directory,
// and once with --no-judge: the second judged run is served from the cache
// and the summaries say so.
func TestRunCmd_JudgeCache(t *testing.T) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		io.Copy(io.Discard, r.Body)
		w.Header().Set("Content-Type", "application/json")
		io.WriteString(w, `{"id":"1","object":"chat.completion","model":"judge","choices":[{"index":0,`+
			`"message":{"role":"assistant","content":"{\"reason\":\"Same facts, polite.\",\"score\":0.97}"},"finish_reason":"stop"}],`+
			`"usage":{"prompt_tokens":200,"completion_tokens":25,"total_tokens":225}}`)
	}))
	defer srv.Close()
	t.Setenv("OPENAI_API_KEY", "")
	dir := t.TempDir()
	dbURL := "sqlite:" + filepath.Join(dir, "runs.sqlite3")
	st := filepath.Join("..", "..", "examples", "llm_judge", "suite.json")
	judged := []string{"--database-url", dbURL, "run", st, "--judge-base-url", srv.URL + "/v1",
		"--judge-model", "judge", "--judge-cache", filepath.Join(dir, "cache")}
	for i := range 2 {
		if code, out, stderr := evalrun(t, judged...); code != exitOK {
			t.Fatalf("judged run %d: exit %d\n%s%s", i+1, code, out, stderr)
		}
	}
	if code, out, stderr := evalrun(t, "--database-url", dbURL, "run", st, "--no-judge"); code != exitOK {
		t.Fatalf("--no-judge run: exit %d\n%s%s", code, out, stderr)
	}
	// 3 questions x 3 judge metrics, judged once; the second run hits the cache.
	if got := calls.Load(); got != 9 {
		t.Errorf("judge calls = %d, want 9", got)
	}
	db, err := (&Globals{DatabaseURL: dbURL}).open(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, _, err := db.ListRuns(context.Background(), models.RunFilter{})
	if err != nil || len(runs) != 3 {
		t.Fatalf("runs = %d, %v", len(runs), err)
	}
	var got []string
	for _, r := range runs { // newest first: --no-judge, cached, first
		var s map[string]any
		if err := r.Summary.Decode(&s); err != nil {
			t.Fatal(err)
		}
		cache, _ := json.Marshal(s["judge_cache"])
		usage, _ := s["judge_usage"].(map[string]any)
		judge, _ := json.Marshal(s["judge"])
		got = append(got, fmt.Sprintf("judge=%s cache=%s calls=%v cached=%v cost=%v", judge, cache, usage["calls"], usage["cached"], usage["cost"]))
	}
	want := []string{`judge=null cache=null calls=<nil> cached=<nil> cost=<nil>`,
		`judge={"model":"judge","provider":"openai"} cache={"hits":9,"misses":0} calls=0 cached=9 cost=0`,
		`judge={"model":"judge","provider":"openai"} cache={"hits":0,"misses":9} calls=9 cached=0 cost=<nil>`}
	if strings.Join(got, "; ") != strings.Join(want, "; ") {
		t.Errorf("summaries:\n got %s\nwant %s", strings.Join(got, "; "), strings.Join(want, "; "))
	}
	if runs[0].SuiteDigest == runs[1].SuiteDigest || runs[1].SuiteDigest != runs[2].SuiteDigest {
		t.Error("the --no-judge run shares the judged runs' fingerprint, or the judged runs differ")
	}
}
