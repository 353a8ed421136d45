package main

import (
	"context"
	"errors"
)

// CalibrateCmd is a placeholder until its issue lands.
type CalibrateCmd struct{}

// Run is not implemented yet.
func (c *CalibrateCmd) Run(ctx context.Context, g *Globals) error {
	return errors.New("not implemented yet")
}
