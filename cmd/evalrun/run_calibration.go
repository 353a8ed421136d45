package main

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/agentevals-go/agentevals/calibrate"
	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/suite"
)

// CalibrationGateFlags make the ci gate refuse to gate on judge metrics
// that human labels do not vouch for.
type CalibrationGateFlags struct {
	GateLabels   string   `name:"gate-labels" placeholder:"FILE" help:"Human labels (as evalrun label writes them, each line naming its run) that vouch for the judge metrics; needs --min-kappa."`
	GateMinKappa *float64 `name:"min-kappa" placeholder:"K" help:"With --gate ci and --gate-labels: a judge metric the labels do not vouch for does not gate: the lower bound of its Cohen's kappa 95% interval against the labels is below K (-1..1), or kappa cannot be computed, or no label names it; its findings are still shown, each saying why."`
}

// uncalibrated calibrates the suite's judge metrics against the labels
// and returns those the gate must not gate on, with why, saying so on
// stderr. It returns nil without --min-kappa.
func (f *CalibrationGateFlags) uncalibrated(ctx context.Context, g *Globals, db *models.DB, s *suite.Suite, mode string) (map[string]string, error) {
	return f.uncalibratedOf(ctx, g, db, func() []string { return calibrate.SuiteJudgeMetrics(s) }, mode)
}

// uncalibratedOf is uncalibrated over the judge metric names names gives.
func (f *CalibrationGateFlags) uncalibratedOf(ctx context.Context, g *Globals, db *models.DB, names func() []string, mode string) (map[string]string, error) {
	invalid := func(err error) error { return &exitError{Code: exitInvalid, Err: err} }
	switch {
	case f.GateMinKappa == nil && f.GateLabels == "":
		return nil, nil
	case f.GateMinKappa == nil || f.GateLabels == "":
		return nil, invalid(errors.New("--min-kappa and --gate-labels go together"))
	case mode != compare.GateCI:
		return nil, invalid(errors.New("--min-kappa: only the ci gate gates judge metrics in aggregate; add --gate ci"))
	}
	gate := calibrate.Gate{Labels: f.GateLabels, Source: "--gate-labels", MinKappa: *f.GateMinKappa}
	switch err := gate.Validate(); {
	case err != nil:
		return nil, invalid(fmt.Errorf("--min-kappa: %w", err))
	case db == nil:
		return nil, invalid(errors.New("--min-kappa: the labelled runs are read from the database; give --database-url"))
	}
	verdicts, err := gate.Check(ctx, db, names())
	if err != nil {
		return nil, invalid(err)
	}
	for _, v := range verdicts {
		if v.Gates {
			fmt.Fprintf(g.Stderr, "ci gate: judge metric %s is calibrated (--min-kappa checks the lower bound of kappa's 95%% interval): %s\n", sanitize.EscapeText(v.Metric), v.Why)
		} else {
			fmt.Fprintf(g.Stderr, "ci gate: not gating on judge metric %s: %s in %s\n", sanitize.EscapeText(v.Metric), v.Why, sanitize.EscapeText(f.GateLabels))
		}
	}
	return gate.Uncalibrated(verdicts), nil
}

// runJudgeMetricNames are the judge-backed metric names of a stored run
// (compare.JudgedMetrics), sorted: report has the run, not its suite.
func runJudgeMetricNames(run *models.Run) []string {
	judged := compare.JudgedMetrics(run, nil, compare.Options{})
	seen := map[string]bool{}
	var out []string
	for _, c := range run.Cases {
		for _, m := range c.Metrics {
			if !seen[m.Name] && judged(m.Name) {
				seen[m.Name] = true
				out = append(out, m.Name)
			}
		}
	}
	sort.Strings(out)
	return out
}
