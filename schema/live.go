package schema

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/uptrace/bun"

	"github.com/agentevals-go/agentevals/models"
)

// LiveColumn is a column as the database reports it.
type LiveColumn struct {
	Name string
	// Type is the type as the database names it, e.g. "character varying",
	// "timestamp(6) without time zone", "jsonb" or SQLite's declared type.
	Type    string
	NotNull bool
	// HasDefault reports a column default, identity or SQLite rowid alias:
	// the database fills the column when an INSERT leaves it out.
	HasDefault bool
	// Default is the default expression as the catalog reports it
	// (column_default, PRAGMA table_info's dflt_value), "" when none.
	Default string
	// PrimaryKey reports membership in the table's primary key.
	PrimaryKey bool
}

// LiveIndex is an index as the database reports it. Names are reported but
// never relied on: another tool may have named the same index differently.
type LiveIndex struct {
	Name    string
	Columns []string
	Unique  bool
}

// introspector reads the live schema through a connection or transaction.
type introspector struct {
	db      bun.IDB
	dialect models.Dialect
}

func (in introspector) tableExists(ctx context.Context, table string) (bool, error) {
	var n int
	var err error
	if in.dialect == models.SQLite {
		err = in.db.QueryRowContext(ctx, "SELECT count(*) FROM sqlite_master WHERE type = 'table' AND name = ?", table).Scan(&n)
	} else {
		err = in.db.QueryRowContext(ctx, "SELECT count(*) FROM information_schema.tables WHERE table_schema = current_schema() AND table_name = ?", table).Scan(&n)
	}
	if err != nil {
		return false, fmt.Errorf("look for table %s: %w", table, err)
	}
	return n > 0, nil
}

func (in introspector) columns(ctx context.Context, table string) ([]LiveColumn, error) {
	if in.dialect == models.SQLite {
		return in.sqliteColumns(ctx, table)
	}
	rows, err := in.db.QueryContext(ctx, `
SELECT c.column_name, c.data_type, c.datetime_precision, c.is_nullable, c.column_default, c.is_identity,
       EXISTS (SELECT 1 FROM information_schema.table_constraints tc
               JOIN information_schema.key_column_usage k
                 ON k.constraint_name = tc.constraint_name AND k.table_schema = tc.table_schema AND k.table_name = tc.table_name
               WHERE tc.table_schema = c.table_schema AND tc.table_name = c.table_name
                 AND tc.constraint_type = 'PRIMARY KEY' AND k.column_name = c.column_name)
FROM information_schema.columns c
WHERE c.table_schema = current_schema() AND c.table_name = ?
ORDER BY c.ordinal_position`, table)
	if err != nil {
		return nil, fmt.Errorf("read columns of %s: %w", table, err)
	}
	defer rows.Close()
	var cols []LiveColumn
	for rows.Next() {
		var (
			name, dataType, nullable, identity string
			precision                          sql.NullInt64
			def                                sql.NullString
			pk                                 bool
		)
		if err := rows.Scan(&name, &dataType, &precision, &nullable, &def, &identity, &pk); err != nil {
			return nil, fmt.Errorf("read columns of %s: %w", table, err)
		}
		var p *int64
		if precision.Valid {
			p = &precision.Int64
		}
		cols = append(cols, LiveColumn{
			Name: name, Type: liveType(dataType, p), NotNull: nullable == "NO",
			HasDefault: def.Valid || identity == "YES", Default: def.String, PrimaryKey: pk,
		})
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read columns of %s: %w", table, err)
	}
	return cols, nil
}

// liveType names a PostgreSQL column type the way the contract does:
// timestamps with their fractional-second precision.
func liveType(dataType string, precision *int64) string {
	if strings.HasPrefix(dataType, "timestamp") && precision != nil {
		return strings.Replace(dataType, "timestamp", fmt.Sprintf("timestamp(%d)", *precision), 1)
	}
	return dataType
}

func (in introspector) sqliteColumns(ctx context.Context, table string) ([]LiveColumn, error) {
	rows, err := in.db.QueryContext(ctx, "SELECT name, type, \"notnull\", dflt_value, pk FROM pragma_table_info(?)", table)
	if err != nil {
		return nil, fmt.Errorf("read columns of %s: %w", table, err)
	}
	defer rows.Close()
	var cols []LiveColumn
	for rows.Next() {
		var (
			c       LiveColumn
			notnull int
			def     sql.NullString
			pk      int
		)
		if err := rows.Scan(&c.Name, &c.Type, &notnull, &def, &pk); err != nil {
			return nil, fmt.Errorf("read columns of %s: %w", table, err)
		}
		c.Type = strings.ToLower(c.Type)
		c.NotNull, c.HasDefault, c.Default, c.PrimaryKey = notnull != 0, def.Valid, def.String, pk > 0
		cols = append(cols, c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read columns of %s: %w", table, err)
	}
	markRowidAlias(cols)
	return cols, nil
}

// markRowidAlias marks a lone INTEGER PRIMARY KEY as filled by the
// database: in SQLite it aliases the rowid.
func markRowidAlias(cols []LiveColumn) {
	pks := 0
	for _, c := range cols {
		if c.PrimaryKey {
			pks++
		}
	}
	for i, c := range cols {
		if c.PrimaryKey && pks == 1 && c.Type == "integer" {
			cols[i].HasDefault = true
		}
	}
}

func (in introspector) indexes(ctx context.Context, table string) ([]LiveIndex, error) {
	if in.dialect == models.SQLite {
		return in.sqliteIndexes(ctx, table)
	}
	rows, err := in.db.QueryContext(ctx, `
SELECT ci.relname, ix.indisunique,
       array_to_string(ARRAY(
         SELECT a.attname FROM unnest(ix.indkey::int2[]) WITH ORDINALITY AS k(attnum, ord)
         JOIN pg_attribute a ON a.attrelid = ix.indrelid AND a.attnum = k.attnum
         ORDER BY k.ord), ',')
FROM pg_index ix
JOIN pg_class ci ON ci.oid = ix.indexrelid
JOIN pg_class ct ON ct.oid = ix.indrelid
JOIN pg_namespace n ON n.oid = ct.relnamespace
WHERE n.nspname = current_schema() AND ct.relname = ?
ORDER BY ci.relname`, table)
	if err != nil {
		return nil, fmt.Errorf("read indexes of %s: %w", table, err)
	}
	defer rows.Close()
	var out []LiveIndex
	for rows.Next() {
		var ix LiveIndex
		var cols string
		if err := rows.Scan(&ix.Name, &ix.Unique, &cols); err != nil {
			return nil, fmt.Errorf("read indexes of %s: %w", table, err)
		}
		if cols != "" {
			ix.Columns = strings.Split(cols, ",")
		}
		out = append(out, ix)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read indexes of %s: %w", table, err)
	}
	return out, nil
}

func (in introspector) sqliteIndexes(ctx context.Context, table string) ([]LiveIndex, error) {
	rows, err := in.db.QueryContext(ctx, "SELECT name, \"unique\" FROM pragma_index_list(?) ORDER BY name", table)
	if err != nil {
		return nil, fmt.Errorf("read indexes of %s: %w", table, err)
	}
	var out []LiveIndex
	for rows.Next() {
		var ix LiveIndex
		var unique int
		if err := rows.Scan(&ix.Name, &unique); err != nil {
			rows.Close()
			return nil, fmt.Errorf("read indexes of %s: %w", table, err)
		}
		ix.Unique = unique != 0
		out = append(out, ix)
	}
	rows.Close()
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("read indexes of %s: %w", table, err)
	}
	for i := range out {
		cr, err := in.db.QueryContext(ctx, "SELECT name FROM pragma_index_info(?) ORDER BY seqno", out[i].Name)
		if err != nil {
			return nil, fmt.Errorf("read index %s: %w", out[i].Name, err)
		}
		for cr.Next() {
			var name sql.NullString
			if err := cr.Scan(&name); err != nil {
				cr.Close()
				return nil, fmt.Errorf("read index %s: %w", out[i].Name, err)
			}
			out[i].Columns = append(out[i].Columns, name.String)
		}
		cr.Close()
		if err := cr.Err(); err != nil {
			return nil, fmt.Errorf("read index %s: %w", out[i].Name, err)
		}
	}
	return out, nil
}

// hasIndexOn reports whether some index covers exactly these columns in
// this order (and is unique when unique is asked for), whatever its name.
func hasIndexOn(live []LiveIndex, cols []string, unique bool) bool {
	for _, ix := range live {
		if unique && !ix.Unique {
			continue
		}
		if strings.Join(ix.Columns, ",") == strings.Join(cols, ",") {
			return true
		}
	}
	return false
}
