package main

import (
	"context"
	"fmt"

	"github.com/agentevals-go/agentevals/schema"
)

// MigrateCmd creates or upgrades the evaluation tables.
type MigrateCmd struct{}

// Run migrates the database named by --database-url (or the default file).
func (c *MigrateCmd) Run(ctx context.Context, g *Globals) error {
	db, err := g.connect(ctx, false)
	if err != nil {
		return err
	}
	defer db.Close()
	if err := schema.Migrate(ctx, db); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "Migrated %s: the evaluation tables are up to date.\n", db.URL)
	return nil
}
