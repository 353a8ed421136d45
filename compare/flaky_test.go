package compare

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
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

// TestFlakyQuestions_ReadsOnlyWhatDecides: the history reads full runs
// only where the definition has to be compared row by row (a run of
// another writer with another digest, here the gem's, which records no
// commit and so is never the same revision) or where a status has to be
// derived from the metric rows (a status the runner does not write); a
// run of the same writer with another digest is another definition and
// stays out.
func TestFlakyQuestions_ReadsOnlyWhatDecides(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		goWriter := models.JSON(`{"writer":"` + models.GoWriter + `","provenance":{"commit":"c0ffee","dirty":false}}`)
		save := func(i int, score float64, digest string, summary models.JSON, status string) *models.Run {
			r := runfixture.Build(fmt.Sprintf("01900000-0000-7000-8000-%012d", 700+i), 0, runfixture.T0.Add(time.Duration(i)*time.Minute),
				runfixture.Case{ID: "q", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(score))}})
			r.SuiteDigest, r.Summary = digest, summary
			if status != "" {
				r.Cases[0].Status = status
			}
			return runfixture.SaveRun(t, db, r)
		}
		save(0, 1, "digest-1", goWriter, "")            // passed
		save(1, 0, "gem-digest", models.JSON(`{}`), "") // the gem's: the same definition, failed, no commit
		save(2, 1, "digest-2", goWriter, "")            // another definition: not history
		save(3, 0, "digest-1", goWriter, "")            // failed
		save(4, 1, "digest-1", goWriter, "pending")     // passed, by its metric rows
		run := save(5, 1, "digest-1", goWriter, "")
		got, err := FlakyQuestions(ctx, db, run, nil)
		if err != nil {
			t.Fatal(err)
		}
		q, ok := got["q"]
		want := []string{models.StatusPassed, models.StatusFailed, models.StatusPassed}
		if !ok || q.Runs != 3 || q.Flips != 2 || !slices.Equal(q.Statuses, want) {
			t.Fatalf("flaky = %+v, want q with statuses %v and 2 flips", got, want)
		}
	})
}
