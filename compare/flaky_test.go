package compare

import (
	"context"
	"fmt"
	"testing"
	"time"

	"agentevals/internal/runfixture"
	"agentevals/models"
)

// TestFlakyQuestions_SkipsInfrastructureFailures: a run marked as an
// infrastructure failure (every judge call failed) says nothing about the
// questions, so its errors are no flips: otherwise one outage would make
// every question "flaky", and under the ci gate none would gate one by one
// for the next FlakyWindow runs.
func TestFlakyQuestions_SkipsInfrastructureFailures(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		save := func(i int, score *float64, outage bool) *models.Run {
			m := runfixture.NewMetric("exact", 1, score)
			if outage {
				m.Err = "unreachable"
			}
			r := runfixture.Build(fmt.Sprintf("01900000-0000-7000-8000-%012d", 600+i), 0, runfixture.T0.Add(time.Duration(i)*time.Minute),
				runfixture.Case{ID: "steady", Metrics: []runfixture.Metric{m}})
			if outage {
				r.Summary = models.JSON(`{"` + models.InfrastructureFailureKey + `":{"judge":"unreachable (1 of 1 calls)"}}`)
			}
			return runfixture.SaveRun(t, db, r)
		}
		save(0, runfixture.Score(1), false)
		save(1, nil, true)
		save(2, runfixture.Score(1), false)
		run := save(3, runfixture.Score(1), false)
		got, err := FlakyQuestions(ctx, db, run, nil)
		if err != nil {
			t.Fatal(err)
		}
		if len(got) != 0 {
			t.Fatalf("flaky = %+v, want none: the only errors are an infrastructure failure's", got)
		}
	})
}
