package schema

import (
	"context"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/internal/jsonvalue"
	"github.com/agentevals-go/agentevals/models"
)

// This file covers the two parts of the contract that are not column types:
// the JSON object defaults ('{}') and the foreign keys. Both are read from
// the catalog by what they do, never by name (docs/architecture.md, the database contract): a default is
// information_schema.columns.column_default or PRAGMA table_info's
// dflt_value, and a foreign key is a pg_constraint row or a PRAGMA
// foreign_key_list row that ties the column to the parent's id.

// LiveForeignKey is a single-column foreign key as the database reports it.
// Its name is kept only to tell people how to validate it.
type LiveForeignKey struct {
	Name      string
	Column    string
	RefTable  string
	RefColumn string
	// Validated is false for a PostgreSQL key added NOT VALID: enforced for
	// new rows, but rows written before it were never checked.
	Validated bool
}

// foreignKeys returns the single-column foreign keys of a table whose
// parent lives in the same schema.
func (in introspector) foreignKeys(ctx context.Context, table string) ([]LiveForeignKey, error) {
	q := `
SELECT c.conname, a.attname, pt.relname, pa.attname, c.convalidated
FROM pg_constraint c
JOIN pg_class t ON t.oid = c.conrelid
JOIN pg_namespace n ON n.oid = t.relnamespace
JOIN pg_class pt ON pt.oid = c.confrelid
JOIN pg_namespace pn ON pn.oid = pt.relnamespace
JOIN pg_attribute a ON a.attrelid = c.conrelid AND a.attnum = c.conkey[1]
JOIN pg_attribute pa ON pa.attrelid = c.confrelid AND pa.attnum = c.confkey[1]
WHERE c.contype = 'f' AND cardinality(c.conkey) = 1
  AND n.nspname = current_schema() AND pn.nspname = current_schema() AND t.relname = ?
ORDER BY a.attname, c.conname`
	if in.dialect == models.SQLite {
		// A key written "REFERENCES parent" without a column refers to the
		// parent's primary key: PRAGMA foreign_key_list leaves "to" NULL.
		q = `
SELECT '', f."from", f."table",
       COALESCE(f."to", (SELECT p.name FROM pragma_table_info(f."table") p WHERE p.pk = 1), ''), 1
FROM pragma_foreign_key_list(?) f
WHERE f.id IN (SELECT id FROM pragma_foreign_key_list(?) GROUP BY id HAVING count(*) = 1)
ORDER BY f."from"`
	}
	args := []any{table}
	if in.dialect == models.SQLite {
		args = append(args, table)
	}
	rows, err := in.db.QueryContext(ctx, q, args...)
	if err != nil {
		return nil, fmt.Errorf("read foreign keys of %s: %w", table, err)
	}
	defer rows.Close()
	var out []LiveForeignKey
	for rows.Next() {
		var fk LiveForeignKey
		if err := rows.Scan(&fk.Name, &fk.Column, &fk.RefTable, &fk.RefColumn, &fk.Validated); err != nil {
			return nil, fmt.Errorf("read foreign keys of %s: %w", table, err)
		}
		out = append(out, fk)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read foreign keys of %s: %w", table, err)
	}
	return out, nil
}

// foreignKeyOn returns the live key tying column to parent's id, preferring
// a validated one, whatever its name.
func foreignKeyOn(live []LiveForeignKey, column, parent string) (LiveForeignKey, bool) {
	var found LiveForeignKey
	ok := false
	for _, fk := range live {
		if fk.Column == column && strings.EqualFold(fk.RefTable, parent) && fk.RefColumn == "id" {
			if !ok || fk.Validated {
				found, ok = fk, true
			}
		}
	}
	return found, ok
}

// foreignKeyDifferences reports the contract's foreign keys that a live
// table lacks or has not validated. Columns missing altogether are left to
// columnDifferences.
func foreignKeyDifferences(ctx context.Context, in introspector, t Table, cols []LiveColumn) ([]Difference, error) {
	var out []Difference
	for _, c := range t.Columns {
		if c.References == "" || findColumn(cols, c.Name) == nil {
			continue
		}
		live, err := in.foreignKeys(ctx, t.Name)
		if err != nil {
			return nil, err
		}
		ref := fmt.Sprintf("REFERENCES %s (id)", c.References)
		fk, ok := foreignKeyOn(live, c.Name, c.References)
		switch {
		case ok && fk.Validated:
			continue
		case ok:
			out = append(out, Difference{Table: t.Name, Column: c.Name, Problem: UnvalidatedForeignKey,
				Live: ref + " NOT VALID", Contract: ref, Compatible: true,
				Why: fmt.Sprintf("enforced for new rows, but rows written before it was added were never checked: "+
					"`ALTER TABLE %s VALIDATE CONSTRAINT %s` checks them without blocking writes",
					quoteIdent(t.Name), quoteIdent(fk.Name))})
			continue
		}
		why := fmt.Sprintf("evalrun always writes %s, taken from the parent row it wrote first in the same transaction, "+
			"so it needs no key; ", c.Name) +
			"without it nothing stops another writer from leaving rows that point nowhere; "
		if in.dialect == models.SQLite {
			why += "SQLite cannot add a foreign key to an existing table, so `evalrun db:migrate` leaves it to a table rebuild"
		} else if blocker, err := foreignKeyBlocker(ctx, in, t, c); err != nil {
			return nil, err
		} else if blocker != "" {
			why += "`evalrun db:migrate` cannot add it: " + blocker
		} else {
			why += "`evalrun db:migrate` adds it NOT VALID (checked for new rows; existing rows are not scanned)"
		}
		out = append(out, Difference{Table: t.Name, Column: c.Name, Problem: MissingForeignKey,
			Contract: ref, Compatible: true, Why: why})
	}
	return out, nil
}

// foreignKeyBlocker says why PostgreSQL would refuse the contract's key on
// column c of an existing table ("" when it can be added): the parent's id
// must exist, be unique and have the column's type.
func foreignKeyBlocker(ctx context.Context, in introspector, t Table, c Column) (string, error) {
	exists, err := in.tableExists(ctx, c.References)
	if err != nil {
		return "", err
	}
	if !exists {
		return "the table " + c.References + " does not exist", nil
	}
	parentCols, err := in.columns(ctx, c.References)
	if err != nil {
		return "", err
	}
	id := findColumn(parentCols, "id")
	if id == nil {
		return c.References + " has no id column", nil
	}
	indexes, err := in.indexes(ctx, c.References)
	if err != nil {
		return "", err
	}
	if !hasIndexOn(indexes, []string{"id"}, true) {
		return c.References + ".id has no primary key or unique index", nil
	}
	cols, err := in.columns(ctx, t.Name)
	if err != nil {
		return "", err
	}
	if col := findColumn(cols, c.Name); col == nil || col.Type != id.Type {
		return fmt.Sprintf("%s.%s and %s.id differ in type", t.Name, c.Name, c.References), nil
	}
	return "", nil
}

// addForeignKeys adds the contract's missing foreign keys to an existing
// PostgreSQL table.
//
// Decision: add them NOT VALID rather than only report them. NOT VALID
// touches no row and does not scan the table (it holds a short SHARE ROW
// EXCLUSIVE lock on both tables: reads go on), yet every row written from
// then on is checked, which is what the contract promises the Ruby gem.
// Rows written before are history: they are neither rewritten nor judged,
// and db:check names the key as not validated along with the command that
// checks them. A key PostgreSQL would refuse (no unique parent id, types
// that differ) is skipped so that Migrate still completes; db:check says
// why. SQLite cannot add constraints to an existing table: report only.
func addForeignKeys(ctx context.Context, in introspector, t Table) error {
	if in.dialect != models.PostgreSQL {
		return nil
	}
	cols, err := in.columns(ctx, t.Name)
	if err != nil {
		return err
	}
	for _, c := range t.Columns {
		if c.References == "" || findColumn(cols, c.Name) == nil {
			continue
		}
		live, err := in.foreignKeys(ctx, t.Name)
		if err != nil {
			return err
		}
		if _, ok := foreignKeyOn(live, c.Name, c.References); ok {
			continue
		}
		blocker, err := foreignKeyBlocker(ctx, in, t, c)
		if err != nil {
			return err
		}
		if blocker != "" {
			continue
		}
		stmt := fmt.Sprintf("ALTER TABLE %s ADD FOREIGN KEY (%s) REFERENCES %s (id) NOT VALID",
			quoteIdent(t.Name), quoteIdent(c.Name), quoteIdent(c.References))
		if _, err := in.db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("add foreign key %s.%s: %w", t.Name, c.Name, err)
		}
	}
	return nil
}

// defaultLiteral extracts the value of a default that is a string literal,
// as PostgreSQL ('{}'::jsonb, possibly parenthesised and cast again) or
// SQLite ('{}') report it; ok is false for any other expression.
func defaultLiteral(def string) (string, bool) {
	s := strings.TrimSpace(def)
	for {
		trimmed := s
		// A trailing cast: "::" followed by a type name, which holds no
		// quote and balanced parentheses (character varying(255)).
		if i := strings.LastIndex(trimmed, "::"); i > 0 {
			typ := trimmed[i+2:]
			if !strings.Contains(typ, "'") && strings.Count(typ, "(") == strings.Count(typ, ")") {
				trimmed = strings.TrimSpace(trimmed[:i])
			}
		}
		if strings.HasPrefix(trimmed, "(") && strings.HasSuffix(trimmed, ")") {
			trimmed = strings.TrimSpace(trimmed[1 : len(trimmed)-1])
		}
		if trimmed == s {
			break
		}
		s = trimmed
	}
	if len(s) < 2 || s[0] != '\'' || s[len(s)-1] != '\'' {
		return "", false
	}
	return strings.ReplaceAll(s[1:len(s)-1], "''", "'"), true
}

// sameJSON reports whether two texts hold the same JSON value
// (jsonvalue.Equal); invalid JSON is never the same.
func sameJSON(a, b string) bool {
	same, err := jsonvalue.Equal([]byte(a), []byte(b))
	return err == nil && same
}

// defaultDifference reports a JSON object column whose '{}' default is
// missing or different; ok is false when it matches.
func defaultDifference(d models.Dialect, table string, c Column, lc LiveColumn) (Difference, bool) {
	want := "DEFAULT " + quoteString(c.JSONDefault)
	writes := fmt.Sprintf("evalrun always writes %s (a missing value as {}), so only inserts that leave it out are affected", c.Name)
	if lc.Default == "" {
		why := writes + ": they no longer get {}; "
		switch {
		case d == models.SQLite:
			why += "SQLite cannot change an existing column's default, so `evalrun db:migrate` leaves it to a table rebuild"
		case liveKind(d, lc.Type) != KindJSON:
			why += "`evalrun db:migrate` restores it on json and jsonb columns only"
		default:
			why += "`evalrun db:migrate` restores it without touching a row"
		}
		return Difference{Table: table, Column: c.Name, Problem: MissingDefault, Contract: want, Compatible: true, Why: why}, true
	}
	if v, ok := defaultLiteral(lc.Default); ok && sameJSON(v, c.JSONDefault) {
		return Difference{}, false
	}
	return Difference{Table: table, Column: c.Name, Problem: DifferentDefault, Live: "DEFAULT " + lc.Default,
		Contract: want, Compatible: true,
		Why: writes + ": they get this value instead of {}; `evalrun db:migrate` leaves a default someone chose alone"}, true
}

// restoreJSONDefaults sets the missing '{}' defaults of JSON object
// columns on PostgreSQL. ALTER COLUMN … SET DEFAULT only changes the
// catalog: no row is read or rewritten. A different default is someone's
// choice and is kept; SQLite cannot change a default: report only.
func restoreJSONDefaults(ctx context.Context, in introspector, t Table) error {
	if in.dialect != models.PostgreSQL {
		return nil
	}
	cols, err := in.columns(ctx, t.Name)
	if err != nil {
		return err
	}
	for _, c := range t.Columns {
		lc := findColumn(cols, c.Name)
		if c.JSONDefault == "" || lc == nil || lc.Default != "" || liveKind(in.dialect, lc.Type) != KindJSON {
			continue
		}
		// An untyped literal takes the column's type: '{}'::jsonb on jsonb.
		stmt := fmt.Sprintf("ALTER TABLE %s ALTER COLUMN %s SET DEFAULT %s",
			quoteIdent(t.Name), quoteIdent(c.Name), quoteString(c.JSONDefault))
		if _, err := in.db.ExecContext(ctx, stmt); err != nil {
			return fmt.Errorf("restore default of %s.%s: %w", t.Name, c.Name, err)
		}
	}
	return nil
}

// findColumn returns the live column with that name, or nil.
func findColumn(cols []LiveColumn, name string) *LiveColumn {
	for i := range cols {
		if cols[i].Name == name {
			return &cols[i]
		}
	}
	return nil
}
