// Package testdb gives tests real databases: an isolated schema in
// PostgreSQL (TEST_DATABASE_URL, else a throwaway server started from the
// installed PostgreSQL binaries and shared by every test process of the
// machine) and migrated SQLite files. Missing infrastructure fails the test
// loudly with the command that fixes it; nothing skips.
package testdb

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"net/url"
	"path/filepath"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/schema"
)

// Postgres returns a migrated database in a fresh PostgreSQL schema that is
// dropped when the test ends.
func Postgres(tb testing.TB) *models.DB {
	tb.Helper()
	db := open(tb, PostgresURL(tb))
	migrate(tb, db)
	return db
}

// SQLite returns a migrated database in a temporary SQLite file.
func SQLite(tb testing.TB) *models.DB {
	tb.Helper()
	db := open(tb, SQLiteURL(tb))
	migrate(tb, db)
	return db
}

// SQLiteURL returns the URL of a fresh, empty SQLite file in a temp dir.
func SQLiteURL(tb testing.TB) string {
	tb.Helper()
	return "sqlite:" + filepath.Join(tb.TempDir(), "evaluations.sqlite3")
}

// PostgresURL returns the URL of a fresh, empty PostgreSQL schema (selected
// through search_path) that is dropped when the test ends.
func PostgresURL(tb testing.TB) string {
	tb.Helper()
	base := ServerURL(tb)
	name := "t_" + randomHex(tb, 8)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, base)
	if err != nil {
		tb.Fatalf("testdb: connect to %s: %v", models.Redact(base), err)
	}
	defer conn.Close(ctx)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{name}.Sanitize()); err != nil {
		tb.Fatalf("testdb: create schema %s: %v (the test role needs CREATE on the database)", name, err)
	}
	tb.Cleanup(func() {
		ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
		defer cancel()
		conn, err := pgx.Connect(ctx, base)
		if err != nil {
			tb.Errorf("testdb: drop schema %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA "+pgx.Identifier{name}.Sanitize()+" CASCADE"); err != nil {
			tb.Errorf("testdb: drop schema %s: %v", name, err)
		}
	})
	return withSearchPath(tb, base, name)
}

// withSearchPath adds search_path=schema to a postgres URL.
func withSearchPath(tb testing.TB, base, schemaName string) string {
	u, err := url.Parse(base)
	if err != nil {
		tb.Fatalf("testdb: parse %s: %v", models.Redact(base), err)
	}
	q := u.Query()
	q.Set("search_path", schemaName)
	u.RawQuery = q.Encode()
	return u.String()
}

func open(tb testing.TB, u string) *models.DB {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := models.Open(ctx, u, models.OpenOptions{})
	if err != nil {
		tb.Fatalf("testdb: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}

func migrate(tb testing.TB, db *models.DB) {
	tb.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 60*time.Second)
	defer cancel()
	if err := schema.Migrate(ctx, db); err != nil {
		tb.Fatalf("testdb: migrate %s: %v", db.URL, err)
	}
}

func randomHex(tb testing.TB, n int) string {
	b := make([]byte, n)
	if _, err := rand.Read(b); err != nil {
		tb.Fatalf("testdb: random: %v", err)
	}
	return hex.EncodeToString(b)
}

// fail is the message for missing PostgreSQL.
func fail(tb testing.TB, format string, args ...any) {
	tb.Helper()
	tb.Fatalf("testdb: %s\nfix: set TEST_DATABASE_URL to a PostgreSQL database whose role may create schemas, "+
		"or install the server with `apt-get install -y postgresql` (tests start a throwaway server from /usr/lib/postgresql/*/bin as the postgres user)",
		fmt.Sprintf(format, args...))
}
