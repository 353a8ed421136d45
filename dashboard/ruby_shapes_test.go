package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// TestServer_RubyShapes shows values as the Ruby gem writes them: a nil
// question (SQL NULL) as "(none)", the gem's empty replay evidence
// {"interactions":[]} as an empty replay, and a 100 KB reason without
// spaces in a table cell that may wrap anywhere, its first 64 KiB shown.
func TestServer_RubyShapes(t *testing.T) {
	rw, ro := MustOpenDBs(t, "postgres")
	long := strings.Repeat("x", 100_000)
	run := &models.Run{Suite: "Ruby shapes", Agent: "RubyAgent", Version: "1", SuiteDigest: "ruby",
		StartedAt: t0, FinishedAt: t0.Add(time.Second), Metadata: models.JSON(`{}`), Summary: models.JSON(`{}`)}
	run.Cases = []*models.CaseResult{{Position: 0, CaseID: "q", Name: "q", Status: models.StatusFailed, DurationMS: 1,
		Metadata: models.JSON(`{}`), Output: models.JSON(`"an answer"`),
		ResponseMetadata: models.JSON(`{"api_replay":{"interactions":[]}}`),
		Metrics:          []*models.MetricResult{metric(0, "exact_match", 1, f64(0), false, long)}}}
	if err := rw.InsertRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	ts := MustServe(t, ro, mount)
	r := mustGet(t, fmt.Sprintf("%s%s/runs/%s/cases/0", ts.URL, mount, run.ID), http.StatusOK)
	if got := text(mustSelect(t, r.Doc, "pre.question")[0]); got != "(none)" {
		t.Errorf("null question shows %q, want (none)", got)
	}
	if !strings.Contains(r.Body, "API replay: empty") || strings.Contains(r.Body, "unknown shape") {
		t.Errorf("the gem's empty replay evidence is not recognised")
	}
	if !strings.Contains(r.Body, long[:maxShownBytes]+" […]") || strings.Contains(r.Body, long[:maxShownBytes+1]) {
		t.Errorf("the 100 KB reason is not on the page as its first 64 KiB and a mark")
	}
	href, _ := attr(mustSelect(t, r.Doc, "link[rel=stylesheet]")[0], "href")
	if css := mustGet(t, ts.URL+href, http.StatusOK).Body; !strings.Contains(css, "td { overflow-wrap: anywhere; }") {
		t.Errorf("table cells do not wrap long words anywhere: a 100 KB reason would overflow the metric table")
	}
}

// TestServer_OldSchema: on 0.1-era tables (criteria where 0.2 has
// minimum_scores) /healthz and every page name the missing column and the
// command that upgrades it, instead of a bare "try again later".
func TestServer_OldSchema(t *testing.T) {
	rw, ro := MustOpenDBs(t, "postgres")
	seedFixture(t, rw)
	if _, err := rw.ExecContext(context.Background(),
		`ALTER TABLE ruby_llm_evaluations_case_results RENAME COLUMN minimum_scores TO criteria`); err != nil {
		t.Fatal(err)
	}
	ts := MustServe(t, ro, mount)
	want := "missing columns case_results.minimum_scores; run `evalrun db:migrate`"
	if r := fetch(t, http.MethodGet, ts.URL+"/healthz"); r.Status != http.StatusServiceUnavailable || !strings.Contains(r.Body, want) {
		t.Errorf("GET /healthz: %d %q, want 503 naming %q", r.Status, r.Body, want)
	}
	r := fetch(t, http.MethodGet, ts.URL+mount+"/")
	if r.Status != http.StatusServiceUnavailable {
		t.Fatalf("GET /: %d, want 503", r.Status)
	}
	if msg := text(mustSelect(t, r.Doc, "p.error-message")[0]); !strings.Contains(msg, want) {
		t.Errorf("GET /: message %q does not name the missing column and evalrun db:migrate", msg)
	}
}

// TestServer_GemBaselineNote: for a Ruby-written run whose baseline here is
// an equivalent Go run, the page names the run the gem's own Run#previous
// (same digest only) picks, which the gem's CI gated on.
func TestServer_GemBaselineNote(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	older := supportRun(t0, 0.98, models.JSON(lookupTrace), false, models.JSON(`{}`))
	goRun := supportRun(t0.Add(time.Hour), 0.97, models.JSON(lookupTrace), false, models.JSON(`{"writer":"agentevals-go"}`))
	goRun.SuiteDigest = "go-digest"
	newer := supportRun(t0.Add(2*time.Hour), 0.96, models.JSON(lookupTrace), false, models.JSON(`{}`))
	for _, r := range []*models.Run{older, goRun, newer} {
		if err := rw.InsertRun(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
	ts := MustServe(t, ro, mount)
	r := mustGet(t, fmt.Sprintf("%s%s/runs/%s", ts.URL, mount, newer.ID), http.StatusOK)
	if href, _ := attr(mustSelect(t, r.Doc, "a.baseline-link")[0], "href"); !strings.HasSuffix(href, goRun.ID.String()) {
		t.Errorf("baseline link %q, want the equivalent Go run %s", href, goRun.ID)
	}
	if href, _ := attr(mustSelect(t, r.Doc, "a.gem-baseline-link")[0], "href"); !strings.HasSuffix(href, older.ID.String()) {
		t.Errorf("gem baseline link %q, want the older Ruby run %s (same digest)", href, older.ID)
	}
	r = mustGet(t, fmt.Sprintf("%s%s/runs/%s", ts.URL, mount, goRun.ID), http.StatusOK)
	if len(selectAll(r.Doc, "p.gem-baseline")) != 0 {
		t.Errorf("a Go-written run shows the gem's baseline note")
	}
}
