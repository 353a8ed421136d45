package evaltest

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/schema"
)

// openStore opens the database runs are saved to, or returns nil when
// none is configured. SQLite files are created and migrated on first use,
// as by evalrun; PostgreSQL must already have the tables (evalrun
// db:migrate), which one catalog query checks.
func (c *config) openStore(ctx context.Context) (*models.DB, error) {
	url := c.databaseURL
	if url == "" {
		return nil, nil
	}
	if url == "default" {
		path, err := models.DefaultSQLitePath()
		if err != nil {
			return nil, fmt.Errorf("%s=default: %w", EnvDatabaseURL, err)
		}
		url = "sqlite:" + path
	}
	db, err := models.Open(ctx, url, models.OpenOptions{})
	if err != nil {
		return nil, fmt.Errorf("%s: %w", EnvDatabaseURL, err)
	}
	if db.Dialect == models.SQLite {
		if err := schema.Migrate(ctx, db); err != nil {
			db.Close()
			return nil, fmt.Errorf("%s: %w", EnvDatabaseURL, err)
		}
		return db, nil
	}
	rep, err := schema.Ready(ctx, db)
	if err != nil {
		db.Close()
		return nil, fmt.Errorf("check the evaluation tables in %s: %w", db.URL, err)
	}
	if !rep.Usable() {
		var bad []string
		for _, d := range rep.Incompatible() {
			bad = append(bad, strings.TrimSuffix(d.Table+"."+d.Column, "."))
		}
		db.Close()
		return nil, fmt.Errorf("the evaluation tables in %s are missing or incompatible (%s): run `evalrun db:migrate` "+
			"(or `evalrun db:check`) with the same database URL first", db.URL, strings.Join(bad, ", "))
	}
	return db, nil
}
