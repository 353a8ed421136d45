package schema

import (
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// Kind is the logical type of a contract column. Live column types are
// mapped onto kinds to decide whether a difference is compatible.
type Kind string

// Column kinds of the contract.
const (
	KindUUID      Kind = "uuid"
	KindBigint    Kind = "bigint"
	KindInteger   Kind = "integer"
	KindString    Kind = "string"
	KindText      Kind = "text"
	KindFloat     Kind = "float"
	KindNumeric   Kind = "numeric"
	KindBoolean   Kind = "boolean"
	KindTimestamp Kind = "timestamp"
	KindJSON      Kind = "json"
)

// Column is one column of the contract (docs/architecture.md, the database contract).
type Column struct {
	Name    string
	Kind    Kind
	NotNull bool
	// JSONDefault is the default of JSON object columns ("{}"), else "".
	JSONDefault string
	// Generated columns get their value from the database (serial ids and
	// the runs' sequence); Go never writes them.
	Generated bool
	// PrimaryKey marks the table's primary key in the contract.
	PrimaryKey bool
	// References names the parent table of a foreign key column.
	References string
}

// Index is one index of the contract.
type Index struct {
	Name    string
	Columns []string
	Unique  bool
}

// Table is one table of the contract.
type Table struct {
	Name    string
	Columns []Column
	Indexes []Index
}

// Column returns the contract column with that name.
func (t Table) Column(name string) (Column, bool) {
	for _, c := range t.Columns {
		if c.Name == name {
			return c, true
		}
	}
	return Column{}, false
}

func timestamps() []Column {
	return []Column{
		{Name: "created_at", Kind: KindTimestamp, NotNull: true},
		{Name: "updated_at", Kind: KindTimestamp, NotNull: true},
	}
}

// Contract returns the three tables shared with the Ruby gem, in creation
// order (parents first).
func Contract() []Table {
	runs := Table{
		Name: models.RunsTable,
		Columns: append([]Column{
			{Name: "id", Kind: KindUUID, NotNull: true, PrimaryKey: true},
			{Name: "sequence", Kind: KindBigint, NotNull: true, Generated: true},
			{Name: "suite", Kind: KindString, NotNull: true},
			{Name: "agent", Kind: KindString, NotNull: true},
			{Name: "version", Kind: KindString, NotNull: true},
			{Name: "suite_digest", Kind: KindString, NotNull: true},
			{Name: "status", Kind: KindString, NotNull: true},
			{Name: "started_at", Kind: KindTimestamp, NotNull: true},
			{Name: "finished_at", Kind: KindTimestamp, NotNull: true},
			{Name: "metadata", Kind: KindJSON, NotNull: true, JSONDefault: "{}"},
			{Name: "summary", Kind: KindJSON, NotNull: true, JSONDefault: "{}"},
		}, timestamps()...),
		Indexes: []Index{
			{Name: "index_ruby_llm_evaluations_runs_on_sequence", Columns: []string{"sequence"}, Unique: true},
			{Name: "index_ruby_llm_evaluations_runs_on_baseline_lookup", Columns: []string{"suite", "agent", "suite_digest", "started_at", "sequence"}},
			{Name: "index_ruby_llm_evaluations_runs_on_started_at_and_sequence", Columns: []string{"started_at", "sequence"}},
		},
	}
	cases := Table{
		Name: models.CaseResultsTable,
		Columns: append([]Column{
			{Name: "id", Kind: KindBigint, NotNull: true, PrimaryKey: true, Generated: true},
			{Name: "run_id", Kind: KindUUID, NotNull: true, References: models.RunsTable},
			{Name: "position", Kind: KindInteger, NotNull: true},
			{Name: "case_id", Kind: KindString, NotNull: true},
			{Name: "name", Kind: KindString, NotNull: true},
			{Name: "status", Kind: KindString, NotNull: true},
			{Name: "duration_ms", Kind: KindFloat, NotNull: true},
			{Name: "question", Kind: KindJSON},
			{Name: "expected_answer", Kind: KindJSON},
			{Name: "expected_actions", Kind: KindJSON},
			{Name: "minimum_scores", Kind: KindJSON},
			{Name: "metadata", Kind: KindJSON, NotNull: true, JSONDefault: "{}"},
			{Name: "output", Kind: KindJSON},
			{Name: "actions", Kind: KindJSON},
			{Name: "response_metadata", Kind: KindJSON},
			{Name: "error_details", Kind: KindJSON},
			{Name: "input_tokens", Kind: KindInteger},
			{Name: "output_tokens", Kind: KindInteger},
			{Name: "cost", Kind: KindNumeric},
		}, timestamps()...),
		Indexes: []Index{
			{Name: "index_ruby_llm_evaluations_case_results_on_run_id", Columns: []string{"run_id"}},
			{Name: "index_ruby_llm_evaluations_case_results_on_run_id_and_position", Columns: []string{"run_id", "position"}, Unique: true},
		},
	}
	metrics := Table{
		Name: models.MetricResultsTable,
		Columns: append([]Column{
			{Name: "id", Kind: KindBigint, NotNull: true, PrimaryKey: true, Generated: true},
			{Name: "case_result_id", Kind: KindBigint, NotNull: true, References: models.CaseResultsTable},
			{Name: "position", Kind: KindInteger, NotNull: true},
			{Name: "name", Kind: KindString, NotNull: true},
			{Name: "threshold", Kind: KindFloat, NotNull: true},
			{Name: "score", Kind: KindFloat},
			{Name: "passed", Kind: KindBoolean, NotNull: true},
			{Name: "reason", Kind: KindText},
			{Name: "error_details", Kind: KindJSON},
		}, timestamps()...),
		Indexes: []Index{
			{Name: "index_ruby_llm_evaluations_metric_results_on_case_result_id", Columns: []string{"case_result_id"}},
			// Rails' generated name would pass PostgreSQL's 63-character limit.
			{Name: "index_ruby_llm_evaluations_metric_results_on_case_and_position", Columns: []string{"case_result_id", "position"}, Unique: true},
		},
	}
	return []Table{runs, cases, metrics}
}

// ColumnType returns the SQL type the contract gives a column in a dialect.
//
// PostgreSQL follows Rails' conventions exactly. SQLite is ours alone (the
// embedded default); its types are chosen for SQLite's type affinity: JSON
// is "text" so that a JSON number is never turned into an SQL number, and
// timestamps are "datetime" so the driver hands them back as time.Time.
func ColumnType(d models.Dialect, c Column) string {
	if d == models.SQLite {
		switch c.Kind {
		case KindUUID:
			return "varchar(36)"
		case KindBigint, KindInteger:
			return "integer"
		case KindString:
			return "varchar"
		case KindText, KindJSON:
			return "text"
		case KindFloat, KindNumeric:
			return "real"
		case KindBoolean:
			return "boolean"
		case KindTimestamp:
			return "datetime"
		}
		return string(c.Kind)
	}
	switch c.Kind {
	case KindUUID:
		return "uuid"
	case KindBigint:
		return "bigint"
	case KindInteger:
		return "integer"
	case KindString:
		return "character varying"
	case KindText:
		return "text"
	case KindFloat:
		return "double precision"
	case KindNumeric:
		return "numeric"
	case KindBoolean:
		return "boolean"
	case KindTimestamp:
		return "timestamp(6) without time zone"
	case KindJSON:
		return "jsonb"
	}
	return string(c.Kind)
}

// columnDDL is the column definition inside CREATE TABLE or ADD COLUMN.
func columnDDL(d models.Dialect, c Column) string {
	var b strings.Builder
	b.WriteString(quoteIdent(c.Name))
	b.WriteByte(' ')
	switch {
	case d == models.PostgreSQL && c.Generated && c.PrimaryKey:
		b.WriteString("bigserial PRIMARY KEY")
	case d == models.PostgreSQL && c.Generated:
		b.WriteString("bigserial NOT NULL")
	case d == models.SQLite && c.Generated && c.Name == "sequence":
		// SQLite has no serial columns: the run's sequence is the rowid,
		// which AUTOINCREMENT never reuses; the uuid id stays unique.
		b.WriteString("integer PRIMARY KEY AUTOINCREMENT NOT NULL")
	case d == models.SQLite && c.Generated && c.PrimaryKey:
		b.WriteString("integer PRIMARY KEY AUTOINCREMENT NOT NULL")
	case d == models.SQLite && c.PrimaryKey:
		b.WriteString(ColumnType(d, c) + " NOT NULL UNIQUE")
	case c.PrimaryKey:
		b.WriteString(ColumnType(d, c) + " PRIMARY KEY")
	default:
		b.WriteString(ColumnType(d, c))
		if c.NotNull {
			b.WriteString(" NOT NULL")
		}
		if c.JSONDefault != "" {
			b.WriteString(" DEFAULT " + quoteString(c.JSONDefault))
		}
	}
	return b.String()
}

// createTableSQL is the CREATE TABLE statement of a contract table.
func createTableSQL(d models.Dialect, t Table) string {
	var lines []string
	for _, c := range t.Columns {
		lines = append(lines, "  "+columnDDL(d, c))
	}
	for _, c := range t.Columns {
		if c.References != "" {
			lines = append(lines, fmt.Sprintf("  FOREIGN KEY (%s) REFERENCES %s (id)", quoteIdent(c.Name), quoteIdent(c.References)))
		}
	}
	return fmt.Sprintf("CREATE TABLE %s (\n%s\n)", quoteIdent(t.Name), strings.Join(lines, ",\n"))
}

// CreateTableSQL returns the CREATE TABLE statement Migrate uses for a
// contract table in a dialect ("" for a table outside the contract).
func CreateTableSQL(d models.Dialect, table string) string {
	for _, t := range Contract() {
		if t.Name == table {
			return createTableSQL(d, t)
		}
	}
	return ""
}

func createIndexSQL(t Table, ix Index) string {
	unique := ""
	if ix.Unique {
		unique = "UNIQUE "
	}
	cols := make([]string, len(ix.Columns))
	for i, c := range ix.Columns {
		cols[i] = quoteIdent(c)
	}
	return fmt.Sprintf("CREATE %sINDEX IF NOT EXISTS %s ON %s (%s)", unique, quoteIdent(ix.Name), quoteIdent(t.Name), strings.Join(cols, ", "))
}

func quoteIdent(s string) string { return `"` + strings.ReplaceAll(s, `"`, `""`) + `"` }

func quoteString(s string) string { return "'" + strings.ReplaceAll(s, "'", "''") + "'" }
