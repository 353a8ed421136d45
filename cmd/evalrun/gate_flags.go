package main

import (
	"context"

	"agentevals/models"
)

// GateFlags choose the baseline, the regression gate and the reports written
// after a run (issue 5 fills this in).
type GateFlags struct{}

// resolveBaseline finds the baseline of the planned run before any agent is
// called: planned carries suite, agent, version, digest and each case's
// definition columns; calculated is the sorted set of metric names that will
// be calculated. An explicit --baseline that is missing or incompatible is an
// error (exit 2). A nil run means there is no baseline.
func (f *GateFlags) resolveBaseline(ctx context.Context, db *models.DB, planned *models.Run, calculated []string) (*models.Run, error) {
	return nil, nil
}

// finish compares the saved run with its baseline, writes the requested
// reports and says whether a regression must fail the gate.
func (f *GateFlags) finish(ctx context.Context, g *Globals, run, baseline *models.Run) (gateFailed bool, err error) {
	return false, nil
}
