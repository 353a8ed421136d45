package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// TestServer_RunPageMarksFlakyQuestions: a question that passed, failed
// and passed again in earlier runs of the same definition and commit carries a "flaky" label
// in the run page's case list; a steady one does not.
func TestServer_RunPageMarksFlakyQuestions(t *testing.T) {
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			rw, ro := MustOpenDBs(t, backend)
			var last *models.Run
			for i, flakyPasses := range []bool{true, false, true, true} {
				at := t0.Add(time.Duration(i) * time.Hour)
				r := &models.Run{Suite: "Flaky", Agent: "A", Version: "1", SuiteDigest: "flaky-1",
					StartedAt: at, FinishedAt: at.Add(time.Second), Summary: models.JSON(`{"writer":"agentevals-go","provenance":{"commit":"c0ffee","dirty":false}}`)}
				score, status := 0.0, models.StatusFailed
				if flakyPasses {
					score, status = 1, models.StatusPassed
				}
				r.Cases = []*models.CaseResult{
					{Position: 0, CaseID: "wobbly", Name: "Wobbly", Status: status, Question: models.JSON(`"q"`),
						Metrics: []*models.MetricResult{metric(0, "exact_match", 1, f64(score), score == 1, "")}},
					{Position: 1, CaseID: "steady", Name: "Steady", Status: models.StatusPassed, Question: models.JSON(`"q"`),
						Metrics: []*models.MetricResult{metric(0, "exact_match", 1, f64(1), true, "")}},
				}
				if err := rw.InsertRun(context.Background(), r); err != nil {
					t.Fatal(err)
				}
				last = r
			}
			ts := MustServe(t, ro, mount)
			page := mustGet(t, ts.URL+mount+"/runs/"+last.ID.String(), http.StatusOK)
			var flaky []string
			for _, row := range mustSelect(t, page.Doc, "table tbody tr") {
				if len(selectAll(row, ".badge-flaky")) > 0 {
					flaky = append(flaky, text(row))
				}
			}
			if len(flaky) != 1 || !strings.Contains(flaky[0], "wobbly") {
				t.Fatalf("rows labelled flaky: %q, want only wobbly", flaky)
			}
		})
	}
}
