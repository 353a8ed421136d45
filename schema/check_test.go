package schema_test

import (
	"context"
	"fmt"
	"reflect"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/schema"
)

func TestCheckNamesIncompatibleColumns(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, d.url(t))
			if err := schema.Migrate(context.Background(), db); err != nil {
				t.Fatal(err)
			}
			exec(t, db, "DROP INDEX index_ruby_llm_evaluations_metric_results_on_case_and_position",
				"ALTER TABLE ruby_llm_evaluations_metric_results DROP COLUMN reason")
			rep := check(t, db)
			bad := rep.Incompatible()
			if len(bad) != 1 || bad[0].Column != "reason" || bad[0].Problem != schema.MissingColumn {
				t.Errorf("incompatible = %+v, want the missing reason column", bad)
			}
			var b strings.Builder
			if err := rep.Write(&b); err != nil {
				t.Fatal(err)
			}
			for _, want := range []string{"INCOMPATIBLE missing column reason", "missing index (case_result_id, position)", "Not usable"} {
				if !strings.Contains(b.String(), want) {
					t.Errorf("report lacks %q:\n%s", want, b.String())
				}
			}
		})
	}
}

func TestCheckClassifiesTypes(t *testing.T) {
	db := open(t, testdb.PostgresURL(t))
	if err := schema.Migrate(context.Background(), db); err != nil {
		t.Fatal(err)
	}
	exec(t, db,
		"ALTER TABLE ruby_llm_evaluations_case_results ALTER COLUMN metadata TYPE json",
		"ALTER TABLE ruby_llm_evaluations_case_results ALTER COLUMN cost TYPE double precision",
		"ALTER TABLE ruby_llm_evaluations_case_results ALTER COLUMN duration_ms TYPE integer",
		"ALTER TABLE ruby_llm_evaluations_metric_results ALTER COLUMN threshold TYPE numeric",
		"ALTER TABLE ruby_llm_evaluations_metric_results ALTER COLUMN passed TYPE text",
		"ALTER TABLE ruby_llm_evaluations_metric_results ALTER COLUMN reason SET NOT NULL",
		"ALTER TABLE ruby_llm_evaluations_runs ALTER COLUMN suite DROP NOT NULL",
		"ALTER TABLE ruby_llm_evaluations_runs ALTER COLUMN sequence DROP DEFAULT",
		"ALTER TABLE ruby_llm_evaluations_runs ADD COLUMN tenant_id bigint NOT NULL",
	)
	got := map[string]bool{}
	for _, d := range check(t, db).Differences {
		got[d.Table+"."+d.Column] = d.Compatible
	}
	want := map[string]bool{
		"ruby_llm_evaluations_case_results.metadata":    true,
		"ruby_llm_evaluations_case_results.cost":        true,
		"ruby_llm_evaluations_case_results.duration_ms": true,
		"ruby_llm_evaluations_metric_results.threshold": true,
		"ruby_llm_evaluations_metric_results.passed":    false,
		"ruby_llm_evaluations_metric_results.reason":    false,
		"ruby_llm_evaluations_runs.suite":               true,
		"ruby_llm_evaluations_runs.sequence":            false,
		"ruby_llm_evaluations_runs.tenant_id":           false,
	}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("compatibility = %v\nwant %v", got, want)
	}
}

func TestRailsMigrationNamesFitPostgres(t *testing.T) {
	text := schema.RailsMigration()
	for _, tbl := range schema.Contract() {
		if !strings.Contains(text, "create_table :"+tbl.Name) {
			t.Errorf("migration does not create %s", tbl.Name)
		}
		for _, ix := range tbl.Indexes {
			if len(ix.Name) > 63 {
				t.Errorf("index name %s is %d characters, PostgreSQL allows 63", ix.Name, len(ix.Name))
			}
			if !strings.Contains(text, fmt.Sprintf("name: %q", ix.Name)) {
				t.Errorf("migration does not name index %s", ix.Name)
			}
		}
	}
	if strings.Contains(text, "drop_table") || strings.Contains(text, "remove_column") {
		t.Error("the Rails migration must never drop anything")
	}
}

// TestReadyAgreesWithCheck makes sure the one-query check every command
// runs reports what Check reports, without index differences.
func TestReadyAgreesWithCheck(t *testing.T) {
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			ctx := context.Background()
			db := open(t, d.url(t))
			ready := func() []schema.Difference {
				t.Helper()
				rep, err := schema.Ready(ctx, db)
				if err != nil {
					t.Fatal(err)
				}
				return rep.Differences
			}
			if got := ready(); len(got) != 3 || got[0].Problem != schema.MissingTable {
				t.Errorf("empty database: %+v, want the three missing tables", got)
			}
			if err := schema.Migrate(ctx, db); err != nil {
				t.Fatal(err)
			}
			if got := ready(); len(got) != 0 {
				t.Errorf("migrated database: %+v, want no difference", got)
			}
			exec(t, db, "DROP INDEX index_ruby_llm_evaluations_metric_results_on_case_and_position",
				"ALTER TABLE ruby_llm_evaluations_metric_results DROP COLUMN reason",
				"ALTER TABLE ruby_llm_evaluations_runs ADD COLUMN tenant integer NOT NULL DEFAULT 1",
				"ALTER TABLE ruby_llm_evaluations_runs ADD COLUMN note text")
			var want []schema.Difference
			for _, diff := range check(t, db).Differences {
				switch diff.Problem {
				case schema.MissingIndex, schema.MissingForeignKey, schema.UnvalidatedForeignKey:
				default:
					want = append(want, diff)
				}
			}
			if got := ready(); !reflect.DeepEqual(got, want) {
				t.Errorf("Ready = %+v\nCheck without indexes = %+v", got, want)
			}
		})
	}
}
