package main

import (
	"context"
	"errors"

	"agentevals/models"
)

// MigrateCmd is a placeholder until its issue lands.
type MigrateCmd struct{}

// Run is not implemented yet.
func (c *MigrateCmd) Run(ctx context.Context, g *Globals) error {
	return errors.New("not implemented yet")
}

// CheckCmd is a placeholder until its issue lands.
type CheckCmd struct{}

// Run is not implemented yet.
func (c *CheckCmd) Run(ctx context.Context, g *Globals) error {
	return errors.New("not implemented yet")
}

// RailsMigrationCmd is a placeholder until its issue lands.
type RailsMigrationCmd struct{}

// Run is not implemented yet.
func (c *RailsMigrationCmd) Run(ctx context.Context, g *Globals) error {
	return errors.New("not implemented yet")
}

// open opens the database named by --database-url/DATABASE_URL, or the
// embedded default SQLite file (created and migrated on first use).
func (g *Globals) open(ctx context.Context, readOnly bool) (*models.DB, error) {
	return nil, errors.New("not implemented yet")
}
