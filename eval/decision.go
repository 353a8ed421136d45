package eval

import (
	"context"
	"fmt"
	"math"
	"time"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
)

// record stores the decision of a fresh run in its summary (the "gate"
// key) and on its comparison, so that every report of the run, now and
// later, shows this gate, this baseline and this exit.
func (g Gate) record(res *Result, prov *models.Provenance) error {
	if o := res.Origin; o != nil {
		o.Warnings = g.warnings(o, res.Run, prov)
	}
	d := compare.DecisionOf(res.Comparison, g.rule(), g.Uncalibrated, res.Origin, res.Decision.Code, res.Decision.Line)
	d.NoBaseline = res.NoBaseline
	s, err := models.DecodeRunSummary(res.Run.Summary)
	if err != nil {
		return fmt.Errorf("record the gate decision: %w", err)
	}
	s.Gate = d
	if res.Run.Summary, err = s.Encode(); err != nil {
		return fmt.Errorf("record the gate decision: %w", err)
	}
	res.Comparison.Decision = d
	return nil
}

// compare compares the executed run with its baseline, flaky questions
// marked from db's history, and says why there is no baseline when the
// reason is not the usual one. The database is read before the run is
// saved, with a bounded context (models.DB.Bounded): a server that stopped
// answering during the run leaves the questions unmarked, with a note, and
// the save then decides.
func (g Gate) compare(ctx context.Context, db *models.DB, res *Result) (*compare.Comparison, string) {
	opts := g.Options()
	if db == nil {
		return compare.Compare(res.Run, res.Baseline, opts), ""
	}
	ctx, cancel := db.Bounded(ctx)
	defer cancel()
	var note string
	if opts, note = g.CompareOptions(ctx, db, res.Run, res.Calculated); note != "" {
		res.Notes = append(res.Notes, note)
	}
	cmp := compare.Compare(res.Run, res.Baseline, opts)
	switch {
	case res.Baseline != nil || g.Baseline != "":
		return cmp, ""
	case g.Branch != "":
		return cmp, "no earlier compatible run of branch " + g.Branch + " (the target branch) to compare with; " +
			"runs of other branches are never its automatic baseline"
	}
	return cmp, noBaselineWhy(ctx, db, res.Run, res.Calculated)
}

// warnings say what makes a baseline doubtful: it was made on another
// branch than the target branch (or, without one, than the run), or it is
// at least MaxAge older than the run.
func (g Gate) warnings(o *models.GateBaseline, run *models.Run, prov *models.Provenance) []string {
	var out []string
	own := ""
	if prov != nil {
		own = prov.Branch
	}
	switch {
	case g.Branch != "" && o.Branch != g.Branch:
		out = append(out, fmt.Sprintf("the baseline was made on %s, not on the target branch %s", branchName(o.Branch), g.Branch))
	case g.Branch == "" && own != "" && o.Branch != "" && o.Branch != own:
		out = append(out, fmt.Sprintf("the baseline was made on branch %s, this run on %s", o.Branch, own))
	}
	if age := run.StartedAt.Sub(o.StartedAt); g.MaxAge > 0 && age >= g.MaxAge {
		out = append(out, fmt.Sprintf("the baseline is %s older than this run (--baseline-max-age %s)", days(age), days(g.MaxAge)))
	}
	return out
}

// branchName is "branch NAME", or "an unknown branch" when none was
// recorded.
func branchName(b string) string {
	if b == "" {
		return "an unknown branch"
	}
	return "branch " + b
}

// days writes a duration in whole days ("3 days"), or hours below a day.
func days(d time.Duration) string {
	if d < 24*time.Hour {
		return fmt.Sprintf("%dh", int(math.Round(d.Hours())))
	}
	n := int(d.Hours() / 24)
	if n == 1 {
		return "1 day"
	}
	return fmt.Sprintf("%d days", n)
}
