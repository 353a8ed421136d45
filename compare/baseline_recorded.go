package compare

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
)

// RecordedDecision is the gate decision stored in the run's summary when it
// was made; nil for a run without one (written by the gem, by an older
// version, or kept in an evidence file without a baseline).
func RecordedDecision(run *models.Run) *models.GateDecision {
	s, err := models.DecodeRunSummary(run.Summary)
	if err != nil {
		return nil
	}
	return s.Gate
}

// RecordedOptions are the comparison options a recorded decision was made
// under.
func RecordedOptions(d *models.GateDecision) Options {
	return Options{Gate: d.Mode, Tolerance: d.Tolerance, Alpha: d.Alpha, MinEffect: d.MinEffect, SliceBy: d.SliceBy}
}

// RecordedBaseline reads the baseline a recorded decision names; nil when it
// had none, or when the baseline is not in db (one read from an evidence
// file that was never imported).
func RecordedBaseline(ctx context.Context, db *models.DB, d *models.GateDecision) (*models.Run, error) {
	if d == nil || d.Baseline == nil {
		return nil, nil
	}
	id, err := uuid.Parse(d.Baseline.RunID)
	if err != nil {
		return nil, nil
	}
	base, err := db.GetRun(ctx, id)
	if errors.Is(err, models.ErrNotFound) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("read the recorded baseline %s: %w", id, err)
	}
	return base, nil
}

// Recorded compares run as its recorded decision did: against the
// recorded baseline, under the recorded gate, with the flaky marks the
// decision recorded (not as the history reads now, which later runs of the
// same commit change). The comparison carries the decision
// (Comparison.Decision), whose verdict the renderers show. A run without a
// decision returns nil: compare it as before.
func Recorded(ctx context.Context, db *models.DB, run *models.Run) (*Comparison, error) {
	d := RecordedDecision(run)
	if d == nil {
		return nil, nil
	}
	base, err := RecordedBaseline(ctx, db, d)
	if err != nil {
		return nil, err
	}
	opts := RecordedOptions(d)
	opts.Flaky = RecordedFlaky(d)
	cmp := Compare(run, base, opts)
	cmp.Ungate(d.Ungated)
	cmp.Decision = d
	return cmp, nil
}

// RecordedFlaky are the flaky marks of a recorded decision, by case id;
// nil when it recorded none.
func RecordedFlaky(d *models.GateDecision) map[string]Flakiness {
	if d == nil || len(d.Flaky) == 0 {
		return nil
	}
	out := make(map[string]Flakiness, len(d.Flaky))
	for _, f := range d.Flaky {
		out[f.CaseID] = Flakiness{Runs: f.Runs, Flips: f.Flips, Statuses: f.Statuses, Commit: f.Commit}
	}
	return out
}

// DecisionOf records the decision of a fresh comparison: its gate, its
// baseline (from where), the findings that gated, the flaky marks of its
// questions, and the exit code and line the exit rule gave.
func DecisionOf(c *Comparison, failOn string, ungated map[string]string, base *models.GateBaseline, exit int, line string) *models.GateDecision {
	o := c.Options
	d := &models.GateDecision{Mode: o.Gate, Tolerance: o.Tolerance, Alpha: o.AlphaOrDefault(), SliceBy: o.SliceByOrDefault(),
		FailOn: failOn, Ungated: ungated, Baseline: base, Findings: []models.GateFinding{}, Exit: exit, Line: line}
	if o.Gate == GateCI {
		d.MinEffect = Ptr(o.MinEffectOrDefault())
	} else {
		d.Alpha, d.SliceBy = 0, ""
	}
	for _, cc := range c.Cases {
		if fl := cc.Flaky; fl != nil {
			d.Flaky = append(d.Flaky, models.GateFlaky{CaseID: cc.CaseID, Commit: fl.Commit, Flips: fl.Flips, Runs: fl.Runs, Statuses: fl.Statuses})
		}
	}
	for _, f := range c.Findings {
		if f.Gating {
			d.Findings = append(d.Findings, models.GateFinding{Kind: string(f.Kind), CaseID: f.CaseID, Metric: f.Metric,
				Slice: f.Slice, Message: f.Text()})
		}
	}
	return d
}

// Origin describes base as the baseline of a decision: its id, how it was
// chosen (a models.Baseline* source), and the branch and commit its
// provenance names.
func Origin(base *models.Run, source string) *models.GateBaseline {
	if base == nil {
		return nil
	}
	o := &models.GateBaseline{RunID: base.ID.String(), Source: source, StartedAt: base.StartedAt}
	if s, err := models.DecodeRunSummary(base.Summary); err == nil && s.Provenance != nil {
		o.Branch, o.Commit = s.Provenance.Branch, s.Provenance.Commit
	}
	return o
}
