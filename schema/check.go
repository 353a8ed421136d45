package schema

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// Problem names what kind of difference a check found.
type Problem string

// Differences between a live schema and the contract.
const (
	MissingTable    Problem = "missing table"
	MissingColumn   Problem = "missing column"
	ExtraColumn     Problem = "extra column"
	DifferentColumn Problem = "different column"
	MissingIndex    Problem = "missing index"
	// MissingDefault and DifferentDefault concern the '{}' default of the
	// JSON object columns.
	MissingDefault   Problem = "missing default"
	DifferentDefault Problem = "different default"
	// MissingForeignKey is a contract foreign key the live table lacks;
	// UnvalidatedForeignKey one added NOT VALID, so older rows are unchecked.
	MissingForeignKey     Problem = "missing foreign key"
	UnvalidatedForeignKey Problem = "unvalidated foreign key"
)

// Difference is one way the live schema departs from the contract.
type Difference struct {
	Table   string
	Column  string // empty for tables; the column list for indexes
	Problem Problem
	// Live and Contract describe the column (type and nullability), its
	// default or its foreign key as it is and as the contract has it;
	// either is empty when absent.
	Live, Contract string
	// Compatible differences leave the database usable by evalrun,
	// evaldash and the Ruby gem.
	Compatible bool
	// Why explains the verdict.
	Why string
}

// Report is the result of comparing a live schema with the contract.
type Report struct {
	URL         string
	Dialect     models.Dialect
	Differences []Difference
}

// Usable reports whether every difference is compatible.
func (r *Report) Usable() bool {
	for _, d := range r.Differences {
		if !d.Compatible {
			return false
		}
	}
	return true
}

// Incompatible returns the differences that make the database unusable.
func (r *Report) Incompatible() []Difference {
	var out []Difference
	for _, d := range r.Differences {
		if !d.Compatible {
			out = append(out, d)
		}
	}
	return out
}

// Write prints the report for people: one line per difference, grouped by
// table, then the verdict.
func (r *Report) Write(w io.Writer) error {
	var b strings.Builder
	fmt.Fprintf(&b, "Schema of %s compared with the evaluation tables contract:\n", r.URL)
	for _, t := range Contract() {
		var lines []string
		for _, d := range r.Differences {
			if d.Table != t.Name {
				continue
			}
			verdict := "compatible"
			if !d.Compatible {
				verdict = "INCOMPATIBLE"
			}
			what := d.Problem
			desc := ""
			switch {
			case d.Problem == MissingTable:
				desc = ""
			case d.Live != "" && d.Contract != "":
				desc = fmt.Sprintf(" %s: %s (contract: %s)", d.Column, d.Live, d.Contract)
			case d.Live != "":
				desc = fmt.Sprintf(" %s: %s", d.Column, d.Live)
			default:
				desc = fmt.Sprintf(" %s: contract %s", d.Column, d.Contract)
			}
			lines = append(lines, fmt.Sprintf("  %-12s %s%s — %s", verdict, what, desc, d.Why))
		}
		if len(lines) == 0 {
			fmt.Fprintf(&b, "%s: matches\n", t.Name)
			continue
		}
		fmt.Fprintf(&b, "%s:\n%s\n", t.Name, strings.Join(lines, "\n"))
	}
	if bad := r.Incompatible(); len(bad) > 0 {
		fmt.Fprintf(&b, "Not usable: %d incompatible difference(s). Run `evalrun db:migrate`, or fix the columns marked INCOMPATIBLE.\n", len(bad))
	} else if len(r.Differences) > 0 {
		fmt.Fprintf(&b, "Usable: %d compatible difference(s).\n", len(r.Differences))
	} else {
		b.WriteString("Usable: the schema matches the contract.\n")
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// Check compares the live schema with the contract. It only reads, so it
// works on read-only connections.
func Check(ctx context.Context, db *models.DB) (*Report, error) {
	in := introspector{db: db.DB, dialect: db.Dialect}
	rep := &Report{URL: db.URL, Dialect: db.Dialect}
	for _, t := range Contract() {
		exists, err := in.tableExists(ctx, t.Name)
		if err != nil {
			return nil, err
		}
		if !exists {
			rep.Differences = append(rep.Differences, Difference{
				Table: t.Name, Problem: MissingTable, Why: "the table does not exist",
			})
			continue
		}
		live, err := in.columns(ctx, t.Name)
		if err != nil {
			return nil, err
		}
		rep.Differences = append(rep.Differences, columnDifferences(db.Dialect, t, live)...)
		fks, err := foreignKeyDifferences(ctx, in, t, live)
		if err != nil {
			return nil, err
		}
		rep.Differences = append(rep.Differences, fks...)
		indexes, err := in.indexes(ctx, t.Name)
		if err != nil {
			return nil, err
		}
		for _, ix := range t.Indexes {
			if hasIndexOn(indexes, ix.Columns, ix.Unique) {
				continue
			}
			kind := "index"
			if ix.Unique {
				kind = "unique index"
			}
			rep.Differences = append(rep.Differences, Difference{
				Table: t.Name, Column: "(" + strings.Join(ix.Columns, ", ") + ")", Problem: MissingIndex,
				Contract: kind, Compatible: true, Why: "queries still work, more slowly; `evalrun db:migrate` adds it",
			})
		}
	}
	return rep, nil
}

// columnDifferences compares the live columns of an existing table with
// its contract table.
func columnDifferences(d models.Dialect, t Table, live []LiveColumn) []Difference {
	var out []Difference
	byName := map[string]LiveColumn{}
	for _, c := range live {
		byName[c.Name] = c
	}
	for _, c := range t.Columns {
		lc, ok := byName[c.Name]
		if !ok {
			out = append(out, Difference{
				Table: t.Name, Column: c.Name, Problem: MissingColumn,
				Contract: describeContract(d, c), Why: "evalrun reads and writes this column",
			})
			continue
		}
		if diff, ok := compareColumn(d, t.Name, c, lc); ok {
			out = append(out, diff)
		}
		if c.JSONDefault == "" {
			continue
		}
		if diff, ok := defaultDifference(d, t.Name, c, lc); ok {
			out = append(out, diff)
		}
	}
	for _, lc := range live {
		if _, ok := t.Column(lc.Name); ok {
			continue
		}
		diff := Difference{Table: t.Name, Column: lc.Name, Problem: ExtraColumn, Live: describeLive(lc), Compatible: true,
			Why: "left alone: evalrun neither reads nor writes it"}
		if lc.NotNull && !lc.HasDefault {
			diff.Compatible = false
			diff.Why = "NOT NULL without a default: inserts that leave it out fail"
		}
		out = append(out, diff)
	}
	return out
}

func describeContract(d models.Dialect, c Column) string {
	s := ColumnType(d, c)
	if c.NotNull {
		s += " NOT NULL"
	}
	return s
}

func describeLive(c LiveColumn) string {
	s := c.Type
	if c.NotNull {
		s += " NOT NULL"
	}
	return s
}

// compareColumn classifies how a live column differs from its contract
// column; ok is false when they agree.
func compareColumn(d models.Dialect, table string, c Column, lc LiveColumn) (Difference, bool) {
	diff := Difference{Table: table, Column: c.Name, Problem: DifferentColumn,
		Live: describeLive(lc), Contract: describeContract(d, c), Compatible: true}
	var whys []string
	bad := func(why string) { diff.Compatible = false; whys = append(whys, why) }
	fine := func(why string) { whys = append(whys, why) }

	want := ColumnType(d, c)
	if lc.Type != want {
		compatible, why := typeCompatible(d, c.Kind, lc.Type)
		if compatible {
			fine(why)
		} else {
			bad(why)
		}
	}
	switch {
	case c.NotNull && !lc.NotNull:
		fine("nullable where the contract says NOT NULL: evalrun always writes a value")
	case !c.NotNull && lc.NotNull && !lc.HasDefault:
		bad("NOT NULL where the contract allows NULL: evalrun writes NULL here")
	}
	if c.Generated && !lc.HasDefault {
		bad("the database must generate this value (serial or identity), evalrun never writes it")
	}
	if len(whys) == 0 {
		return Difference{}, false
	}
	diff.Why = strings.Join(whys, "; ")
	return diff, true
}

// typeCompatible decides whether a live column type can stand in for the
// contract's type.
func typeCompatible(d models.Dialect, want Kind, live string) (bool, string) {
	got := liveKind(d, live)
	switch {
	case got == want:
		if want == KindTimestamp && live != "timestamp(6) without time zone" && d == models.PostgreSQL {
			return true, "fewer fractional digits than microseconds: times are rounded"
		}
		if want == KindJSON {
			return true, "json and jsonb hold the same values"
		}
		return true, "same kind of value"
	case isNumber(want) && isNumber(got):
		return true, "numbers convert"
	case (want == KindString || want == KindText) && (got == KindString || got == KindText):
		return true, "text either way"
	case want == KindUUID && (got == KindString || got == KindText):
		return true, "uuids are stored as their text"
	case want == KindTimestamp && got == "timestamptz":
		return true, "evalrun's sessions use UTC, so values keep their instant"
	default:
		if got == "" {
			got = Kind(live)
		}
		return false, fmt.Sprintf("a %s column cannot hold the contract's %s values", got, want)
	}
}

func isNumber(k Kind) bool {
	return k == KindBigint || k == KindInteger || k == KindFloat || k == KindNumeric
}

// liveKind maps a live column type onto a contract kind.
func liveKind(d models.Dialect, typ string) Kind {
	t := strings.ToLower(strings.TrimSpace(typ))
	if d == models.SQLite {
		// SQLite type affinity rules (https://sqlite.org/datatype3.html §3.1),
		// plus the names we give JSON and time columns.
		switch {
		case t == "datetime" || t == "timestamp" || t == "date":
			return KindTimestamp
		case t == "boolean" || t == "bool":
			return KindBoolean
		case t == "json" || t == "jsonb":
			return KindJSON
		case strings.HasPrefix(t, "varchar(36)"):
			return KindUUID
		case strings.Contains(t, "int"):
			return KindInteger
		case strings.Contains(t, "char") || strings.Contains(t, "clob"):
			return KindString
		case strings.Contains(t, "text"):
			// Our JSON columns are text too; text holds both.
			return KindText
		case strings.Contains(t, "real") || strings.Contains(t, "floa") || strings.Contains(t, "doub"):
			return KindFloat
		case strings.Contains(t, "numeric") || strings.Contains(t, "decimal"):
			return KindNumeric
		}
		return ""
	}
	switch {
	case t == "uuid":
		return KindUUID
	case t == "bigint":
		return KindBigint
	case t == "integer" || t == "smallint":
		return KindInteger
	case t == "double precision" || t == "real":
		return KindFloat
	case t == "numeric":
		return KindNumeric
	case t == "boolean":
		return KindBoolean
	case t == "character varying" || t == "character":
		return KindString
	case t == "text":
		return KindText
	case t == "json" || t == "jsonb":
		return KindJSON
	case strings.HasPrefix(t, "timestamp") && strings.HasSuffix(t, "without time zone"):
		return KindTimestamp
	case strings.HasPrefix(t, "timestamp") && strings.HasSuffix(t, "with time zone"):
		return "timestamptz"
	}
	return ""
}
