package evidence

import (
	"bytes"
	"encoding/json"
	"fmt"
	"reflect"
	"sort"
	"strings"

	"github.com/agentevals-go/agentevals/internal/jsonvalue"
	"github.com/agentevals-go/agentevals/models"
)

// Row is one table row as a JSON object keyed by column name.
type Row map[string]json.RawMessage

// Columns that the database fills on insert and a file never carries: ids
// and sequence are generated, Rails timestamps are the time of the insert,
// and a metric's case_result_id is replaced by its case's position.
var generated = map[string]bool{"sequence": true, "created_at": true, "updated_at": true, "case_result_id": true}

var jsonType = reflect.TypeOf(models.JSON(nil))

// tableColumns are the columns of the three records as the file carries them.
type tableColumns struct{ run, cases, metrics []column }

func fileColumns() tableColumns {
	return tableColumns{
		run:     columns(reflect.TypeOf(models.Run{}), true),
		cases:   columns(reflect.TypeOf(models.CaseResult{}), false),
		metrics: columns(reflect.TypeOf(models.MetricResult{}), false),
	}
}

// column is one bun-mapped field of a record.
type column struct {
	name    string
	index   int
	notNull bool
}

// columns lists the columns of a models record type from its bun tags, in
// field order, skipping relations and the columns in generated; keepID
// keeps "id" (the run's uuid is chosen by the writer, unlike the bigint
// ids of child rows). Reading the tags keeps the file in step with the
// records: a column added to models is written and read without a change
// here.
func columns(t reflect.Type, keepID bool) []column {
	var out []column
	for i := range t.NumField() {
		f := t.Field(i)
		tag, ok := f.Tag.Lookup("bun")
		if !ok || f.Anonymous || tag == "-" || strings.Contains(tag, "rel:") {
			continue
		}
		parts := strings.Split(tag, ",")
		name := parts[0]
		if generated[name] || (name == "id" && !keepID) {
			continue
		}
		notNull := false
		for _, p := range parts[1:] {
			notNull = notNull || p == "notnull" || p == "pk"
		}
		out = append(out, column{name: name, index: i, notNull: notNull})
	}
	return out
}

// encodeRow writes the columns of rec (a pointer to a models record). SQL
// NULL in a JSON column is left out, so that it stays distinct from JSON
// null; any other NULL is written as null.
// cols are columns(type of *rec), computed once per table by the caller.
func encodeRow(rec any, cols []column) (Row, error) {
	v := reflect.ValueOf(rec).Elem()
	row := make(Row, len(cols))
	for _, c := range cols {
		f := v.Field(c.index)
		if f.Type() == jsonType && f.IsNil() {
			continue
		}
		b, err := json.Marshal(f.Interface())
		if err != nil {
			return nil, fmt.Errorf("column %s: %w", c.name, err)
		}
		row[c.name] = b
	}
	return row, nil
}

// decodeRow fills rec from row, refusing unknown columns, missing NOT NULL
// columns and values of the wrong type. extra names keys that belong to
// the file format rather than to the table (e.g. case_position).
func decodeRow(row Row, rec any, cols []column, extra ...string) error {
	v := reflect.ValueOf(rec).Elem()
	used := 0
	for _, c := range cols {
		raw, ok := row[c.name]
		if ok {
			used++
		}
		f := v.Field(c.index)
		if !ok {
			if c.notNull {
				return fmt.Errorf("column %s is missing (it is NOT NULL)", c.name)
			}
			continue
		}
		if f.Type() == jsonType {
			f.Set(reflect.ValueOf(models.JSON(append([]byte(nil), bytes.TrimSpace(raw)...))))
			continue
		}
		if c.notNull && bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
			return fmt.Errorf("column %s is null (it is NOT NULL)", c.name)
		}
		if err := json.Unmarshal(raw, f.Addr().Interface()); err != nil {
			return fmt.Errorf("column %s: want %s: %w", c.name, describe(f.Type()), err)
		}
	}
	for _, k := range extra {
		if _, ok := row[k]; ok {
			used++
		}
	}
	if used == len(row) {
		return nil
	}
	known := map[string]bool{}
	for _, c := range cols {
		known[c.name] = true
	}
	for _, k := range extra {
		known[k] = true
	}
	var unknown []string
	for k := range row {
		if !known[k] {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		return fmt.Errorf("unknown column(s) %s", strings.Join(unknown, ", "))
	}
	return nil
}

// describe names a Go type as a JSON reader would expect it.
func describe(t reflect.Type) string {
	nullable := ""
	if t.Kind() == reflect.Pointer {
		t, nullable = t.Elem(), " or null"
	}
	switch t.Kind() {
	case reflect.String:
		return "a string" + nullable
	case reflect.Int, reflect.Int32, reflect.Int64:
		return "a whole number" + nullable
	case reflect.Float64:
		return "a number" + nullable
	case reflect.Bool:
		return "true or false" + nullable
	}
	if t.Name() == "Time" {
		return "an RFC 3339 timestamp" + nullable
	}
	if t.Name() == "UUID" {
		return "a UUID string" + nullable
	}
	return "a " + t.String() + nullable
}

// Equal reports whether two runs hold the same evidence: every column the
// file carries, of the run, its cases and their metrics, compared as JSON
// values (key order and number spelling aside). Generated columns (ids,
// sequence, Rails timestamps) are not compared. It returns the first
// difference.
func Equal(a, b *models.Run) (bool, string) {
	fa, err := encodeRun(a)
	if err != nil {
		return false, err.Error()
	}
	fb, err := encodeRun(b)
	if err != nil {
		return false, err.Error()
	}
	if d := diffRows("run", []Row{fa.Run}, []Row{fb.Run}); d != "" {
		return false, d
	}
	if d := diffRows("case_results", fa.CaseResults, fb.CaseResults); d != "" {
		return false, d
	}
	if d := diffRows("metric_results", fa.MetricResults, fb.MetricResults); d != "" {
		return false, d
	}
	return true, ""
}

// diffRows describes the first difference between two row lists ("" when
// equal).
func diffRows(what string, a, b []Row) string {
	if len(a) != len(b) {
		return fmt.Sprintf("%s: %d rows against %d", what, len(a), len(b))
	}
	for i := range a {
		keys := map[string]bool{}
		for k := range a[i] {
			keys[k] = true
		}
		for k := range b[i] {
			keys[k] = true
		}
		names := make([]string, 0, len(keys))
		for k := range keys {
			names = append(names, k)
		}
		sort.Strings(names)
		for _, k := range names {
			if !sameJSON(a[i][k], b[i][k]) {
				return fmt.Sprintf("%s[%d].%s: %s against %s", what, i, k, orAbsent(a[i][k]), orAbsent(b[i][k]))
			}
		}
	}
	return ""
}

func orAbsent(raw json.RawMessage) string {
	if raw == nil {
		return "(SQL NULL)"
	}
	return string(raw)
}

// sameJSON compares two JSON values (jsonvalue.Equal; invalid JSON byte
// for byte); an absent value equals only another.
func sameJSON(a, b json.RawMessage) bool {
	if a == nil || b == nil {
		return a == nil && b == nil
	}
	same, err := jsonvalue.Equal(a, b)
	if err != nil {
		return bytes.Equal(a, b)
	}
	return same
}
