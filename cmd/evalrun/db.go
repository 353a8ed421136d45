package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"strings"

	"agentevals/models"
	"agentevals/schema"
)

// MigrateCmd creates or upgrades the evaluation tables.
type MigrateCmd struct{}

// Run migrates the database named by --database-url (or the default file).
func (c *MigrateCmd) Run(ctx context.Context, g *Globals) error {
	db, err := g.open(ctx, false)
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

// CheckCmd compares the live schema with the contract.
type CheckCmd struct{}

// Run prints every difference and exits 2 when one is incompatible.
func (c *CheckCmd) Run(ctx context.Context, g *Globals) error {
	db, err := g.open(ctx, true)
	if err != nil {
		return err
	}
	defer db.Close()
	rep, err := schema.Check(ctx, db)
	if err != nil {
		return err
	}
	if err := rep.Write(g.Stdout); err != nil {
		return err
	}
	if bad := rep.Incompatible(); len(bad) > 0 {
		names := make([]string, len(bad))
		for i, d := range bad {
			names[i] = d.Table
			if d.Column != "" {
				names[i] += "." + d.Column
			}
		}
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("schema not usable: %s", strings.Join(names, ", "))}
	}
	return nil
}

// RailsMigrationCmd prints a Rails migration creating the contract.
type RailsMigrationCmd struct{}

// Run prints the migration; it needs no database.
func (c *RailsMigrationCmd) Run(g *Globals) error {
	_, err := io.WriteString(g.Stdout, schema.RailsMigration())
	return err
}

// open opens the database named by --database-url/DATABASE_URL, or the
// embedded default SQLite file. PostgreSQL is never migrated here: that is
// db:migrate's job. SQLite files are ours alone (the Ruby gem requires
// PostgreSQL), so a writable SQLite database is created and migrated on
// first use; read-only opens never migrate.
func (g *Globals) open(ctx context.Context, readOnly bool) (*models.DB, error) {
	opts := models.OpenOptions{ReadOnly: readOnly}
	url := g.DatabaseURL
	if url == "" {
		path, err := models.DefaultSQLitePath()
		if err != nil {
			return nil, err
		}
		if readOnly {
			if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				return nil, fmt.Errorf("no evaluation history yet: the default database %s does not exist (evalrun run creates it, or pass --database-url)", path)
			}
		}
		url = "sqlite:" + path
	}
	db, err := models.Open(ctx, url, opts)
	if err != nil {
		return nil, err
	}
	if readOnly || db.Dialect != models.SQLite {
		return db, nil
	}
	if err := schema.Migrate(ctx, db); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}
