package report

import (
	"encoding/json"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

// TestRenderer_EdgeCases renders runs that a careless renderer would crash
// on: no questions, nothing evaluated, an agent error without metrics, a
// status and column values that another writer might store.
func TestRenderer_EdgeCases(t *testing.T) {
	empty := runfixture.Build("01900000-0000-7000-8000-000000000401", 1, runfixture.T0)
	skipped := runfixture.Build("01900000-0000-7000-8000-000000000402", 2, runfixture.T0.Add(time.Minute),
		runfixture.Case{ID: "a", Metrics: []runfixture.Metric{{Name: "semantic_accuracy", Threshold: 0.9}}})
	odd := runfixture.Build("01900000-0000-7000-8000-000000000403", 3, runfixture.T0.Add(2*time.Minute),
		runfixture.Case{ID: "a", AgentErr: "timeout"},
		runfixture.Case{ID: "b", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(1))}})
	odd.Cases[1].Status = "weird"          // not one of ours: derived from rows
	odd.Cases[1].Output = models.JSON("{") // not JSON: shown as a string
	odd.Cases[1].Metadata = nil            // SQL NULL
	odd.Summary = models.JSON(`[1,2]`)     // not an object
	r := mustRenderer(t)
	for _, run := range []*models.Run{empty, skipped, odd} {
		cmp := compare.Compare(run, nil, compare.Options{})
		for _, f := range Formats() {
			b, err := r.Bytes(f, cmp)
			if err != nil {
				t.Fatalf("%s as %s: %v", run.ID, f, err)
			}
			if f == FormatJSON && !json.Valid(b) {
				t.Fatalf("%s: invalid JSON report", run.ID)
			}
		}
	}
	if tot := compare.Compare(skipped, nil, compare.Options{}).Totals; tot.Quality.Mean != nil || tot.PassRate != nil || tot.NotEvaluated != 1 {
		t.Errorf("nothing evaluated: totals %+v, want null quality and pass rate", tot)
	}
	tot := compare.Compare(odd, nil, compare.Options{}).Totals
	if tot.Errored != 1 || tot.Passed != 1 || *tot.Quality.Mean != 0.5 {
		t.Errorf("agent error counts 0, unknown status derived: totals %+v", tot)
	}
	b, _ := r.Bytes(FormatText, compare.Compare(skipped, nil, compare.Options{}))
	if !strings.Contains(string(b), "quality n/a") || strings.Contains(string(b), "quality 0.000") {
		t.Errorf("a null quality is shown as a number:\n%s", b)
	}
}
