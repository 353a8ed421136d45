package report

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// backends runs a test against a real PostgreSQL schema and a SQLite file.
// compare's tests have the same helper: it needs internal/testkit/testdb, which
// internal/testkit/runfixture does not import.
func backends(t *testing.T, fn func(t *testing.T, db *models.DB)) {
	t.Run("postgres", func(t *testing.T) { fn(t, testdb.Postgres(t)) })
	t.Run("sqlite", func(t *testing.T) { fn(t, testdb.SQLite(t)) })
}

// TestFindBaseline_RubyWrittenRun finds a run written by the gem as the
// baseline, compares with it and renders it in every format (so it lives
// here, not in compare).
func TestFindBaseline_RubyWrittenRun(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		rubyID := uuid.MustParse("5b3c2a10-0000-4000-8000-000000000001")
		runfixture.InsertRubyRun(t, db, rubyID, runfixture.T0, "0.9", 0.98)
		// An older Go run with the Go digest: the newer Ruby run wins.
		goOld := runfixture.Build("01900000-0000-7000-8000-000000000201", 0, runfixture.T0.Add(-time.Hour), runfixture.Case{ID: "returns",
			Question: "How long do I have to return an item?", Expected: "You can return it within 30 days.",
			Meta: `{"failure_mode":"policy","tags":["returns"]}`, Metrics: []runfixture.Metric{runfixture.NewMetric("semantic_accuracy", 0.9, runfixture.Score(0.9))}})
		runfixture.SaveRun(t, db, goOld)
		// A Ruby run of another definition (threshold 0.8) is never chosen.
		runfixture.InsertRubyRun(t, db, uuid.MustParse("5b3c2a10-0000-4000-8000-000000000002"), runfixture.T0.Add(time.Minute), "0.8", 0.5)

		later := runfixture.Build("01900000-0000-7000-8000-000000000202", 0, runfixture.T0.Add(time.Hour), runfixture.Case{ID: "returns",
			Question: "How long do I have to return an item?", Expected: "You can return it within 30 days.",
			Meta: `{"failure_mode":"policy","tags":["returns"]}`, Metrics: []runfixture.Metric{runfixture.NewMetric("semantic_accuracy", 0.9, runfixture.Score(0.92))}})
		later.Cases[0].ExpectedActions = models.JSON("null") // JSON null where Ruby wrote SQL NULL
		later = runfixture.SaveRun(t, db, later)

		base, err := compare.FindBaseline(ctx, db, later, nil)
		if err != nil {
			t.Fatal(err)
		}
		if runfixture.IDOf(base) != rubyID.String() {
			t.Fatalf("baseline = %s, want the Ruby run %s", runfixture.IDOf(base), rubyID)
		}
		cmp := compare.Compare(later, base, compare.Options{Tolerance: 0.02})
		if !cmp.Regressed() || cmp.Regressions()[0].Kind != compare.ScoreDrop {
			t.Fatalf("0.98 (Ruby) -> 0.92 (Go): findings %+v, want a score drop", cmp.Findings)
		}
		if cmp.BaselineTotals == nil || cmp.BaselineTotals.Passed != 1 || *cmp.BaselineTotals.Quality.Mean != 0.98 {
			t.Fatalf("baseline totals from Ruby rows = %+v", cmp.BaselineTotals)
		}
		r := mustRenderer(t)
		for _, f := range Formats() {
			if _, err := r.Bytes(f, compare.Compare(base, nil, compare.Options{})); err != nil {
				t.Errorf("render the Ruby run as %s: %v", f, err)
			}
		}
	})
}
