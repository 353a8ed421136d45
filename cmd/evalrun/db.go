package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"agentevals/models"
	"agentevals/schema"
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

// DBCheckCmd compares the live schema with the contract.
type DBCheckCmd struct{}

// Run prints every difference and exits 2 when one is incompatible.
func (c *DBCheckCmd) Run(ctx context.Context, g *Globals) error {
	db, err := g.connect(ctx, true)
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

// RailsMigrationCmd prints a Rails migration creating or upgrading the contract.
type RailsMigrationCmd struct {
	ClassName string `name:"class-name" default:"CreateRubyLlmEvaluations" help:"Class name of the migration; give a new one (e.g. UpgradeRubyLlmEvaluations2) when the app already has a migration of this name, since Rails refuses two migrations of one name."`
}

// Help is the command's detailed help.
func (c *RailsMigrationCmd) Help() string {
	return "The migration targets PostgreSQL only (jsonb, bigserial and uuid columns), " +
		"as the Ruby gem requires PostgreSQL; for SQLite use db:migrate. " +
		"It creates the tables that do not exist and upgrades the ones that do, each step guarded by what exists: " +
		"a 0.1-era criteria column becomes minimum_scores with every row kept, and missing columns, '{}' defaults, " +
		"indexes (recognised by their columns, not their names) and foreign keys (added without validating old rows) are added. " +
		"It is idempotent and never drops anything. Save it under db/migrate and run bin/rails db:migrate; " +
		"to upgrade an app that already ran an older version of it, save it again under a new timestamp with a new --class-name. " +
		"It coexists with the gem's own ruby_llm_evaluations:install:migrations: whichever runs first creates the tables, " +
		"the other finds them and adds only what is missing."
}

// Run prints the migration; it needs no database.
func (c *RailsMigrationCmd) Run(g *Globals) error {
	if !schema.ValidRubyClass(c.ClassName) {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--class-name %q: want a Ruby class name (a capital letter, then letters, digits or _)", c.ClassName)}
	}
	_, err := io.WriteString(g.Stdout, schema.RailsMigrationNamed(c.ClassName))
	return err
}

// errNoDatabase is matched (errors.Is) by the error Globals.open returns
// for a read-only open of the embedded default database before any run
// created it: history shows that as an empty history, the commands that need
// a run exit 2 saying there is none yet.
var errNoDatabase = errors.New("no runs yet")

// noDatabaseError says that the embedded default database does not exist.
type noDatabaseError struct {
	Path string
}

func (e *noDatabaseError) Error() string {
	return fmt.Sprintf("no runs yet: the default database %s does not exist (`evalrun run SUITE` creates it, or pass --database-url)", e.Path)
}

// Is makes errors.Is(err, errNoDatabase) hold.
func (e *noDatabaseError) Is(target error) bool { return target == errNoDatabase }

// missingDefault returns the path of the embedded default database when err
// says it does not exist yet.
func missingDefault(err error) (path string, ok bool) {
	var nd *noDatabaseError
	if errors.As(err, &nd) {
		return nd.Path, true
	}
	return "", false
}

// open opens the database named by --database-url/DATABASE_URL, or the
// embedded default SQLite file, for a command that reads or writes runs.
// PostgreSQL is never migrated here: that is db:migrate's job. SQLite files
// are ours alone (the Ruby gem requires PostgreSQL), so a writable SQLite
// database is created and migrated on first use; read-only opens never
// migrate. Before returning, one catalog query makes sure the evaluation
// tables are there (and usable), so no command fails later with a bare
// "relation does not exist".
func (g *Globals) open(ctx context.Context, readOnly bool) (*models.DB, error) {
	db, err := g.connect(ctx, readOnly)
	if err != nil {
		return nil, err
	}
	if !readOnly && db.Dialect == models.SQLite {
		return db, nil // just migrated
	}
	if err := requireTables(ctx, db, readOnly); err != nil {
		db.Close()
		return nil, err
	}
	return db, nil
}

// connect opens the database like open, without checking its tables: for
// db:migrate, which creates them, and db:check, which reports on them.
func (g *Globals) connect(ctx context.Context, readOnly bool) (*models.DB, error) {
	opts := models.OpenOptions{ReadOnly: readOnly, ConnectTimeout: noLimit(g.ConnectTimeout), StatementTimeout: noLimit(g.StatementTimeout)}
	url := g.DatabaseURL
	if url == "" {
		path, err := models.DefaultSQLitePath()
		if err != nil {
			return nil, err
		}
		if readOnly {
			if _, err := os.Stat(path); errors.Is(err, fs.ErrNotExist) {
				return nil, &noDatabaseError{Path: path}
			}
		} else if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil { // the embedded default only
			return nil, fmt.Errorf("create the default database's directory: %w", err)
		}
		url = "sqlite:" + path
	}
	db, err := models.Open(ctx, url, opts)
	if errors.Is(err, models.ErrNoSQLiteDatabase) {
		return nil, fmt.Errorf("%w (`evalrun db:migrate` or `evalrun run` with the same database URL creates it)", err)
	}
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

// requireTables fails when evaluation tables or columns are missing, naming
// the command that fixes it. Writers also refuse incompatible columns;
// readers only missing ones, since the other incompatibilities (an extra
// NOT NULL column, say) break inserts, not reads.
func requireTables(ctx context.Context, db *models.DB, readOnly bool) error {
	rep, err := schema.Ready(ctx, db)
	if err != nil {
		return fmt.Errorf("check the evaluation tables in %s: %w", db.URL, err)
	}
	var missing, bad []string
	for _, d := range rep.Differences {
		blocks := !d.Compatible && (!readOnly || d.Problem == schema.MissingColumn)
		switch {
		case d.Problem == schema.MissingTable:
			missing = append(missing, d.Table)
		case blocks:
			bad = append(bad, d.Table+"."+d.Column)
		}
	}
	if len(missing) > 0 {
		why := ""
		if db.Dialect == models.PostgreSQL {
			why = " (evalrun never creates tables in PostgreSQL implicitly)"
		}
		return fmt.Errorf("the evaluation tables are missing from %s (%s): run `evalrun db:migrate` with the same "+
			"database URL first%s", db.URL, strings.Join(missing, ", "), why)
	}
	if len(bad) > 0 {
		return fmt.Errorf("the evaluation tables in %s have incompatible columns (%s): `evalrun db:check` says what "+
			"differs and how to fix it", db.URL, strings.Join(bad, ", "))
	}
	return nil
}

// noLimit maps a flag's 0 ("no limit") to models.OpenOptions' negative
// value; models reads 0 as "the default".
func noLimit(d time.Duration) time.Duration {
	if d == 0 {
		return -1
	}
	return d
}

// saveWait is --save-wait as SaveRun reads it (negative: one attempt).
func (g *Globals) saveWait() time.Duration {
	if g.SaveWait <= 0 {
		return 0
	}
	return g.SaveWait
}

// saveOptions are the retry options of a save under --save-wait.
func (g *Globals) saveOptions(onRetry func(attempt int, wait time.Duration, err error)) models.SaveOptions {
	return models.SaveOptions{MaxWait: noLimit(g.saveWait()), OnRetry: onRetry}
}
