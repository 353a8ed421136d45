package main

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/report"
)

// CompareCmd compares two runs of the same definition side by side.
type CompareCmd struct {
	RunA   string `arg:"" name:"run-a" help:"The reference run (A)."`
	RunB   string `arg:"" name:"run-b" help:"The candidate run (B)."`
	Format string `name:"format" short:"f" default:"text" enum:"text,json" help:"text or json."`

	PairwiseFlags
}

// Help is the detail under "evalrun compare --help".
func (c *CompareCmd) Help() string {
	return "B is read against A as if A were its baseline, with the ci gate's tests (see evalrun run --help): " +
		"the verdict is \"B is worse\" or \"B is better\" only when a one-sided paired test of the per-question quality differences " +
		"is significant at alpha 0.05 and the mean change is at least 0.02; \"B regressed\" when a deterministic check or agent call newly fails " +
		"or a judge metric regresses in aggregate; otherwise \"no significant difference\", with the questions that dropped within the judge's noise listed as such. " +
		"Exits 0 whatever the verdict; 2 for runs of different definitions or unknown ids.\n\n" + pairwiseHelp
}

// Run prints per-question deltas, the bootstrap interval of the quality
// difference and a verdict. Runs of different definitions are refused
// (exit 2); otherwise it exits 0 whatever the verdict: an A/B of two
// prompts or models is a measurement, not a gate (B need not be later
// than A, nor the candidate), each run got its own exit status when it
// ran, and gating one run against another is report --fail-on-regression.
func (c *CompareCmd) Run(ctx context.Context, g *Globals) error {
	format, err := report.ParseFormat(c.Format)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--format: %w", err)}
	}
	db, err := g.open(ctx, true)
	if err != nil {
		return asInvalid(err)
	}
	defer db.Close()
	a, err := eval.LoadRun(ctx, db, c.RunA, "run A")
	if err != nil {
		return err
	}
	b, err := eval.LoadRun(ctx, db, c.RunB, "run B")
	if err != nil {
		return err
	}
	ab, err := compare.AB(a, b, compare.Options{})
	if errors.Is(err, compare.ErrIncompatible) {
		return &exitError{Code: exitInvalid, Err: err}
	}
	if err != nil {
		return err
	}
	r, err := report.NewRenderer()
	if err != nil {
		return err
	}
	if c.Pairwise {
		return c.renderPairwise(ctx, g, r, format, ab)
	}
	return r.RenderAB(g.Stdout, format, ab)
}
