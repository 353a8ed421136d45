package schema_test

import (
	"context"
	"reflect"
	"sort"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/schema"
)

// catalogRows runs a query returning text columns and joins each row with
// " | ", sorted.
func catalogRows(t *testing.T, db *models.DB, query string, args ...any) []string {
	t.Helper()
	rows, err := db.QueryContext(context.Background(), query, args...)
	if err != nil {
		t.Fatalf("%s: %v", query, err)
	}
	defer rows.Close()
	cols, err := rows.Columns()
	if err != nil {
		t.Fatal(err)
	}
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
	sort.Strings(out)
	return out
}

// TestFreshMigrateCatalog reads the catalog itself, not through the
// package's introspection, after a fresh Migrate: the JSON defaults, the
// two foreign keys and the contract's seven indexes, by name and columns.
func TestFreshMigrateCatalog(t *testing.T) {
	wantIndexes := []string{
		"index_ruby_llm_evaluations_case_results_on_run_id | ruby_llm_evaluations_case_results | run_id | false",
		"index_ruby_llm_evaluations_case_results_on_run_id_and_position | ruby_llm_evaluations_case_results | run_id,position | true",
		"index_ruby_llm_evaluations_metric_results_on_case_and_position | ruby_llm_evaluations_metric_results | case_result_id,position | true",
		"index_ruby_llm_evaluations_metric_results_on_case_result_id | ruby_llm_evaluations_metric_results | case_result_id | false",
		"index_ruby_llm_evaluations_runs_on_baseline_lookup | ruby_llm_evaluations_runs | suite,agent,suite_digest,started_at,sequence | false",
		"index_ruby_llm_evaluations_runs_on_sequence | ruby_llm_evaluations_runs | sequence | true",
		"index_ruby_llm_evaluations_runs_on_started_at_and_sequence | ruby_llm_evaluations_runs | started_at,sequence | false",
	}
	wantKeys := []string{
		"ruby_llm_evaluations_case_results | run_id | ruby_llm_evaluations_runs | id",
		"ruby_llm_evaluations_metric_results | case_result_id | ruby_llm_evaluations_case_results | id",
	}
	for _, d := range dialects {
		t.Run(d.name, func(t *testing.T) {
			t.Parallel()
			db := open(t, d.url(t))
			if err := schema.Migrate(context.Background(), db); err != nil {
				t.Fatal(err)
			}
			var defaults, keys, indexes []string
			if db.Dialect == models.PostgreSQL {
				wantDefault := "'{}'::jsonb"
				defaults = catalogRows(t, db, `SELECT table_name || '.' || column_name, column_default FROM information_schema.columns
WHERE table_schema = current_schema() AND table_name LIKE 'ruby_llm_evaluations_%' AND column_default LIKE '%{}%'`)
				for i := range defaults {
					defaults[i] = strings.Replace(defaults[i], wantDefault, "{}", 1)
				}
				keys = catalogRows(t, db, `SELECT tc.table_name, k.column_name, pt.relname, pa.attname
FROM information_schema.table_constraints tc
JOIN pg_constraint c ON c.conname = tc.constraint_name AND c.connamespace = to_regnamespace(tc.constraint_schema)
JOIN information_schema.key_column_usage k ON k.constraint_schema = tc.constraint_schema AND k.constraint_name = tc.constraint_name
JOIN pg_class pt ON pt.oid = c.confrelid
JOIN pg_attribute pa ON pa.attrelid = c.confrelid AND pa.attnum = c.confkey[1]
WHERE tc.constraint_type = 'FOREIGN KEY' AND tc.table_schema = current_schema() AND c.convalidated`)
				indexes = catalogRows(t, db, `SELECT ci.relname, ct.relname,
  array_to_string(ARRAY(SELECT a.attname FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
    JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum ORDER BY k.ord), ','),
  CASE WHEN ix.indisunique THEN 'true' ELSE 'false' END
FROM pg_index ix JOIN pg_class ci ON ci.oid = ix.indexrelid JOIN pg_class ct ON ct.oid = ix.indrelid
WHERE ct.relnamespace = to_regnamespace(current_schema()) AND ct.relname LIKE 'ruby_llm_evaluations_%' AND NOT ix.indisprimary`)
			} else {
				defaults = catalogRows(t, db, `SELECT m.name || '.' || p.name, p.dflt_value
FROM sqlite_master m, pragma_table_info(m.name) p
WHERE m.type = 'table' AND m.name LIKE 'ruby_llm_evaluations_%' AND p.dflt_value IS NOT NULL`)
				for i := range defaults {
					defaults[i] = strings.Replace(defaults[i], "'{}'", "{}", 1)
				}
				keys = catalogRows(t, db, `SELECT m.name, f."from", f."table", f."to"
FROM sqlite_master m, pragma_foreign_key_list(m.name) f
WHERE m.type = 'table' AND m.name LIKE 'ruby_llm_evaluations_%'`)
				indexes = catalogRows(t, db, `SELECT l.name, m.name, (SELECT group_concat(name, ',') FROM
  (SELECT i.name FROM pragma_index_info(l.name) i ORDER BY i.seqno)), CASE WHEN l."unique" THEN 'true' ELSE 'false' END
FROM sqlite_master m, pragma_index_list(m.name) l
WHERE m.type = 'table' AND m.name LIKE 'ruby_llm_evaluations_%' AND l.origin = 'c'`)
			}
			wantDefaults := []string{
				"ruby_llm_evaluations_case_results.metadata | {}",
				"ruby_llm_evaluations_runs.metadata | {}",
				"ruby_llm_evaluations_runs.summary | {}",
			}
			if !reflect.DeepEqual(defaults, wantDefaults) {
				t.Errorf("JSON defaults = %q\nwant %q", defaults, wantDefaults)
			}
			if !reflect.DeepEqual(keys, wantKeys) {
				t.Errorf("foreign keys = %q\nwant %q", keys, wantKeys)
			}
			if !reflect.DeepEqual(indexes, wantIndexes) {
				t.Errorf("indexes = %q\nwant %q", indexes, wantIndexes)
			}
		})
	}
}
