package schema

import (
	"context"
	"database/sql"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// Ready compares the live tables and their columns with the contract in a
// single catalog query, cheap enough for every command to run before it
// reads or writes. Its report is Check's without index and foreign key
// differences: missing tables, column differences and JSON defaults.
func Ready(ctx context.Context, db *models.DB) (*Report, error) {
	tables := Contract()
	names := make([]any, len(tables))
	for i, t := range tables {
		names[i] = t.Name
	}
	q := `SELECT c.table_name, c.column_name, c.data_type, c.datetime_precision, c.is_nullable = 'NO',
       c.column_default, c.is_identity = 'YES', false
FROM information_schema.columns c
WHERE c.table_schema = current_schema() AND c.table_name IN (?)
ORDER BY c.table_name, c.ordinal_position`
	if db.Dialect == models.SQLite {
		q = `SELECT m.name, p.name, lower(p.type), NULL, p."notnull" <> 0, p.dflt_value, false, p.pk > 0
FROM sqlite_master m, pragma_table_info(m.name) p
WHERE m.type = 'table' AND m.name IN (?)
ORDER BY m.name, p.cid`
	}
	in := strings.TrimSuffix(strings.Repeat("?, ", len(names)), ", ")
	rows, err := db.QueryContext(ctx, strings.Replace(q, "IN (?)", "IN ("+in+")", 1), names...)
	if err != nil {
		return nil, fmt.Errorf("check tables: %w", err)
	}
	defer rows.Close()
	live := map[string][]LiveColumn{}
	for rows.Next() {
		var (
			table     string
			c         LiveColumn
			precision *int64
			def       sql.NullString
			identity  bool
		)
		if err := rows.Scan(&table, &c.Name, &c.Type, &precision, &c.NotNull, &def, &identity, &c.PrimaryKey); err != nil {
			return nil, fmt.Errorf("check tables: %w", err)
		}
		c.HasDefault, c.Default = def.Valid || identity, def.String
		c.Type = liveType(c.Type, precision)
		live[table] = append(live[table], c)
	}
	if err := rows.Err(); err != nil {
		return nil, fmt.Errorf("check tables: %w", err)
	}
	rep := &Report{URL: db.URL, Dialect: db.Dialect}
	for _, t := range tables {
		cols, ok := live[t.Name]
		if !ok {
			rep.Differences = append(rep.Differences, Difference{
				Table: t.Name, Problem: MissingTable, Why: "the table does not exist",
			})
			continue
		}
		if db.Dialect == models.SQLite {
			markRowidAlias(cols)
		}
		rep.Differences = append(rep.Differences, columnDifferences(db.Dialect, t, cols)...)
	}
	return rep, nil
}
