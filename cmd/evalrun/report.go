package main

import (
	"context"
	"errors"
	"fmt"

	"agentevals/models"
	"agentevals/reports"
)

// ReportCmd renders a run's report, compared with its baseline.
type ReportCmd struct {
	RunID     string  `arg:"" optional:"" name:"run-id" help:"Run to report (default: the latest run)."`
	Baseline  string  `name:"baseline" placeholder:"RUN_ID" help:"Compare with this run instead of the automatic baseline (an earlier run of the same suite, agent and definition)."`
	Format    string  `name:"format" short:"f" placeholder:"FORMAT" help:"text, markdown, html, json, junit or github (default: from the --output extension, else text)."`
	Output    string  `name:"output" short:"o" placeholder:"PATH" help:"Write the report to PATH (atomically) instead of stdout."`
	Tolerance float64 `name:"tolerance" default:"0" placeholder:"T" help:"Score decrease per metric that is not a regression (0..1)."`
	Gate      string  `name:"gate" default:"strict" enum:"strict,ci" help:"Regression gate: strict (per question) or ci (bootstrap interval of each metric)."`
}

// format picks the output format before anything is read or written.
func (c *ReportCmd) format() (reports.Format, error) {
	switch {
	case c.Format != "":
		return reports.ParseFormat(c.Format)
	case c.Output != "":
		return reports.FormatFromPath(c.Output)
	}
	return reports.FormatText, nil
}

// Run renders the report.
func (c *ReportCmd) Run(ctx context.Context, g *Globals) error {
	format, err := c.format()
	if err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--format/--output: %w", err)}
	}
	opts := reports.Options{Tolerance: c.Tolerance, Gate: c.Gate}
	if err := opts.Validate(); err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--tolerance/--gate: %w", err)}
	}
	if c.Output != "" {
		if err := checkDir("--output", c.Output); err != nil {
			return &exitError{Code: exitInvalid, Err: err}
		}
	}
	r, err := reports.NewRenderer()
	if err != nil {
		return err
	}
	db, err := g.open(ctx, true)
	if err != nil {
		return asInvalid(err)
	}
	defer db.Close()
	run, err := c.run(ctx, db)
	if err != nil {
		return err
	}
	var baseline *models.Run
	if c.Baseline != "" {
		baseline, err = explicitBaseline(ctx, db, c.Baseline, run, nil)
	} else {
		baseline, err = reports.FindBaseline(ctx, db, run, nil)
	}
	if err != nil {
		return asInvalid(err)
	}
	cmp := reports.Compare(run, baseline, opts)
	switch {
	case c.Output != "":
		if err := r.WriteFile(c.Output, format, cmp); err != nil {
			return &exitError{Code: exitInvalid, Err: err}
		}
	case format == reports.FormatGitHub:
		return writeTarget(r, g, reportTarget{format: format}, cmp)
	default:
		return r.Render(g.Stdout, format, cmp)
	}
	return nil
}

// run loads the requested run, or the latest one.
func (c *ReportCmd) run(ctx context.Context, db *models.DB) (*models.Run, error) {
	if c.RunID != "" {
		return loadRun(ctx, db, c.RunID, "run")
	}
	runs, _, err := db.ListRuns(ctx, models.RunFilter{Limit: 1})
	if err != nil {
		return nil, &exitError{Code: exitInvalid, Err: err}
	}
	if len(runs) == 0 {
		return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("no runs in %s yet (evalrun run SUITE saves one)", db.URL)}
	}
	return loadRun(ctx, db, runs[0].ID.String(), "run")
}

// CompareCmd compares two runs of the same definition side by side.
type CompareCmd struct {
	RunA   string `arg:"" name:"run-a" help:"The reference run (A)."`
	RunB   string `arg:"" name:"run-b" help:"The candidate run (B)."`
	Format string `name:"format" short:"f" default:"text" enum:"text,json" help:"text or json."`
}

// Run prints per-question deltas, the bootstrap interval of the quality
// difference and a verdict. Runs of different definitions are refused
// (exit 2).
func (c *CompareCmd) Run(ctx context.Context, g *Globals) error {
	format, err := reports.ParseFormat(c.Format)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--format: %w", err)}
	}
	db, err := g.open(ctx, true)
	if err != nil {
		return asInvalid(err)
	}
	defer db.Close()
	a, err := loadRun(ctx, db, c.RunA, "run A")
	if err != nil {
		return err
	}
	b, err := loadRun(ctx, db, c.RunB, "run B")
	if err != nil {
		return err
	}
	ab, err := reports.CompareAB(a, b, reports.Options{})
	if errors.Is(err, reports.ErrIncompatible) {
		return &exitError{Code: exitInvalid, Err: err}
	}
	if err != nil {
		return err
	}
	r, err := reports.NewRenderer()
	if err != nil {
		return err
	}
	return r.RenderAB(g.Stdout, format, ab)
}
