package schema_test

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/schema"
)

// constraintDiffs lists the default and foreign key differences of a
// report as "problem table.column", sorted, and fails on any of them that
// is classified incompatible.
func constraintDiffs(t *testing.T, rep *schema.Report) []string {
	t.Helper()
	var out []string
	for _, d := range rep.Differences {
		switch d.Problem {
		case schema.MissingDefault, schema.DifferentDefault, schema.MissingForeignKey, schema.UnvalidatedForeignKey:
		default:
			continue
		}
		if !d.Compatible {
			t.Errorf("%s %s.%s classified incompatible: %s", d.Problem, d.Table, d.Column, d.Why)
		}
		out = append(out, string(d.Problem)+" "+strings.TrimPrefix(d.Table, "ruby_llm_evaluations_")+"."+d.Column)
	}
	sort.Strings(out)
	return out
}

// pgForeignKeyNames reads the names of a table's foreign keys from the
// catalog, so that the test can drop them whatever Migrate called them.
func pgForeignKeyNames(t *testing.T, db *models.DB, table string) []string {
	t.Helper()
	var names []string
	err := db.NewSelect().TableExpr("pg_constraint c").
		Join("JOIN pg_class r ON r.oid = c.conrelid").
		Join("JOIN pg_namespace n ON n.oid = r.relnamespace").
		ColumnExpr("c.conname").
		Where("c.contype = 'f' AND n.nspname = current_schema() AND r.relname = ?", table).
		Scan(context.Background(), &names)
	if err != nil {
		t.Fatal(err)
	}
	return names
}

func pgColumnDefault(t *testing.T, db *models.DB, table, column string) string {
	t.Helper()
	var def *string
	err := db.QueryRowContext(context.Background(), `SELECT column_default FROM information_schema.columns
WHERE table_schema = current_schema() AND table_name = ? AND column_name = ?`, table, column).Scan(&def)
	if err != nil {
		t.Fatal(err)
	}
	if def == nil {
		return ""
	}
	return *def
}

func TestCheckAndMigrateRestoreDefaultsAndForeignKeysOnPostgres(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := open(t, testdb.PostgresURL(t))
	if err := schema.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	exec(t, db,
		"ALTER TABLE ruby_llm_evaluations_runs ALTER COLUMN metadata DROP DEFAULT",
		"ALTER TABLE ruby_llm_evaluations_runs ALTER COLUMN summary DROP DEFAULT",
		"ALTER TABLE ruby_llm_evaluations_case_results ALTER COLUMN metadata DROP DEFAULT")
	for _, table := range []string{models.CaseResultsTable, models.MetricResultsTable} {
		for _, name := range pgForeignKeyNames(t, db, table) {
			exec(t, db, "ALTER TABLE "+table+" DROP CONSTRAINT "+name)
		}
	}
	// An orphan case written while the key was gone: NOT VALID leaves it be.
	orphan := "INSERT INTO ruby_llm_evaluations_case_results (run_id, position, case_id, name, status, duration_ms, metadata, created_at, updated_at) " +
		"VALUES ('" + uuid.NewString() + "', 0, 'q', 'q', 'passed', 1, '{}', now(), now())"
	exec(t, db, orphan)

	rep := check(t, db)
	want := []string{
		"missing default case_results.metadata",
		"missing default runs.metadata",
		"missing default runs.summary",
		"missing foreign key case_results.run_id",
		"missing foreign key metric_results.case_result_id",
	}
	if got := constraintDiffs(t, rep); !reflect.DeepEqual(got, want) {
		t.Errorf("Check after dropping defaults and keys = %v\nwant %v", got, want)
	}
	if len(rep.Differences) != len(want) || !rep.Usable() {
		t.Errorf("Check = %+v, want only the %d compatible differences", rep.Differences, len(want))
	}
	var b strings.Builder
	if err := rep.Write(&b); err != nil {
		t.Fatal(err)
	}
	for _, s := range []string{
		"compatible   missing default metadata: contract DEFAULT '{}'",
		"evalrun always writes summary",
		"missing foreign key run_id: contract REFERENCES ruby_llm_evaluations_runs (id)",
		"adds it NOT VALID",
		"Usable: 5 compatible difference(s).",
	} {
		if !strings.Contains(b.String(), s) {
			t.Errorf("report lacks %q:\n%s", s, b.String())
		}
	}
	// Ready, which every command runs, sees the defaults as Check does.
	ready, err := schema.Ready(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if got := constraintDiffs(t, ready); !reflect.DeepEqual(got, want[:3]) {
		t.Errorf("Ready = %v, want the missing defaults %v", got, want[:3])
	}

	if err := schema.Migrate(ctx, db); err != nil {
		t.Fatalf("Migrate over an orphan row: %v", err)
	}
	for _, col := range []string{"runs.metadata", "runs.summary", "case_results.metadata"} {
		table, column, _ := strings.Cut(col, ".")
		if got := pgColumnDefault(t, db, "ruby_llm_evaluations_"+table, column); got != "'{}'::jsonb" {
			t.Errorf("default of %s after Migrate = %q, want '{}'::jsonb", col, got)
		}
	}
	want = []string{
		"unvalidated foreign key case_results.run_id",
		"unvalidated foreign key metric_results.case_result_id",
	}
	rep = check(t, db)
	if got := constraintDiffs(t, rep); !reflect.DeepEqual(got, want) || len(rep.Differences) != 2 {
		t.Errorf("Check after Migrate = %v (%+v), want %v", got, rep.Differences, want)
	}
	if len(rep.Differences) > 0 && !strings.Contains(rep.Differences[0].Why, "VALIDATE CONSTRAINT") {
		t.Errorf("an unvalidated key does not say how to validate it: %s", rep.Differences[0].Why)
	}
	var orphans int
	if err := db.QueryRowContext(ctx, "SELECT count(*) FROM ruby_llm_evaluations_case_results").Scan(&orphans); err != nil || orphans != 1 {
		t.Errorf("the orphan row: %d rows (%v), want it kept", orphans, err)
	}
	// The keys are enforced for new rows, and the defaults fill left-out values.
	if _, err := db.ExecContext(ctx, strings.Replace(orphan, "0, 'q'", "1, 'q'", 1)); err == nil {
		t.Error("a new orphan case was accepted after Migrate added the foreign key")
	}
	var meta string
	if err := db.QueryRowContext(ctx, `INSERT INTO ruby_llm_evaluations_runs (id, suite, agent, version, suite_digest, status,
started_at, finished_at, created_at, updated_at) VALUES (?, 's', 'a', '1', 'd', 'completed', now(), now(), now(), now())
RETURNING metadata::text || summary::text`, uuid.NewString()).Scan(&meta); err != nil || meta != "{}{}" {
		t.Errorf("a run inserted without metadata and summary: %q (%v), want {}{}", meta, err)
	}
}

// TestMigrateLeavesWhatItCannotAddToCheck covers the keys PostgreSQL would
// refuse and the defaults someone chose: Migrate completes, Check says why.
func TestMigrateLeavesWhatItCannotAddToCheck(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := open(t, testdb.PostgresURL(t))
	if err := schema.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	for _, name := range pgForeignKeyNames(t, db, models.CaseResultsTable) {
		exec(t, db, "ALTER TABLE ruby_llm_evaluations_case_results DROP CONSTRAINT "+name)
	}
	exec(t, db,
		"ALTER TABLE ruby_llm_evaluations_case_results ALTER COLUMN run_id TYPE character varying",
		"ALTER TABLE ruby_llm_evaluations_runs ALTER COLUMN summary SET DEFAULT '[]'",
		"ALTER TABLE ruby_llm_evaluations_runs ALTER COLUMN metadata SET DEFAULT '{ }'")
	if err := schema.Migrate(ctx, db); err != nil {
		t.Fatalf("Migrate with a key PostgreSQL would refuse: %v", err)
	}
	want := []string{"different default runs.summary", "missing foreign key case_results.run_id"}
	rep := check(t, db)
	if got := constraintDiffs(t, rep); !reflect.DeepEqual(got, want) {
		t.Errorf("Check = %v, want %v", got, want)
	}
	for _, d := range rep.Differences {
		if d.Problem == schema.MissingForeignKey && !strings.Contains(d.Why, "cannot add it: ruby_llm_evaluations_case_results.run_id and ruby_llm_evaluations_runs.id differ in type") {
			t.Errorf("missing key: %s", d.Why)
		}
	}
	if got := pgColumnDefault(t, db, models.RunsTable, "summary"); got != "'[]'::jsonb" {
		t.Errorf("Migrate replaced a default someone chose: %q", got)
	}
}

func TestCheckReportsDefaultsAndForeignKeysOnSQLite(t *testing.T) {
	t.Parallel()
	ctx := context.Background()
	db := open(t, testdb.SQLiteURL(t))
	// SQLite can neither drop a default nor a foreign key: create the
	// tables without them, as another tool might have.
	for _, tbl := range schema.Contract() {
		var lines []string
		for _, line := range strings.Split(schema.CreateTableSQL(db.Dialect, tbl.Name), "\n") {
			if strings.Contains(line, "FOREIGN KEY") {
				continue
			}
			lines = append(lines, strings.Replace(line, " DEFAULT '{}'", "", 1))
		}
		stmt := strings.Replace(strings.Join(lines, "\n"), ",\n)", "\n)", 1)
		exec(t, db, stmt)
	}
	want := []string{
		"missing default case_results.metadata",
		"missing default runs.metadata",
		"missing default runs.summary",
		"missing foreign key case_results.run_id",
		"missing foreign key metric_results.case_result_id",
	}
	for i := range 2 {
		if err := schema.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
		rep := check(t, db)
		if got := constraintDiffs(t, rep); !reflect.DeepEqual(got, want) || len(rep.Differences) != len(want) {
			t.Errorf("Check after Migrate #%d = %v (%+v)\nwant %v", i+1, got, rep.Differences, want)
		}
		for _, d := range rep.Differences {
			if !strings.Contains(d.Why, "SQLite cannot") || !strings.Contains(d.Why, "table rebuild") {
				t.Errorf("%s %s: %s, want it to say SQLite leaves it to a table rebuild", d.Problem, d.Column, d.Why)
			}
		}
	}
}
