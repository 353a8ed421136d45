package dashboard

import (
	"context"
	"strings"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

// recordedView is the gate decision a run recorded when it was made, as
// the run page shows it; nil for a run without one.
type recordedView struct {
	// Line is report.DecisionLine; Origin how the baseline was chosen and
	// where it was made; Warnings what makes it doubtful.
	Line, Origin string
	Warnings     []string
}

// newRecordedView words a recorded decision (nil for nil).
func newRecordedView(d *models.GateDecision) *recordedView {
	if d == nil {
		return nil
	}
	v := &recordedView{Line: report.DecisionLine(d)}
	if d.Baseline != nil {
		v.Origin, v.Warnings = report.BaselineOriginLine(d.Baseline), d.Baseline.Warnings
	}
	return v
}

// compareRun compares a run as every view does: as its recorded decision
// did when there is one (compare.Recorded), else against its
// automatic baseline, flaky questions marked.
func compareRun(ctx context.Context, db *models.DB, run *models.Run) (*compare.Comparison, error) {
	cmp, err := compare.Recorded(ctx, db, run)
	if err != nil || cmp != nil {
		return cmp, err
	}
	baseline, err := compare.FindBaseline(ctx, db, run, nil)
	if err != nil {
		return nil, err
	}
	flaky, err := compare.FlakyQuestions(ctx, db, run, nil)
	if err != nil {
		return nil, err
	}
	return compare.Compare(run, baseline, compare.Options{Flaky: flaky}), nil
}

// baselineOf is the run's baseline for its case pages: the recorded
// decision's (nil when it had none or it is not in the database), else
// the automatic one.
func (s *Server) baselineOf(ctx context.Context, run *models.Run) (*models.Run, error) {
	if d := compare.RecordedDecision(run); d != nil {
		return compare.RecordedBaseline(ctx, s.rows, d)
	}
	return compare.FindBaseline(ctx, s.rows, run, nil)
}

// linkRecorded sets the Change of each row whose run recorded a gate
// decision: quality against the recorded baseline (whose rows are loaded
// in one batch), regressed exactly when the decision had gating findings,
// and the decision in words, so the row says what the run page and the
// CLI say.
func (s *Server) linkRecorded(ctx context.Context, rows []historyRow) error {
	decisions := make([]*models.GateDecision, len(rows))
	var ids []uuid.UUID
	for i, r := range rows {
		d := compare.RecordedDecision(r.Run)
		decisions[i] = d
		if d == nil || d.Baseline == nil {
			continue
		}
		if id, err := uuid.Parse(d.Baseline.RunID); err == nil {
			ids = append(ids, id)
		}
	}
	cases := map[uuid.UUID][]*models.CaseResult{}
	if len(ids) > 0 {
		var err error
		if cases, err = s.rows.CaseTotalsOf(ctx, ids); err != nil {
			return unavailable(err)
		}
	}
	for i, d := range decisions {
		if d == nil {
			continue
		}
		rows[i].Change = recordedChange(rows[i].Stats, d, cases)
	}
	return nil
}

// recordedChange is a row's change under its recorded decision.
func recordedChange(cur runStats, d *models.GateDecision, cases map[uuid.UUID][]*models.CaseResult) runChange {
	ch := runChange{HasPrevious: d.Baseline != nil, Text: "—", Decision: report.DecisionLine(d)}
	if d.Baseline != nil {
		if id, err := uuid.Parse(d.Baseline.RunID); err == nil && len(cases[id]) > 0 {
			prev := newRunChange(cur, statsFromCases(cases[id]))
			ch.Delta, ch.Text = prev.Delta, prev.Text
		}
	}
	if len(d.Findings) > 0 {
		why := make([]string, 0, 3)
		for _, f := range d.Findings[:min(3, len(d.Findings))] {
			why = append(why, f.Message)
		}
		if len(d.Findings) > 3 {
			why = append(why, "…")
		}
		ch.Regressed, ch.Why = true, strings.Join(why, "; ")
	} else if ch.Delta != nil && *ch.Delta > changeEpsilon {
		ch.Improved = true
	}
	return ch
}
