// Package schema creates and checks the evaluation-history tables shared
// with the Ruby gem: migrations per dialect, the live-schema contract check
// and the Rails migration text.
//
// Migrations are Go steps recorded in a ledger table of our own
// (agentevals_schema_migrations), not bun/migrate: bun/migrate locks with a
// row in a table, so a second process migrating at the same time fails
// instead of waiting and a crashed process leaves the lock behind, and its Go
// migrations do not run in a transaction. Here every Migrate call is one
// transaction that first takes a lock the database releases by itself
// (pg_advisory_xact_lock on PostgreSQL, BEGIN IMMEDIATE on SQLite), so the
// steps and their ledger rows commit together or not at all, and concurrent
// first uses of the embedded SQLite file wait for each other.
//
// Every step inspects the live schema before it changes anything, so it is
// safe over tables that the Ruby gem (or a Rails migration) created: existing
// tables, columns and rows are kept, indexes are recognised by their columns
// rather than their names, and nothing is ever dropped or rewritten.
package schema

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"

	"github.com/agentevals-go/agentevals/models"
)

// LedgerTable records which migration steps have been applied.
const LedgerTable = "agentevals_schema_migrations"

// step is one migration step. Steps are idempotent: each inspects the live
// schema and only adds what is missing.
type step struct {
	version string
	up      func(ctx context.Context, in introspector) error
	// always makes the step run on every Migrate, not only the first time:
	// it completes whatever the contract needs and the live schema lacks
	// (a table, a nullable column or an index dropped or never created).
	always bool
}

// steps are applied in order; versions never change once released.
var steps = []step{
	// 0.1-era case results have "criteria" where 0.2 has "minimum_scores".
	// It runs before the tables step, which would otherwise add an empty
	// minimum_scores column next to the old one. It runs on every Migrate:
	// a 0.1-era table can appear after the step was recorded (recreated by
	// an old Rails migration), and a table holding both columns must have
	// its values copied even when the ledger says the step was applied.
	{version: "20261201000001_rename_criteria_to_minimum_scores", up: upgradeCriteria, always: true},
	{version: "20261201000002_create_evaluation_tables", up: createTables, always: true},
}

// Migrate creates or upgrades the contract tables of docs/architecture.md and records
// its progress in the ledger table. It is idempotent and safe to run
// concurrently; over tables someone else created it keeps every row.
func Migrate(ctx context.Context, db *models.DB) error {
	if err := migrate(ctx, db); err != nil {
		return fmt.Errorf("migrate %s: %w", db.URL, err)
	}
	return nil
}

func migrate(ctx context.Context, db *models.DB) error {
	switch db.Dialect {
	case models.PostgreSQL:
		return db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			// One lock per schema: tests and tenants in other schemas do not wait.
			if _, err := tx.ExecContext(ctx, "SELECT pg_advisory_xact_lock(hashtext('agentevals.migrate.' || current_schema()))"); err != nil {
				return fmt.Errorf("lock: %w", err)
			}
			return applySteps(ctx, introspector{db: tx, dialect: db.Dialect})
		})
	case models.SQLite:
		conn, err := db.Conn(ctx)
		if err != nil {
			return err
		}
		defer conn.Close()
		return inImmediateTx(ctx, conn, func(ctx context.Context) error {
			return applySteps(ctx, introspector{db: conn, dialect: db.Dialect})
		})
	default:
		return fmt.Errorf("unsupported dialect %q", db.Dialect)
	}
}

// execer is the part of a connection inImmediateTx needs.
type execer interface {
	// ExecContext runs a statement that returns no rows.
	ExecContext(ctx context.Context, query string, args ...any) (sql.Result, error)
}

var _ execer = bun.Conn{}

// inImmediateTx runs fn in a SQLite transaction on conn. BEGIN IMMEDIATE
// takes the write lock now, so two first uses of the same file run one
// after the other (busy_timeout makes them wait). Whatever fails, fn or
// COMMIT (a deferred constraint, a cancelled ctx), the transaction is
// rolled back, so conn goes back to the pool without an open transaction
// holding the write lock.
func inImmediateTx(ctx context.Context, conn execer, fn func(ctx context.Context) error) error {
	if _, err := conn.ExecContext(ctx, "BEGIN IMMEDIATE"); err != nil {
		return fmt.Errorf("lock: %w", err)
	}
	if err := fn(ctx); err != nil {
		_, rbErr := conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		return errors.Join(err, rbErr)
	}
	if _, err := conn.ExecContext(ctx, "COMMIT"); err != nil {
		_, rbErr := conn.ExecContext(context.WithoutCancel(ctx), "ROLLBACK")
		return errors.Join(fmt.Errorf("commit: %w", err), rbErr)
	}
	return nil
}

func applySteps(ctx context.Context, in introspector) error {
	ts := "timestamp(6) without time zone"
	if in.dialect == models.SQLite {
		ts = "datetime"
	}
	if _, err := in.db.ExecContext(ctx, fmt.Sprintf(
		"CREATE TABLE IF NOT EXISTS %s (version varchar(255) PRIMARY KEY NOT NULL, applied_at %s NOT NULL)",
		quoteIdent(LedgerTable), ts)); err != nil {
		return fmt.Errorf("create %s: %w", LedgerTable, err)
	}
	applied := map[string]bool{}
	rows, err := in.db.QueryContext(ctx, "SELECT version FROM "+quoteIdent(LedgerTable))
	if err != nil {
		return fmt.Errorf("read %s: %w", LedgerTable, err)
	}
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			rows.Close()
			return fmt.Errorf("read %s: %w", LedgerTable, err)
		}
		applied[v] = true
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return fmt.Errorf("read %s: %w", LedgerTable, err)
	}
	for _, s := range steps {
		if applied[s.version] && !s.always {
			continue
		}
		if err := s.up(ctx, in); err != nil {
			return fmt.Errorf("step %s: %w", s.version, err)
		}
		if applied[s.version] {
			continue
		}
		if _, err := in.db.ExecContext(ctx, "INSERT INTO "+quoteIdent(LedgerTable)+" (version, applied_at) VALUES (?, ?)",
			s.version, models.UTC(time.Now())); err != nil {
			return fmt.Errorf("record step %s: %w", s.version, err)
		}
	}
	return nil
}

// upgradeCriteria renames a 0.1-era "criteria" column to "minimum_scores"
// in place, keeping every row and value. When both columns exist (a
// half-upgraded table), criteria is copied into the rows whose
// minimum_scores is empty (SQL NULL, JSON null or {}) and whose criteria is
// not; a non-empty minimum_scores is never overwritten and "criteria" is
// kept. Both are idempotent, so the step is safe on every Migrate.
func upgradeCriteria(ctx context.Context, in introspector) error {
	table := models.CaseResultsTable
	exists, err := in.tableExists(ctx, table)
	if err != nil || !exists {
		return err
	}
	cols, err := in.columns(ctx, table)
	if err != nil {
		return err
	}
	types := map[string]string{}
	for _, c := range cols {
		types[c.Name] = c.Type
	}
	criteriaType, hasCriteria := types["criteria"]
	scoresType, hasScores := types["minimum_scores"]
	switch {
	case !hasCriteria:
		return nil
	case !hasScores:
		_, err = in.db.ExecContext(ctx, fmt.Sprintf("ALTER TABLE %s RENAME COLUMN criteria TO minimum_scores", quoteIdent(table)))
	default:
		value := "criteria"
		if in.dialect == models.PostgreSQL && criteriaType != scoresType {
			// e.g. json into jsonb: no assignment cast, but text converts.
			value = fmt.Sprintf("CAST(CAST(criteria AS text) AS %s)", scoresType)
		}
		_, err = in.db.ExecContext(ctx, fmt.Sprintf("UPDATE %s SET minimum_scores = %s WHERE %s AND NOT %s",
			quoteIdent(table), value, emptyJSON(in.dialect, "minimum_scores"), emptyJSON(in.dialect, "criteria")))
	}
	if err != nil {
		return fmt.Errorf("upgrade criteria to minimum_scores: %w", err)
	}
	return nil
}

// emptyJSON is a condition true when a JSON column holds no thresholds:
// SQL NULL, JSON null or an empty object.
func emptyJSON(d models.Dialect, col string) string {
	text := col
	if d == models.PostgreSQL {
		text = fmt.Sprintf("CAST(%s AS text)", col)
	}
	return fmt.Sprintf("(%s IS NULL OR replace(%s, ' ', '') IN ('null', '{}'))", col, text)
}

// createTables creates missing contract tables with their indexes and
// foreign keys. Existing tables are kept: missing columns that can be added
// without touching rows (nullable or with a default) are added, on
// PostgreSQL missing '{}' defaults are restored and missing foreign keys
// added NOT VALID (see addForeignKeys), and missing indexes are created
// unless an index on the same columns exists under another name.
func createTables(ctx context.Context, in introspector) error {
	for _, t := range Contract() {
		exists, err := in.tableExists(ctx, t.Name)
		if err != nil {
			return err
		}
		if !exists {
			if _, err := in.db.ExecContext(ctx, createTableSQL(in.dialect, t)); err != nil {
				return fmt.Errorf("create table %s: %w", t.Name, err)
			}
		} else if err := completeTable(ctx, in, t); err != nil {
			return err
		}
		live, err := in.indexes(ctx, t.Name)
		if err != nil {
			return err
		}
		for _, ix := range t.Indexes {
			if hasIndexOn(live, ix.Columns, ix.Unique) {
				continue
			}
			if _, err := in.db.ExecContext(ctx, createIndexSQL(t, ix)); err != nil {
				return fmt.Errorf("create index %s: %w", ix.Name, err)
			}
		}
	}
	return nil
}

// completeTable adds to an existing table what the contract has and it
// lacks, without touching a row: columns, JSON defaults, foreign keys.
func completeTable(ctx context.Context, in introspector, t Table) error {
	if err := addMissingColumns(ctx, in, t); err != nil {
		return err
	}
	if err := restoreJSONDefaults(ctx, in, t); err != nil {
		return err
	}
	return addForeignKeys(ctx, in, t)
}

func addMissingColumns(ctx context.Context, in introspector, t Table) error {
	live, err := in.columns(ctx, t.Name)
	if err != nil {
		return err
	}
	has := map[string]bool{}
	for _, c := range live {
		has[c.Name] = true
	}
	for _, c := range t.Columns {
		if has[c.Name] || c.PrimaryKey || c.Generated || c.References != "" {
			continue
		}
		if c.NotNull && c.JSONDefault == "" {
			continue // cannot be added over existing rows; db:check reports it
		}
		stmt := fmt.Sprintf("ALTER TABLE %s ADD COLUMN %s", quoteIdent(t.Name), columnDDL(in.dialect, c))
		if _, err := in.db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("add column %s.%s: %w", t.Name, c.Name, err)
		}
	}
	return nil
}
