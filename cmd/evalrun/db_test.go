package main

import (
	"context"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/schema"
)

func TestDBMigrateThenCheckOnPostgres(t *testing.T) {
	url := testdb.PostgresURL(t)
	t.Setenv("DATABASE_URL", "")

	// PostgreSQL is never migrated implicitly: db:check on an empty schema fails.
	code, out, stderr := evalrun(t, "--database-url", url, "db:check")
	if code != exitInvalid || !strings.Contains(out, "missing table") {
		t.Fatalf("db:check on an empty schema: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = evalrun(t, "--database-url", url, "db:migrate")
	if code != exitOK || !strings.Contains(out, "up to date") {
		t.Fatalf("db:migrate: exit %d\n%s%s", code, out, stderr)
	}
	code, out, stderr = evalrun(t, "--database-url", url, "db:check")
	if code != exitOK || !strings.Contains(out, "Usable") {
		t.Fatalf("db:check after db:migrate: exit %d\n%s%s", code, out, stderr)
	}

	db, err := models.Open(context.Background(), url, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), "ALTER TABLE ruby_llm_evaluations_metric_results DROP COLUMN threshold"); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = evalrun(t, "--database-url", url, "db:check")
	if code != exitInvalid {
		t.Fatalf("db:check after dropping a contract column: exit %d, want 2\n%s%s", code, out, stderr)
	}
	if !strings.Contains(out, "INCOMPATIBLE missing column threshold") ||
		!strings.Contains(stderr, "ruby_llm_evaluations_metric_results.threshold") {
		t.Errorf("db:check does not name the dropped column:\n%s%s", out, stderr)
	}
}

func TestDBCheckThroughDatabaseURLEnv(t *testing.T) {
	url := testdb.PostgresURL(t)
	t.Setenv("DATABASE_URL", url)
	if code, out, stderr := evalrun(t, "db:migrate"); code != exitOK {
		t.Fatalf("db:migrate: exit %d\n%s%s", code, out, stderr)
	}
	if code, out, stderr := evalrun(t, "db:check"); code != exitOK || !strings.Contains(out, models.Redact(url)) {
		t.Fatalf("db:check: exit %d\n%s%s", code, out, stderr)
	}
}

func TestDefaultDatabaseIsCreatedAndMigratedOnFirstUse(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	t.Setenv("DATABASE_URL", "")
	path := filepath.Join(dir, "agentevals", "evaluations.sqlite3")

	g := &Globals{}
	ctx := context.Background()
	if _, err := g.open(ctx, true); err == nil || !strings.Contains(err.Error(), path) {
		t.Errorf("read-only open of a missing default database: %v, want an error naming %s", err, path)
	}
	if _, err := os.Stat(path); err == nil {
		t.Fatalf("a read-only open created %s", path)
	}
	db, err := g.open(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if db.Dialect != models.SQLite || db.URL != "sqlite:"+path {
		t.Errorf("default database is %s %s, want sqlite:%s", db.Dialect, db.URL, path)
	}
	run := &models.Run{Suite: "s", Agent: "a", Version: "1", SuiteDigest: "d", StartedAt: time.Now(), FinishedAt: time.Now()}
	if err := db.InsertRun(ctx, run); err != nil {
		t.Fatalf("insert into the default database: %v", err)
	}
	ro, err := g.open(ctx, true)
	if err != nil {
		t.Fatal(err)
	}
	defer ro.Close()
	if _, err := ro.GetRun(ctx, run.ID); err != nil {
		t.Errorf("read back through a read-only open: %v", err)
	}
	if code, out, stderr := evalrun(t, "db:check"); code != exitOK {
		t.Errorf("db:check of the default database: exit %d\n%s%s", code, out, stderr)
	}
}

func TestPostgresIsNeverMigratedImplicitly(t *testing.T) {
	url := testdb.PostgresURL(t)
	_, err := (&Globals{DatabaseURL: url}).open(context.Background(), false)
	if err == nil || !strings.Contains(err.Error(), "run `evalrun db:migrate`") {
		t.Fatalf("opening an empty PostgreSQL schema for writing: %v, want an error naming db:migrate", err)
	}
	db, err := models.Open(context.Background(), url, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	rep, err := schema.Check(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	if rep.Usable() {
		t.Error("opening PostgreSQL for writing created the tables")
	}
}

// TestOpen_UnmigratedPostgres runs every command that reads runs on an
// empty PostgreSQL schema: each exits 2 naming the redacted URL, the
// missing tables and db:migrate, never a raw "relation does not exist".
// A contract column dropped later points at db:check.
func TestOpen_UnmigratedPostgres(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	url := testdb.PostgresURL(t)
	labels := filepath.Join(t.TempDir(), "labels.jsonl")
	if err := os.WriteFile(labels, []byte(`{"case_id":"q","metric":"exact","pass":true}`+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	id := "0192f0c4-0000-7000-8000-000000000000"
	commands := [][]string{
		{"history"},
		{"report"},
		{"compare", id, id},
		{"calibrate", id, "--labels", labels},
	}
	for _, args := range commands {
		code, out, stderr := evalrun(t, append([]string{"--database-url", url}, args...)...)
		if code != exitInvalid || !strings.Contains(stderr, "the evaluation tables are missing from "+models.Redact(url)) ||
			!strings.Contains(stderr, "run `evalrun db:migrate`") || strings.Contains(stderr, "SQLSTATE") {
			t.Errorf("%s on an empty schema: exit %d, want 2 naming the missing tables and db:migrate\n%s%s", args[0], code, out, stderr)
		}
	}

	if code, out, stderr := evalrun(t, "--database-url", url, "db:migrate"); code != exitOK {
		t.Fatalf("db:migrate: exit %d\n%s%s", code, out, stderr)
	}
	if code, out, stderr := evalrun(t, "--database-url", url, "history"); code != exitOK {
		t.Fatalf("history after db:migrate: exit %d\n%s%s", code, out, stderr)
	}
	db, err := models.Open(context.Background(), url, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if _, err := db.ExecContext(context.Background(), "ALTER TABLE ruby_llm_evaluations_metric_results DROP COLUMN reason"); err != nil {
		t.Fatal(err)
	}
	for _, args := range commands {
		code, out, stderr := evalrun(t, append([]string{"--database-url", url}, args...)...)
		if code != exitInvalid || !strings.Contains(stderr, "incompatible columns (ruby_llm_evaluations_metric_results.reason)") ||
			!strings.Contains(stderr, "`evalrun db:check`") {
			t.Errorf("%s with a dropped column: exit %d, want 2 naming the column and db:check\n%s%s", args[0], code, out, stderr)
		}
	}
}

// TestOpen_MissingDefaultDatabase: before any run created the embedded
// default database, a read-only open says so with errNoDatabase (history
// shows an empty history), and the commands that need a run exit 2 saying
// there is none yet, without creating the file.
func TestOpen_MissingDefaultDatabase(t *testing.T) {
	dir := t.TempDir()
	t.Setenv("XDG_DATA_HOME", dir)
	t.Setenv("DATABASE_URL", "")
	path := filepath.Join(dir, "agentevals", "evaluations.sqlite3")

	_, err := (&Globals{}).open(context.Background(), true)
	if got, ok := missingDefault(err); !ok || got != path || !errors.Is(err, errNoDatabase) {
		t.Errorf("read-only open of the missing default database: %v, want errNoDatabase for %s", err, path)
	}
	id := "0192f0c4-0000-7000-8000-000000000000"
	for _, args := range [][]string{{"report"}, {"report", id}, {"compare", id, id}} {
		code, out, stderr := evalrun(t, args...)
		if code != exitInvalid || !strings.Contains(stderr, "no runs yet") || !strings.Contains(stderr, path) {
			t.Errorf("%v without a default database: exit %d, want 2 saying no runs yet\n%s%s", args, code, out, stderr)
		}
	}
	code, out, stderr := evalrun(t, "history")
	if code != exitOK || !strings.Contains(out, "No runs yet (no database at "+path) {
		t.Errorf("history without a default database: exit %d, want 0 with an empty history\n%s%s", code, out, stderr)
	}
	if _, err := os.Stat(path); err == nil {
		t.Errorf("a read-only command created %s", path)
	}
	if _, ok := missingDefault(errors.New("other")); ok {
		t.Error("missingDefault matched an unrelated error")
	}
}

func TestDBRailsMigration(t *testing.T) {
	code, out, stderr := evalrun(t, "db:rails-migration")
	if code != exitOK {
		t.Fatalf("exit %d: %s", code, stderr)
	}
	for _, want := range []string{"class CreateRubyLlmEvaluations < ActiveRecord::Migration[6.1]",
		"create_table :ruby_llm_evaluations_runs, id: :uuid", "t.bigserial :sequence, null: false",
		"t.jsonb :minimum_scores", "t.decimal :cost", "index_ruby_llm_evaluations_metric_results_on_case_and_position"} {
		if !strings.Contains(out, want) {
			t.Errorf("migration lacks %q", want)
		}
	}
}

// TestDBCheck_MissingSQLiteFile: db:check and read-only commands name the
// missing file instead of "unable to open database file (14)", and never
// create it.
func TestDBCheck_MissingSQLiteFile(t *testing.T) {
	t.Setenv("DATABASE_URL", "")
	for _, args := range [][]string{{"db:check"}, {"history"}, {"report"}} {
		t.Run(args[0], func(t *testing.T) {
			path := filepath.Join(t.TempDir(), "nonexist.sqlite3")
			code, out, stderr := evalrun(t, append([]string{"--database-url", "sqlite:" + path}, args...)...)
			if code != exitInvalid || !strings.Contains(stderr, "no SQLite database at "+path) || strings.Contains(stderr, "(14)") {
				t.Errorf("exit %d, want 2 saying there is no SQLite database at %s\n%s%s", code, path, out, stderr)
			}
			if _, err := os.Stat(path); err == nil {
				t.Errorf("%s created %s", args[0], path)
			}
		})
	}
}
