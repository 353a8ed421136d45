package main

import (
	"context"
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/agentevals-go/agentevals/calibrate"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/sanitize"
)

// CalibrateCmd measures a judge two ways. With --labels it compares a
// run's judge verdicts with human labels and prints raw agreement and
// Cohen's kappa per metric, with the cases where judge and human disagree;
// with --min-kappa it exits 1 when any labelled metric falls below the bar
// (or cannot be measured), so CI can refuse to gate on an uncalibrated
// judge. With --rejudge N it judges the run's stored answers N more times
// and reports the judge's test-retest stability (calibrate_rejudge.go).
type CalibrateCmd struct {
	RunID    string   `arg:"" name:"RUN_ID" help:"Run whose judge verdicts (--labels) or stored answers (--rejudge) are used: its id, or a unique part of it (its last 8 characters, or a prefix)."`
	Labels   string   `name:"labels" placeholder:"FILE" help:"Human labels, JSONL: {\"case_id\", \"metric\", and one of \"pass\" (true/false), \"label\" (\"pass\"/\"fail\") or \"score\" (0..1, passes at the metric's threshold)}."`
	MinKappa *float64 `name:"min-kappa" placeholder:"K" help:"With --labels: exit 1 when the lower bound of a labelled metric's Cohen's kappa 95% interval is below K (-1..1), or kappa cannot be computed."`

	RejudgeFlags
}

// Help is the detail under "evalrun calibrate --help".
func (c *CalibrateCmd) Help() string {
	return "Give --labels, --rejudge or both. --labels measures agreement with people (is the judge right?). " +
		"--rejudge N measures test-retest stability (does the judge say the same thing twice?): it reads the run's " +
		"stored answers, judges every judge-backed metric of every answered question N more times with the suite's " +
		"judge (--suite; the --judge-* flags override it as for run), and prints per metric the pass/fail agreement " +
		"and Cohen's kappa between repetitions, the within-question score sd, the sd of the difference of two " +
		"judgements and the minimum detectable effect of a one-sided paired test (α 0.05, power 0.8) at the run's " +
		"size, (1.645 + 0.842)·sd_diff/√n, with a plain verdict. It calls no agent and writes nothing to the " +
		"database; it costs N judge calls per question and metric."
}

// Run loads the labels and the run and prints the calibration, and/or
// re-judges the run.
func (c *CalibrateCmd) Run(ctx context.Context, g *Globals) error {
	if c.Labels == "" && c.Rejudge == nil {
		return &exitError{Code: exitInvalid, Err: errors.New("calibrate: give --labels FILE (agreement with people), --rejudge N (stability of the judge), or both")}
	}
	if c.MinKappa != nil && c.Labels == "" {
		return &exitError{Code: exitInvalid, Err: errors.New("--min-kappa: needs --labels")}
	}
	if k := c.MinKappa; k != nil && (math.IsNaN(*k) || *k < -1 || *k > 1) {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--min-kappa: want a number from -1 to 1, got %v", *k)}
	}
	if c.JSON && c.Labels != "" {
		return &exitError{Code: exitInvalid, Err: errors.New("--json: the --labels report is text; run --labels and --rejudge --json separately")}
	}
	if err := c.checkRejudge(); err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	var labels []calibrate.Label
	var err error
	if c.Labels != "" {
		if labels, err = calibrate.ReadLabels("--labels", c.Labels); err != nil {
			return &exitError{Code: exitInvalid, Err: err}
		}
	}
	db, err := g.open(ctx, true)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	defer db.Close()
	run, err := eval.LoadRun(ctx, db, c.RunID, "calibrate: RUN_ID")
	if err != nil {
		return err
	}
	// A label given on another run judged another answer, as
	// --gate-labels knows: comparing it with this run's verdict would
	// measure nothing.
	for _, l := range labels {
		if l.RunID != "" && !strings.EqualFold(l.RunID, run.ID.String()) {
			return &exitError{Code: exitInvalid, Err: fmt.Errorf("--labels %s: line %d: labelled on run %s, not on run %s: "+
				"calibrate against the run that was labelled, or label this one (evalrun label %s)", c.Labels, l.Line,
				sanitize.EscapeText(l.RunID), run.ID, run.ID)}
		}
	}
	if c.Rejudge != nil {
		if err := c.rejudge(ctx, g, run); err != nil {
			return asInvalid(err)
		}
	}
	if c.Labels == "" {
		return nil
	}
	ms := calibrate.Calibrate(labels, calibrate.JudgedMetrics(run))
	fmt.Fprintf(g.Stdout, "Calibration of run %s (%s, %s) against %s: pass/fail agreement\n\n", run.ID, run.Suite, run.Agent, c.Labels)
	if err := calibrate.WriteCalibration(g.Stdout, ms); err != nil {
		return err
	}
	if c.MinKappa == nil {
		return nil
	}
	if err := checkKappa(ms, *c.MinKappa); err != nil {
		return &exitError{Code: exitFailed, Err: err}
	}
	return nil
}

// checkKappa fails when a metric's kappa cannot be computed (no compared
// pairs, or one label on both sides: kappa 0/0) or when the lower bound of
// its 95 % interval is below bar: a kappa over few labels is too uncertain
// to vouch for a judge.
func checkKappa(ms []calibrate.MetricAgreement, bar float64) error {
	var problems []string
	for _, m := range ms {
		if why, ok := calibrate.KappaBelow(m, bar); ok {
			problems = append(problems, m.Metric+": "+why)
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("calibrate: --min-kappa %v is checked against the lower bound of kappa's 95%% interval, and it is below or not computable: %s; more labels (label --queue calibrate) narrow the interval",
			bar, strings.Join(problems, "; "))
	}
	return nil
}
