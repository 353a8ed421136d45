package compare

import (
	"context"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

// TestRecorded_FlakyMarksAsCISawThem: a run's recorded decision keeps the
// flaky marks its gate saw, and every later view (Recorded) shows those,
// not what the history reads now: here the database holds too few runs to
// call anything flaky, and a question the decision did not mark stays
// unmarked.
func TestRecorded_FlakyMarksAsCISawThem(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		mk := func(id string, seq int64, at time.Time, judged float64) *models.Run {
			return runfixture.Build(id, seq, at,
				runfixture.Case{ID: "a", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(1))}},
				runfixture.Case{ID: "b", Metrics: []runfixture.Metric{runfixture.NewMetric("semantic_accuracy", 0.7, runfixture.Score(judged))}})
		}
		base := runfixture.SaveRun(t, db, mk("01900000-0000-7000-8000-000000000301", 1, runfixture.T0, 0.9))
		fl := map[string]Flakiness{"b": {Runs: 3, Flips: 2, Statuses: []string{"passed", "failed", "passed"}, Commit: "c0ffee"}}
		for _, tc := range []struct {
			id    string
			flaky map[string]Flakiness
		}{{"01900000-0000-7000-8000-000000000302", fl}, {"01900000-0000-7000-8000-000000000303", nil}} {
			cand := mk(tc.id, 2, runfixture.T0.Add(time.Minute), 0.5)
			cmp := Compare(cand, base, Options{Gate: GateCI, Flaky: tc.flaky})
			d := DecisionOf(cmp, "regressions", nil, Origin(base, models.BaselineFlag), 0, "exit 0")
			if len(d.Flaky) != len(tc.flaky) {
				t.Fatalf("decision records %+v, want the marks %+v", d.Flaky, tc.flaky)
			}
			s, err := models.DecodeRunSummary(cand.Summary)
			if err != nil {
				t.Fatal(err)
			}
			s.Gate = d
			if cand.Summary, err = s.Encode(); err != nil {
				t.Fatal(err)
			}
			stored := runfixture.SaveRun(t, db, cand)
			got, err := Recorded(ctx, db, stored)
			if err != nil || got == nil {
				t.Fatalf("Recorded: %v, %v", got, err)
			}
			for _, cc := range got.Cases {
				want := tc.flaky[cc.CaseID]
				switch {
				case want.Runs == 0 && cc.Flaky != nil:
					t.Errorf("run %s, %s: marked %+v, want no mark (the decision made none)", tc.id, cc.CaseID, *cc.Flaky)
				case want.Runs > 0 && (cc.Flaky == nil || cc.Flaky.Text() != want.Text()):
					t.Errorf("run %s, %s: marked %+v, want the recorded mark %q", tc.id, cc.CaseID, cc.Flaky, want.Text())
				}
			}
		}
	})
}
