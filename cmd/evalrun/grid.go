package main

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/report"
)

// GridCmd renders the grid of a stored experiment again.
type GridCmd struct {
	ID     string `arg:"" name:"experiment-id" help:"The experiment id (metadata.experiment.id of its runs, printed by evalrun experiment)."`
	Format string `name:"format" short:"f" default:"text" enum:"text,markdown,html,json" help:"text, markdown, html or json."`
	Output string `name:"output" short:"o" placeholder:"PATH" help:"Write to PATH instead of stdout (the file is replaced atomically)."`
}

// Run reads the experiment's runs and renders their grid. An unknown
// experiment id exits 2.
func (c *GridCmd) Run(ctx context.Context, g *Globals) error {
	format, err := report.ParseFormat(c.Format)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--format: %w", err)}
	}
	if c.Output != "" {
		if err := checkDir("--output", c.Output); err != nil {
			return &exitError{Code: exitInvalid, Err: err}
		}
	}
	if _, err := uuid.Parse(c.ID); err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("grid %q: not an experiment id (want the whole UUID that evalrun experiment printed; evalrun history shows it under metadata experiment.id)", c.ID)}
	}
	db, err := g.open(ctx, true)
	if err != nil {
		return asInvalid(err)
	}
	defer db.Close()
	runs, err := db.ExperimentRuns(ctx, c.ID, time.Time{})
	if err != nil {
		return err
	}
	if len(runs) == 0 {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("experiment %q: no runs in %s carry this experiment id", c.ID, db.URL)}
	}
	grid, err := report.BuildGrid(runs, compare.Options{})
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	r, err := report.NewRenderer()
	if err != nil {
		return err
	}
	if c.Output != "" {
		return r.WriteGridFile(c.Output, format, grid)
	}
	return r.RenderGrid(g.Stdout, format, grid)
}
