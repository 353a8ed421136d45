package main

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/schema"
)

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
	if g.Stderr != nil {
		for _, n := range db.Notes {
			fmt.Fprintf(g.Stderr, "note: %s\n", n)
		}
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
