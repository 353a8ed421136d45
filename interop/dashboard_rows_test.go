package interop_test

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/dashboard"
	"github.com/agentevals-go/agentevals/models"
)

// dashboard serves evaldash over the env's schema, read-only.
func (e *env) dashboard(t *testing.T) *httptest.Server {
	t.Helper()
	ro, err := models.Open(context.Background(), e.goURL, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ro.Close() })
	s, err := dashboard.New(dashboard.Config{DB: ro, MountPath: "/evaluations"})
	if err != nil {
		t.Fatal(err)
	}
	ts := httptest.NewServer(s)
	t.Cleanup(ts.Close)
	return ts
}

// get fetches a page and returns its status and body.
func get(t *testing.T, url string) (int, string) {
	t.Helper()
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	return resp.StatusCode, string(b)
}

// at is a fixed time for runs written in a test, as Ruby's iso8601(6).
func at(d time.Duration) string {
	return time.Date(2026, 10, 1, 9, 0, 0, 0, time.UTC).Add(d).Format("2006-01-02T15:04:05.000000Z")
}

// goCopy saves, as the Go runner would (its writer marker, its own
// digest), a run with the definition of the Ruby run id, started at when.
func (e *env) goCopy(t *testing.T, id string, when time.Time) *models.Run {
	t.Helper()
	ctx := context.Background()
	r, err := e.db.GetRun(ctx, uuid.MustParse(id))
	if err != nil {
		t.Fatal(err)
	}
	r.ID, r.Sequence, r.SuiteDigest = uuid.Nil, 0, "go-"+id[:8]
	r.Summary = models.JSON(`{"writer":"agentevals-go"}`)
	r.StartedAt, r.FinishedAt = when, when.Add(time.Second)
	for _, c := range r.Cases {
		c.ID = 0
		for _, m := range c.Metrics {
			m.ID, m.CaseResultID = 0, 0
		}
	}
	if err := e.db.InsertRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	return r
}

// Row 2: an equivalent run written by ActiveRecord is the baseline of a Go
// run even behind 600 newer non-equivalent runs (the old search read 500).
func TestRubyBaselineBehindManyRuns(t *testing.T) {
	e := newEnv(t)
	e.ruby(t, "schema", "gem")
	want := parseDump(t, e.ruby(t, "write", fixturePath, "0", at(0))).Runs[0]["id"].(string)
	e.ruby(t, "write-versions", fixturePath, "0", "600", at(time.Minute))
	run := e.goCopy(t, want, time.Date(2026, 10, 2, 9, 0, 0, 0, time.UTC))
	got, err := compare.FindBaseline(context.Background(), e.db, run, nil)
	if err != nil {
		t.Fatal(err)
	}
	if got == nil || got.ID.String() != want {
		t.Fatalf("baseline behind 600 newer Ruby runs of other versions = %v, want the equivalent Ruby run %s", got, want)
	}
}

// Row 6: evalrun compare shows an errored (NULL) metric score of two
// ActiveRecord-written runs as "—", as the dashboard does.
func TestCompareShowsErroredScoreAsDash(t *testing.T) {
	e := newEnv(t)
	e.ruby(t, "schema", "gem")
	a := parseDump(t, e.ruby(t, "write", fixturePath, "0", at(0))).Runs[0]["id"].(string)
	b := parseDump(t, e.ruby(t, "write", fixturePath, "0", at(time.Hour))).Runs[0]["id"].(string)
	out := e.mustEvalrun(t, "compare", a, b)
	var line string
	for _, l := range strings.Split(out, "\n") {
		if strings.Contains(l, "answer_relevancy") && strings.Contains(l, "->") {
			line = l
		}
	}
	if !strings.Contains(line, "— -> —") || strings.Contains(line, "0.000") {
		t.Errorf("errored answer_relevancy in compare = %q, want — -> —\n%s", line, out)
	}
}

// Row 7: evaldash over 0.1-era tables written by ActiveRecord names the
// missing column and evalrun db:migrate on /healthz and on its pages.
func TestDashboardExplainsOldSchema(t *testing.T) {
	e := newEnv(t)
	e.ruby(t, "schema", "gem-0.1")
	e.ruby(t, "write", fixturePath)
	ts := e.dashboard(t)
	want := "missing columns case_results.minimum_scores; run `evalrun db:migrate`"
	for _, p := range []string{"/healthz", "/evaluations/"} {
		code, body := get(t, ts.URL+p)
		if code != http.StatusServiceUnavailable || !strings.Contains(body, want) {
			t.Errorf("GET %s: %d, want 503 naming %q\n%.400s", p, code, want, body)
		}
	}
	e.mustEvalrun(t, "db:migrate")
	if code, body := get(t, ts.URL+"/healthz"); code != http.StatusOK {
		t.Errorf("GET /healthz after db:migrate: %d %s", code, body)
	}
}

// Row 8: values as ActiveRecord writes them render right: a nil question
// as "(none)", the gem's empty replay evidence as an empty replay, and a
// 100 KB reason without spaces inside a wrapping table cell, its first
// 64 KiB shown and marked cut.
func TestDashboardRendersRubyValues(t *testing.T) {
	e := newEnv(t)
	e.ruby(t, "schema", "gem")
	var f map[string]any
	b, err := os.ReadFile(fixturePath)
	if err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(b, &f); err != nil {
		t.Fatal(err)
	}
	run := f["runs"].([]any)[0].(map[string]any)
	c := run["cases"].([]any)[0].(map[string]any)
	c["question"] = nil
	c["response_metadata"] = map[string]any{"api_replay": map[string]any{"interactions": []any{}}}
	long := strings.Repeat("y", 100_000)
	c["metrics"].([]any)[0].(map[string]any)["reason"] = long
	path := filepath.Join(t.TempDir(), "runs.json")
	if err := os.WriteFile(path, mustJSON(t, f), 0o644); err != nil {
		t.Fatal(err)
	}
	id := parseDump(t, e.ruby(t, "write", path, "0")).Runs[0]["id"].(string)
	ts := e.dashboard(t)
	code, body := get(t, ts.URL+"/evaluations/runs/"+id+"/cases/0")
	if code != http.StatusOK {
		t.Fatalf("case page: %d", code)
	}
	for _, want := range []string{`<pre class="text-block question">(none)</pre>`, "API replay: empty", long[:64<<10] + " […]"} {
		if !strings.Contains(body, want) {
			t.Errorf("case page lacks %.80q", want)
		}
	}
	if strings.Contains(body, "unknown shape") {
		t.Errorf("the gem's empty replay evidence is shown as an unknown shape")
	}
}

// Row 10: for a run written by ActiveRecord the dashboard's baseline is
// the newest equivalent run (here a Go run), and the page also names the
// run the gem's own Run#previous picks, which ActiveRecord confirms.
func TestDashboardNamesGemBaseline(t *testing.T) {
	e := newEnv(t)
	e.ruby(t, "schema", "gem")
	older := parseDump(t, e.ruby(t, "write", fixturePath, "0", at(0))).Runs[0]["id"].(string)
	goRun := e.goCopy(t, older, time.Date(2026, 10, 1, 10, 0, 0, 0, time.UTC))
	newer := parseDump(t, e.ruby(t, "write", fixturePath, "0", at(2*time.Hour))).Runs[0]
	if newer["previous_id"] != older {
		t.Fatalf("Ruby's Run#previous of the newer run = %v, want %s", newer["previous_id"], older)
	}
	ts := e.dashboard(t)
	code, body := get(t, ts.URL+"/evaluations/runs/"+newer["id"].(string))
	if code != http.StatusOK {
		t.Fatalf("run page: %d", code)
	}
	if !strings.Contains(body, `class="baseline-link" href="/evaluations/runs/`+goRun.ID.String()) {
		t.Errorf("the run page's baseline is not the equivalent Go run %s", goRun.ID)
	}
	if !strings.Contains(body, `class="gem-baseline-link" href="/evaluations/runs/`+older) {
		t.Errorf("the run page does not name the gem's Run#previous %s", older)
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
