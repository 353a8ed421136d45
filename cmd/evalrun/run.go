package main

import (
	"context"
	"errors"
)

// RunCmd is a placeholder until its issue lands.
type RunCmd struct{}

// Run is not implemented yet.
func (c *RunCmd) Run(ctx context.Context, g *Globals) error { return errors.New("not implemented yet") }

// ValidateCmd is a placeholder until its issue lands.
type ValidateCmd struct{}

// Run is not implemented yet.
func (c *ValidateCmd) Run(ctx context.Context, g *Globals) error {
	return errors.New("not implemented yet")
}

// SchemaCmd is a placeholder until its issue lands.
type SchemaCmd struct{}

// Run is not implemented yet.
func (c *SchemaCmd) Run(ctx context.Context, g *Globals) error {
	return errors.New("not implemented yet")
}

// HistoryCmd is a placeholder until its issue lands.
type HistoryCmd struct{}

// Run is not implemented yet.
func (c *HistoryCmd) Run(ctx context.Context, g *Globals) error {
	return errors.New("not implemented yet")
}
