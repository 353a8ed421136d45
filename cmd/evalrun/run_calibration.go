package main

import (
	"context"
	"errors"
	"fmt"
	"sort"

	"github.com/google/uuid"

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
	return f.uncalibratedOf(ctx, g, db, func() []string { return judgeMetricNames(s) }, mode)
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
	case *f.GateMinKappa < -1 || *f.GateMinKappa > 1:
		return nil, invalid(fmt.Errorf("--min-kappa: want a number from -1 to 1, got %v", *f.GateMinKappa))
	case db == nil:
		return nil, invalid(errors.New("--min-kappa: the labelled runs are read from the database; give --database-url"))
	}
	labels, err := readLabels("--gate-labels", f.GateLabels)
	if err != nil {
		return nil, invalid(err)
	}
	var judged []calibrate.JudgedMetric
	runs := map[string]bool{}
	for i, l := range labels {
		if l.RunID == "" {
			return nil, invalid(fmt.Errorf("--gate-labels %s: line %d names no run_id (label the run with evalrun label)", f.GateLabels, l.Line))
		}
		labels[i].CaseID = l.RunID + "/" + l.CaseID // one key space across runs
		if runs[l.RunID] {
			continue
		}
		runs[l.RunID] = true
		id, err := uuid.Parse(l.RunID)
		if err != nil {
			return nil, invalid(fmt.Errorf("--gate-labels %s: line %d: run_id %q: %w", f.GateLabels, l.Line, l.RunID, err))
		}
		run, err := db.GetRun(ctx, id)
		if err != nil {
			return nil, invalid(fmt.Errorf("--gate-labels %s: %w", f.GateLabels, err))
		}
		for _, jm := range judgedMetrics(run) {
			jm.CaseID = l.RunID + "/" + jm.CaseID
			judged = append(judged, jm)
		}
	}
	byMetric := map[string]calibrate.MetricAgreement{}
	for _, m := range calibrate.Calibrate(labels, judged) {
		byMetric[m.Metric] = m
	}
	bar := *f.GateMinKappa
	out := map[string]string{}
	for _, name := range names() {
		m := byMetric[name]
		m.Metric = name
		why, below := kappaBelow(m, bar)
		if !below {
			fmt.Fprintf(g.Stderr, "ci gate: judge metric %s is calibrated (--min-kappa checks the lower bound of kappa's 95%% interval): %s\n", sanitize.EscapeText(name), why)
			continue
		}
		out[name] = "not gating: " + why + " in " + f.GateLabels
		fmt.Fprintf(g.Stderr, "ci gate: not gating on judge metric %s: %s in %s\n", sanitize.EscapeText(name), why, sanitize.EscapeText(f.GateLabels))
	}
	return out, nil
}

// judgeMetricNames are the suite's judge-backed metric names, sorted.
func judgeMetricNames(s *suite.Suite) []string {
	seen := map[string]bool{}
	for _, c := range s.Cases {
		for _, m := range c.Metrics {
			if typ, _, ok := s.MetricDefinition(m.Name); ok && s.Registry[typ].NeedsJudge {
				seen[m.Name] = true
			}
		}
	}
	out := make([]string, 0, len(seen))
	for n := range seen {
		out = append(out, n)
	}
	sort.Strings(out)
	return out
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
