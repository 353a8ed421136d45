package golden

import (
	"bytes"
	"database/sql"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"
	"testing"

	_ "modernc.org/sqlite"
)

// table says how one of the gem's tables is read: its rows in a stable
// order, and which integer columns are ids (by namespace).
type table struct {
	name  string
	from  string
	order string
	ids   map[string]string
}

var tables = []table{
	{name: "ruby_llm_evaluations_runs",
		from:  "ruby_llm_evaluations_runs t",
		order: "t.sequence, t.id"},
	{name: "ruby_llm_evaluations_case_results",
		from:  "ruby_llm_evaluations_case_results t JOIN ruby_llm_evaluations_runs r ON r.id = t.run_id",
		order: "r.sequence, t.position, t.id",
		ids:   map[string]string{"id": "case"}},
	{name: "ruby_llm_evaluations_metric_results",
		from: "ruby_llm_evaluations_metric_results t" +
			" JOIN ruby_llm_evaluations_case_results c ON c.id = t.case_result_id" +
			" JOIN ruby_llm_evaluations_runs r ON r.id = c.run_id",
		order: "r.sequence, c.position, t.name, t.id",
		ids:   map[string]string{"id": "metric", "case_result_id": "case"}},
}

// wallClock are the columns holding a measured duration.
var wallClock = map[string]bool{"duration_ms": true}

func openDB(t *testing.T, path string) *sql.DB {
	t.Helper()
	db, err := sql.Open("sqlite", "file:"+path+"?mode=ro")
	if err != nil {
		t.Fatalf("open %s: %v", path, err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// dumpRows renders every row of the gem's three tables as JSON, columns in
// table order. Each value is read in its SQLite storage class ("+col" drops
// the declared type, so the driver converts nothing): an integer prints as
// 1, a real as 1.0, text as a JSON string of its exact bytes.
func dumpRows(t *testing.T, db *sql.DB, n *normalizer) string {
	t.Helper()
	var b strings.Builder
	b.WriteString("{\n")
	for ti, tb := range tables {
		cols := columns(t, db, tb.name)
		var sel []string
		for _, c := range cols {
			sel = append(sel, fmt.Sprintf("+t.%q", c))
		}
		q := "SELECT " + strings.Join(sel, ", ") + " FROM " + tb.from + " ORDER BY " + tb.order
		rows, err := db.Query(q)
		if err != nil {
			t.Fatalf("%s: %v", q, err)
		}
		fmt.Fprintf(&b, "  %s: [", quote(tb.name))
		count := 0
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatalf("%s: %v", tb.name, err)
			}
			if count > 0 {
				b.WriteString(",")
			}
			b.WriteString("\n    {\n")
			for i, c := range cols {
				sep := ","
				if i == len(cols)-1 {
					sep = ""
				}
				fmt.Fprintf(&b, "      %s: %s%s\n", quote(c), value(tb, c, vals[i], n), sep)
			}
			b.WriteString("    }")
			count++
		}
		if err := rows.Err(); err != nil {
			t.Fatalf("%s: %v", tb.name, err)
		}
		rows.Close()
		if count > 0 {
			b.WriteString("\n  ")
		}
		b.WriteString("]")
		if ti < len(tables)-1 {
			b.WriteString(",")
		}
		b.WriteString("\n")
	}
	b.WriteString("}\n")
	return b.String()
}

func columns(t *testing.T, db *sql.DB, name string) []string {
	t.Helper()
	rows, err := db.Query("SELECT name FROM pragma_table_info(?) ORDER BY cid", name)
	if err != nil {
		t.Fatalf("columns of %s: %v", name, err)
	}
	defer rows.Close()
	var cols []string
	for rows.Next() {
		var c string
		if err := rows.Scan(&c); err != nil {
			t.Fatalf("columns of %s: %v", name, err)
		}
		cols = append(cols, c)
	}
	if len(cols) == 0 {
		t.Fatalf("table %s is missing from the database", name)
	}
	return cols
}

func value(tb table, col string, v any, n *normalizer) string {
	if v == nil {
		return "null"
	}
	if ns, ok := tb.ids[col]; ok {
		return quote(n.id(fmt.Sprintf("%s:%v", ns, v)))
	}
	if wallClock[col] {
		return quote("<ms>")
	}
	switch v := v.(type) {
	case int64:
		return strconv.FormatInt(v, 10)
	case float64:
		s := strconv.FormatFloat(v, 'g', -1, 64)
		if !strings.ContainsAny(s, ".eIN") {
			s += ".0"
		}
		return s
	case string:
		return quote(n.text(v))
	case []byte:
		return quote("x'" + hex.EncodeToString(v) + "'")
	}
	return quote(fmt.Sprintf("unexpected %T %v", v, v))
}

// quote is a JSON string that leaves <, > and & as they are.
func quote(s string) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.Encode(s)
	return strings.TrimSuffix(b.String(), "\n")
}

// dumpSchema lists the database's tables and indexes as SQLite stores
// them, and the migration steps recorded as applied.
func dumpSchema(t *testing.T, db *sql.DB) string {
	t.Helper()
	var b strings.Builder
	rows, err := db.Query("SELECT type, name, COALESCE(sql, '') FROM sqlite_master ORDER BY type, name")
	if err != nil {
		t.Fatalf("schema: %v", err)
	}
	for rows.Next() {
		var typ, name, ddl string
		if err := rows.Scan(&typ, &name, &ddl); err != nil {
			t.Fatalf("schema: %v", err)
		}
		fmt.Fprintf(&b, "-- %s %s\n%s\n\n", typ, name, ddl)
	}
	rows.Close()
	rows, err = db.Query("SELECT version FROM agentevals_schema_migrations ORDER BY version")
	if err != nil {
		t.Fatalf("migrations: %v", err)
	}
	defer rows.Close()
	b.WriteString("-- applied migrations\n")
	for rows.Next() {
		var v string
		if err := rows.Scan(&v); err != nil {
			t.Fatalf("migrations: %v", err)
		}
		b.WriteString(v + "\n")
	}
	return b.String()
}
