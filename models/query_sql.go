package models

// sqlFuncs spells the few SQL functions that differ between the dialects.
type sqlFuncs struct{ dialect Dialect }

func (db *DB) funcs() sqlFuncs { return sqlFuncs{db.Dialect} }

// text is the SQL expression of a top-level key of a JSON object column
// as text; SQL NULL when the key is missing or JSON null.
func (f sqlFuncs) text(column, key string) string {
	if f.dialect == SQLite {
		return "json_extract(" + column + ", '$." + key + "')"
	}
	return "(" + column + "::jsonb ->> '" + key + "')"
}

// nested is text for a key of an object under a top-level key.
func (f sqlFuncs) nested(column, key, sub string) string {
	if f.dialect == SQLite {
		return "json_extract(" + column + ", '$." + key + "." + sub + "')"
	}
	return "(" + column + "::jsonb #>> '{" + key + "," + sub + "}')"
}

// notObject is the SQL condition that a top-level key of a JSON object
// column is missing or holds anything but a non-empty object.
func (f sqlFuncs) notObject(column, key string) string {
	if f.dialect == SQLite {
		return "(json_type(" + column + ", '$." + key + "') IS NOT 'object' OR json_extract(" + column + ", '$." + key + "') = '{}')"
	}
	return "(jsonb_typeof(" + column + "::jsonb -> '" + key + "') IS DISTINCT FROM 'object' OR " + column + "::jsonb -> '" + key + "' = '{}'::jsonb)"
}

// joinOrdered is the aggregate that joins column's values with
// caseIDSeparator in the order of orderBy.
func (f sqlFuncs) joinOrdered(column, orderBy string) string {
	if f.dialect == SQLite {
		return "group_concat(" + column + ", char(31) ORDER BY " + orderBy + ")"
	}
	return "string_agg(" + column + ", chr(31) ORDER BY " + orderBy + ")"
}
