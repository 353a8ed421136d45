package main

import (
	"context"
	"errors"
)

// ReportCmd is a placeholder until its issue lands.
type ReportCmd struct{}

// Run is not implemented yet.
func (c *ReportCmd) Run(ctx context.Context, g *Globals) error {
	return errors.New("not implemented yet")
}

// CompareCmd is a placeholder until its issue lands.
type CompareCmd struct{}

// Run is not implemented yet.
func (c *CompareCmd) Run(ctx context.Context, g *Globals) error {
	return errors.New("not implemented yet")
}
