package main

import (
	"context"
	"fmt"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/monitor"
	"github.com/agentevals-go/agentevals/sanitize"
)

// previousWindows are the newest n earlier production windows of the
// run's monitor and agent, newest first (infrastructure failures left out).
func previousWindows(ctx context.Context, db *models.DB, run *models.Run, n int) ([]*models.Run, error) {
	ids, err := db.BaselineCandidateIDs(ctx, models.BaselineQuery{Suite: run.Suite, Agent: run.Agent,
		Before: models.Cursor{StartedAt: run.StartedAt, Sequence: run.Sequence}, SkipInfrastructureFailures: true, Kind: models.KindProduction})
	if err != nil {
		return nil, fmt.Errorf("previous windows: %w", err)
	}
	if len(ids) > n {
		ids = ids[:n]
	}
	return db.GetRuns(ctx, ids)
}

// checkDrops compares the saved window with the previous ones, prints the
// verdict, writes the drops reports and returns whether a metric fell.
func (c *ScoreTracesCmd) checkDrops(ctx context.Context, g *Globals, db *models.DB, run *models.Run) (bool, error) {
	var prev []*models.Run
	if db != nil {
		var err error
		if prev, err = previousWindows(ctx, db, run, c.Previous); err != nil {
			return false, err
		}
	}
	d := monitor.CompareWindows(run, prev, c.Alpha)
	if db == nil {
		d.Note = "not compared: --save-to and --no-save open no database to find the previous windows in"
	}
	for _, t := range d.Tests {
		if t.P == nil {
			continue
		}
		verdict := "within noise"
		if t.Alert {
			verdict = "FELL"
		}
		fmt.Fprintf(g.Stdout, "  %-28s %-9s %.3f -> %.3f  drop %+.3f  noise %.3f  p %.2g  %s\n", sanitize.EscapeText(t.Metric), t.Statistic,
			t.Previous, t.Current, t.Previous-t.Current, t.Noise, *t.P, verdict)
	}
	fmt.Fprintln(g.Stdout, sanitize.EscapeText(d.Line()))
	for _, p := range c.DropsReport {
		if err := d.WriteReport(p); err != nil {
			return false, err
		}
		fmt.Fprintf(g.Stdout, "Drops report: %s\n", sanitize.EscapeText(p))
	}
	return len(d.Alerts) > 0, nil
}
