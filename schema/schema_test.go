package schema_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/schema"
)

type dialect struct {
	name string
	url  func(testing.TB) string // a fresh, empty database
}

var dialects = []dialect{{"postgres", testdb.PostgresURL}, {"sqlite", testdb.SQLiteURL}}

func open(t *testing.T, url string) *models.DB {
	t.Helper()
	db, err := models.Open(context.Background(), url, models.OpenOptions{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

func exec(t *testing.T, db *models.DB, stmts ...string) {
	t.Helper()
	for _, s := range stmts {
		if _, err := db.ExecContext(context.Background(), s); err != nil {
			t.Fatalf("%s: %v", s, err)
		}
	}
}

func check(t *testing.T, db *models.DB) *schema.Report {
	t.Helper()
	rep, err := schema.Check(context.Background(), db)
	if err != nil {
		t.Fatal(err)
	}
	return rep
}

// dump reads a table's rows as text, ordered by id, for before/after comparisons.
func dump(t *testing.T, db *models.DB, table string, cols ...string) []string {
	t.Helper()
	exprs := make([]string, len(cols))
	for i, c := range cols {
		exprs[i] = "COALESCE(CAST(" + c + " AS TEXT), '<NULL>')"
	}
	rows, err := db.QueryContext(context.Background(), fmt.Sprintf("SELECT %s FROM %s ORDER BY id", strings.Join(exprs, ", "), table))
	if err != nil {
		t.Fatal(err)
	}
	defer rows.Close()
	var out []string
	for rows.Next() {
		vals := make([]string, len(cols))
		ptrs := make([]any, len(cols))
		for i := range vals {
			ptrs[i] = &vals[i]
		}
		if err := rows.Scan(ptrs...); err != nil {
			t.Fatal(err)
		}
		out = append(out, strings.Join(vals, " | "))
	}
	if err := rows.Err(); err != nil {
		t.Fatal(err)
	}
	return out
}

func TestMigrateCreatesTheContractIdempotently(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := open(t, d.url(t))
			if rep := check(t, db); rep.Usable() {
				t.Fatalf("an empty database checks as usable")
			}
			for range 3 {
				if err := schema.Migrate(ctx, db); err != nil {
					t.Fatal(err)
				}
			}
			if rep := check(t, db); len(rep.Differences) != 0 {
				var b strings.Builder
				rep.Write(&b)
				t.Errorf("freshly migrated schema differs from the contract:\n%s", b.String())
			}
			var versions []string
			if err := db.NewSelect().Table(schema.LedgerTable).Column("version").Order("version").Scan(ctx, &versions); err != nil {
				t.Fatal(err)
			}
			if len(versions) != 2 {
				t.Errorf("ledger holds %v, want each step once", versions)
			}
		})
	}
}

func TestMigrateConcurrently(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			url := d.url(t)
			var wg sync.WaitGroup
			errs := make(chan error, 6)
			for range 6 {
				db := open(t, url) // separate pools, as separate processes would have
				wg.Go(func() { errs <- schema.Migrate(context.Background(), db) })
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				if err != nil {
					t.Error(err)
				}
			}
			if rep := check(t, open(t, url)); !rep.Usable() || len(rep.Differences) != 0 {
				t.Errorf("after concurrent migrations: %+v", rep.Differences)
			}
		})
	}
}

// railsStyleTables creates the tables roughly as another tool might: other
// index names, json instead of jsonb, an extra column, a different
// sequence default name.
const railsStyleTables = `
CREATE TABLE ruby_llm_evaluations_runs (
  id uuid PRIMARY KEY, sequence bigserial NOT NULL,
  suite varchar NOT NULL, agent varchar NOT NULL, version varchar NOT NULL, suite_digest varchar NOT NULL,
  status varchar NOT NULL, started_at timestamp(6) NOT NULL, finished_at timestamp(6) NOT NULL,
  metadata json NOT NULL DEFAULT '{}', summary jsonb NOT NULL DEFAULT '{}',
  created_at timestamp(6) NOT NULL, updated_at timestamp(6) NOT NULL, host_note text);
CREATE UNIQUE INDEX runs_seq_uniq ON ruby_llm_evaluations_runs (sequence);
CREATE INDEX runs_history ON ruby_llm_evaluations_runs (started_at, sequence);
CREATE TABLE ruby_llm_evaluations_case_results (
  id bigserial PRIMARY KEY, run_id uuid NOT NULL REFERENCES ruby_llm_evaluations_runs (id),
  position integer NOT NULL, case_id varchar NOT NULL, name varchar NOT NULL, status varchar NOT NULL,
  duration_ms integer NOT NULL, question jsonb, expected_answer jsonb, expected_actions jsonb, minimum_scores jsonb,
  metadata jsonb NOT NULL DEFAULT '{}', output jsonb, actions jsonb, response_metadata jsonb, error_details jsonb,
  input_tokens integer, output_tokens integer, cost double precision,
  created_at timestamp(6) NOT NULL, updated_at timestamp(6) NOT NULL);
CREATE UNIQUE INDEX cases_pos ON ruby_llm_evaluations_case_results (run_id, position);
CREATE TABLE ruby_llm_evaluations_metric_results (
  id bigserial PRIMARY KEY, case_result_id bigint NOT NULL REFERENCES ruby_llm_evaluations_case_results (id),
  position integer NOT NULL, name varchar NOT NULL, threshold double precision NOT NULL, score double precision,
  passed boolean NOT NULL, reason text, error_details jsonb,
  created_at timestamp(6) NOT NULL, updated_at timestamp(6) NOT NULL);
INSERT INTO ruby_llm_evaluations_runs (id, suite, agent, version, suite_digest, status, started_at, finished_at, metadata, summary, created_at, updated_at, host_note)
  VALUES ('0190a3c4-0000-7000-8000-000000000001', 'S', 'A', '1', 'x', 'completed', '2025-01-02 03:04:05.123456', '2025-01-02 03:04:06', '{"b": 1, "a": [1, 2]}', '{}', now(), now(), 'kept');
INSERT INTO ruby_llm_evaluations_case_results (run_id, position, case_id, name, status, duration_ms, minimum_scores, output, actions, cost, created_at, updated_at)
  VALUES ('0190a3c4-0000-7000-8000-000000000001', 0, 'q1', 'Grüße', 'passed', 12, '{"exact": 1}', '"ok"', NULL, 0.25, now(), now()),
         ('0190a3c4-0000-7000-8000-000000000001', 1, 'q2', 'q2', 'failed', 3, NULL, 'null', '[]', NULL, now(), now());
INSERT INTO ruby_llm_evaluations_metric_results (case_result_id, position, name, threshold, score, passed, reason, created_at, updated_at)
  VALUES (1, 0, 'exact', 1, 1, true, 'same', now(), now()), (2, 0, 'exact', 1, NULL, false, NULL, now(), now());
`

func TestMigrateKeepsTablesSomeoneElseCreated(t *testing.T) {
	ctx := context.Background()
	db := open(t, testdb.PostgresURL(t))
	exec(t, db, railsStyleTables)
	runCols := []string{"id", "sequence", "suite", "started_at", "metadata", "host_note"}
	caseCols := []string{"id", "run_id", "position", "name", "duration_ms", "minimum_scores", "output", "actions", "cost"}
	metricCols := []string{"id", "case_result_id", "name", "score", "passed", "reason"}
	beforeRuns := dump(t, db, models.RunsTable, runCols...)
	beforeCases := dump(t, db, models.CaseResultsTable, caseCols...)
	beforeMetrics := dump(t, db, models.MetricResultsTable, metricCols...)
	indexCount := func() int {
		var n int
		if err := db.QueryRowContext(ctx, "SELECT count(*) FROM pg_indexes WHERE schemaname = current_schema() AND tablename LIKE 'ruby_llm_evaluations_%'").Scan(&n); err != nil {
			t.Fatal(err)
		}
		return n
	}
	before := indexCount()

	for range 2 {
		if err := schema.Migrate(ctx, db); err != nil {
			t.Fatal(err)
		}
	}
	if got := dump(t, db, models.RunsTable, runCols...); !reflect.DeepEqual(got, beforeRuns) {
		t.Errorf("runs changed:\n%v\n%v", beforeRuns, got)
	}
	if got := dump(t, db, models.CaseResultsTable, caseCols...); !reflect.DeepEqual(got, beforeCases) {
		t.Errorf("case results changed:\n%v\n%v", beforeCases, got)
	}
	if got := dump(t, db, models.MetricResultsTable, metricCols...); !reflect.DeepEqual(got, beforeMetrics) {
		t.Errorf("metric results changed:\n%v\n%v", beforeMetrics, got)
	}
	// Indexes the other tool created under other names are recognised by
	// their columns; only the four missing ones are added.
	if got := indexCount(); got != before+4 {
		t.Errorf("%d indexes after migrating, want %d (+4 missing: baseline lookup, case run_id, metric case_result_id and position)", got, before+4)
	}
	rep := check(t, db)
	if !rep.Usable() {
		t.Errorf("db:check after migrating someone else's tables: %+v", rep.Incompatible())
	}
	var compatible []string
	for _, d := range rep.Differences {
		compatible = append(compatible, string(d.Problem)+" "+d.Table+"."+d.Column)
	}
	want := []string{
		"different column ruby_llm_evaluations_runs.metadata",
		"extra column ruby_llm_evaluations_runs.host_note",
		"different column ruby_llm_evaluations_case_results.duration_ms",
		"different column ruby_llm_evaluations_case_results.cost",
	}
	if !reflect.DeepEqual(compatible, want) {
		t.Errorf("differences = %v, want %v", compatible, want)
	}

	// Go writes into the compatible-but-different columns and reads back.
	mine := &models.Run{Suite: "S", Agent: "A", Version: "1", SuiteDigest: "x", StartedAt: time.Now(), FinishedAt: time.Now(),
		Cases: []*models.CaseResult{{CaseID: "q", Name: "q", Status: "passed", DurationMS: 12.4, Cost: ptr(models.Decimal("0.5")),
			Metrics: []*models.MetricResult{{Name: "exact", Threshold: 1, Score: ptr(1.0), Passed: true}}}}}
	if err := db.InsertRun(ctx, mine); err != nil {
		t.Fatalf("insert into someone else's tables: %v", err)
	}
	back, err := db.GetRun(ctx, mine.ID)
	if err != nil {
		t.Fatal(err)
	}
	if back.Cases[0].DurationMS != 12 || back.Cases[0].Cost.Float64() != 0.5 || back.Cases[0].Metrics[0].ID != mine.Cases[0].Metrics[0].ID {
		t.Errorf("read back %+v %+v", back.Cases[0], back.Cases[0].Metrics[0])
	}

	// Go reads the other tool's rows.
	got, err := db.GetRun(ctx, mustUUID(t, "0190a3c4-0000-7000-8000-000000000001"))
	if err != nil {
		t.Fatal(err)
	}
	if len(got.Cases) != 2 || got.Cases[0].Name != "Grüße" || got.Cases[1].Actions == nil || got.Cases[0].Actions != nil ||
		got.Cases[0].Cost.Float64() != 0.25 || got.StartedAt != time.Date(2025, 1, 2, 3, 4, 5, 123456000, time.UTC) {
		t.Errorf("read back %+v %+v", got, got.Cases)
	}
}

func TestMigrateUpgradesCriteria(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := open(t, d.url(t))
			// A 0.1-era database: the tables as 0.2 has them, except that case
			// results hold their thresholds in "criteria".
			if err := schema.Migrate(ctx, db); err != nil {
				t.Fatal(err)
			}
			exec(t, db, "DROP TABLE agentevals_schema_migrations", "DROP TABLE ruby_llm_evaluations_metric_results", "DROP TABLE ruby_llm_evaluations_case_results")
			ddl := strings.Replace(createCaseResults(t, db), `"minimum_scores"`, "criteria", 1)
			exec(t, db, ddl)
			r := &models.Run{ID: uuid.New(), Suite: "old", Agent: "a", Version: "1", SuiteDigest: "d", Status: "completed", StartedAt: time.Now(), FinishedAt: time.Now(), Metadata: models.JSON(`{}`), Summary: models.JSON(`{}`)}
			if _, err := db.NewInsert().Model(r).ExcludeColumn("sequence").Exec(ctx); err != nil {
				t.Fatal(err)
			}
			ts := models.UTC(time.Now())
			for i, criteria := range []string{`{"semantic_accuracy": 0.9}`, `{"exact": 1}`, ""} {
				val := "NULL"
				if criteria != "" {
					val = "'" + criteria + "'"
				}
				_, err := db.NewRaw("INSERT INTO ruby_llm_evaluations_case_results (run_id, position, case_id, name, status, duration_ms, metadata, criteria, created_at, updated_at) VALUES (?, ?, ?, 'n', 'passed', 1, '{}', "+val+", ?, ?)",
					r.ID, i, fmt.Sprintf("q%d", i), ts, ts).Exec(ctx)
				if err != nil {
					t.Fatal(err)
				}
			}
			before := dump(t, db, models.CaseResultsTable, "id", "case_id", "criteria")

			if err := schema.Migrate(ctx, db); err != nil {
				t.Fatal(err)
			}
			after := dump(t, db, models.CaseResultsTable, "id", "case_id", "minimum_scores")
			if len(after) != 3 {
				t.Fatalf("%d rows after the upgrade, want 3", len(after))
			}
			for i := range before {
				if normalizeJSONText(before[i]) != normalizeJSONText(after[i]) {
					t.Errorf("row %d: criteria %q became minimum_scores %q", i, before[i], after[i])
				}
			}
			if rep := check(t, db); len(rep.Differences) != 0 {
				t.Errorf("after the upgrade: %+v", rep.Differences)
			}
			got, err := db.GetRun(ctx, r.ID)
			if err != nil {
				t.Fatal(err)
			}
			var ms map[string]float64
			if err := got.Cases[0].MinimumScores.Decode(&ms); err != nil || ms["semantic_accuracy"] != 0.9 {
				t.Errorf("minimum_scores read back as %s (%v)", got.Cases[0].MinimumScores, err)
			}
		})
	}
}

func TestMigrateCopiesCriteriaWhenBothColumnsExist(t *testing.T) {
	ctx := context.Background()
	db := open(t, testdb.PostgresURL(t))
	exec(t, db, railsStyleTables,
		"ALTER TABLE ruby_llm_evaluations_case_results ADD COLUMN criteria jsonb",
		`UPDATE ruby_llm_evaluations_case_results SET criteria = '{"old": 0.5}'`)
	if err := schema.Migrate(ctx, db); err != nil {
		t.Fatal(err)
	}
	got := dump(t, db, models.CaseResultsTable, "case_id", "minimum_scores", "criteria")
	want := []string{`q1 | {"exact": 1} | {"old": 0.5}`, `q2 | {"old": 0.5} | {"old": 0.5}`}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("got %q, want %q", got, want)
	}
}

// TestMigrateCopiesCriteriaAfterTheStepWasRecorded covers a table holding
// both criteria and minimum_scores in a database whose ledger already
// records the criteria step (e.g. minimum_scores added next to a 0.1-era
// column by an earlier Migrate): every Migrate copies criteria into empty
// minimum_scores, never over a non-empty one, and keeps criteria.
func TestMigrateCopiesCriteriaAfterTheStepWasRecorded(t *testing.T) {
	rows := []struct {
		criteria, minimumScores string // SQL literals
		want                    string // minimum_scores afterwards
	}{
		{`'{"a": 0.9}'`, "NULL", `{"a":0.9}`},
		{`'{"b": 1}'`, `'{"keep": 0.5}'`, `{"keep":0.5}`},
		{`'{"c": 0.1}'`, `'{}'`, `{"c":0.1}`},
		{`'{"d": 0.2}'`, `'null'`, `{"d":0.2}`},
		{"NULL", "NULL", "<NULL>"},
		{`'{}'`, "NULL", "<NULL>"},
	}
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := open(t, d.url(t))
			if err := schema.Migrate(ctx, db); err != nil {
				t.Fatal(err)
			}
			jsonType := "jsonb"
			if db.Dialect == models.SQLite {
				jsonType = "text"
			}
			exec(t, db, "ALTER TABLE ruby_llm_evaluations_case_results ADD COLUMN criteria "+jsonType)
			r := &models.Run{ID: uuid.New(), Suite: "old", Agent: "a", Version: "1", SuiteDigest: "d", Status: "completed", StartedAt: time.Now(), FinishedAt: time.Now(), Metadata: models.JSON(`{}`), Summary: models.JSON(`{}`)}
			if _, err := db.NewInsert().Model(r).ExcludeColumn("sequence").Exec(ctx); err != nil {
				t.Fatal(err)
			}
			ts := models.UTC(time.Now())
			for i, row := range rows {
				_, err := db.NewRaw("INSERT INTO ruby_llm_evaluations_case_results (run_id, position, case_id, name, status, duration_ms, metadata, criteria, minimum_scores, created_at, updated_at) VALUES (?, ?, ?, 'n', 'passed', 1, '{}', "+row.criteria+", "+row.minimumScores+", ?, ?)",
					r.ID, i, fmt.Sprintf("q%d", i), ts, ts).Exec(ctx)
				if err != nil {
					t.Fatal(err)
				}
			}
			criteriaBefore := dump(t, db, models.CaseResultsTable, "criteria")
			for range 2 {
				if err := schema.Migrate(ctx, db); err != nil {
					t.Fatal(err)
				}
				got := dump(t, db, models.CaseResultsTable, "minimum_scores")
				for i, row := range rows {
					if g := normalizeJSONText(got[i]); g != row.want {
						t.Errorf("criteria %s, minimum_scores %s: minimum_scores became %s, want %s", row.criteria, row.minimumScores, g, row.want)
					}
				}
				if got := dump(t, db, models.CaseResultsTable, "criteria"); !reflect.DeepEqual(got, criteriaBefore) {
					t.Errorf("criteria changed: %q, want %q", got, criteriaBefore)
				}
			}
		})
	}
}

// createCaseResults returns the CREATE TABLE statement of case results as
// Migrate writes it in this dialect.
func createCaseResults(t *testing.T, db *models.DB) string {
	t.Helper()
	if db.Dialect == models.SQLite {
		return strings.Replace(schema.CreateTableSQL(db.Dialect, models.CaseResultsTable), "CREATE TABLE", "CREATE TABLE IF NOT EXISTS", 1)
	}
	return schema.CreateTableSQL(db.Dialect, models.CaseResultsTable)
}

func mustUUID(t *testing.T, s string) uuid.UUID {
	t.Helper()
	id, err := uuid.Parse(s)
	if err != nil {
		t.Fatal(err)
	}
	return id
}

func normalizeJSONText(s string) string { return strings.ReplaceAll(s, " ", "") }

func ptr[T any](v T) *T { return &v }
