package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"

	"agentevals/models"
	"agentevals/schema"
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
