package models

import (
	"bytes"
	"encoding/json"
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/uptrace/bun"
)

// ValueCaps bound what a read returns of each stored value, so that a
// reader with a memory budget (the dashboard) never receives a value
// whole however large it was stored. The database cuts the values: only
// the first characters cross the connection.
type ValueCaps struct {
	// Value is how many characters of an agent-produced value (output,
	// actions, response metadata, error details, a metric's reason and
	// error details, run metadata and summary) are read. An object is cut
	// member by member: each top-level member to Value characters, at
	// most MaxCutMembers members and about 4×Value characters in all.
	Value int
	// Definition is the same for the suite-authored values (question,
	// expected answer, expected actions, minimum scores, case metadata).
	Definition int
	// Run is the same for the run's metadata and summary (0: Value).
	Run int
}

// MaxCutMembers is how many top-level members of an object a capped read
// keeps when the object is longer than its cap.
const MaxCutMembers = 256

// cutKey marks, in a capped read's JSON, a value the database cut: an
// object {cutKey: [stored bytes, first characters]} in place of the value,
// or a member cutKey: n of an object that lost its last n members.
const cutKey = "$agentevals_cut$"

// Cut records a value that a capped read shortened: its column (a
// top-level member after a dot, as "response_metadata.transcript"; a
// column followed by ".*" lost members) and its stored size in bytes (for
// ".*", how many members were left out).
type Cut struct {
	Column string
	Bytes  int64
}

// WithValueCaps returns db whose reads of runs, cases and metrics
// (GetRun, GetRuns, BaselineCandidates, CasesOf, ListRuns, CaseAt) cut the
// stored values to caps in the database and record what they cut (Cuts on
// each record). A cut value reads back as a JSON string of its first
// characters. Zero caps read values whole.
func (db *DB) WithValueCaps(caps ValueCaps) *DB {
	c := *db
	c.caps = caps
	return &c
}

// Caps are the value caps set by WithValueCaps.
func (db *DB) Caps() ValueCaps { return db.caps }

var (
	runCapped    = []string{"metadata", "summary"}
	caseValues   = []string{"output", "actions", "response_metadata", "error_details"}
	caseDefs     = []string{"question", "expected_answer", "expected_actions", "minimum_scores", "metadata"}
	metricValues = []string{"error_details"}
)

// capRuns replaces the run columns of q (alias r) by their capped forms.
func (db *DB) capRuns(q *bun.SelectQuery) *bun.SelectQuery {
	n := db.caps.Run
	if n <= 0 {
		n = db.caps.Value
	}
	if n <= 0 {
		return q
	}
	for _, col := range runCapped {
		q = q.ExcludeColumn(col).ColumnExpr(db.cappedJSON("r."+col, n) + " AS " + col)
	}
	return q
}

// capCases replaces the case columns of q (alias c) but those in except
// by their capped forms.
func (db *DB) capCases(q *bun.SelectQuery, except ...string) *bun.SelectQuery {
	if db.caps.Value > 0 {
		for _, col := range caseValues {
			if slices.Contains(except, col) {
				continue
			}
			q = q.ExcludeColumn(col).ColumnExpr(db.cappedJSON("c."+col, db.caps.Value) + " AS " + col)
		}
	}
	if db.caps.Definition > 0 {
		for _, col := range caseDefs {
			q = q.ExcludeColumn(col).ColumnExpr(db.cappedJSON("c."+col, db.caps.Definition) + " AS " + col)
		}
	}
	return q
}

// capMetrics replaces the metric columns of q (alias m) by their capped
// forms; a long reason is cut and ends in " […]".
func (db *DB) capMetrics(q *bun.SelectQuery) *bun.SelectQuery {
	n := db.caps.Value
	if n <= 0 {
		return q
	}
	for _, col := range metricValues {
		q = q.ExcludeColumn(col).ColumnExpr(db.cappedJSON("m."+col, n) + " AS " + col)
	}
	fn := "substr"
	if db.Dialect == PostgreSQL {
		fn = "substring"
	}
	return q.ExcludeColumn("reason").ColumnExpr(fmt.Sprintf(
		"CASE WHEN length(m.reason) <= %d THEN m.reason ELSE %s(m.reason, 1, %d) || ' […]' END AS reason", n, fn, n))
}

// cappedJSON is the SQL of column cut to n characters, still JSON: whole
// when short, an object member by member, anything else as a cut marker
// holding its first characters (none for a structured value longer than
// 16 times the cap: writing it out as text to cut it would cost what the
// cap saves).
func (db *DB) cappedJSON(col string, n int) string {
	if db.Dialect == PostgreSQL {
		return db.cappedJSONB(col, n)
	}
	total, ns, big := 4*n, strconv.Itoa(n), strconv.Itoa(16*n)
	size := func(v string) string { return "length(CAST(" + v + " AS BLOB))" }
	mark := func(v, text string) string {
		return "json_object('" + cutKey + "', json_array(" + size(v) + ", CASE WHEN " + size(v) + " <= " + big +
			" THEN substr(" + text + ", 1, " + ns + ") ELSE '' END))"
	}
	member := col + " -> x.fullkey"
	object := "(SELECT json_patch(COALESCE(json_group_object(e.key, json(CASE WHEN e.size <= " + ns + " THEN e.js ELSE " +
		"json_object('" + cutKey + "', json_array(e.size, substr(CASE WHEN e.type = 'text' THEN e.js ->> '$' WHEN e.size <= " + big +
		" THEN e.js ELSE '' END, 1, " + ns + "))) END)) " +
		"FILTER (WHERE e.keep), '{}'), CASE WHEN count(*) FILTER (WHERE NOT e.keep) > 0 THEN json_object('" + cutKey +
		"', count(*) FILTER (WHERE NOT e.keep)) ELSE '{}' END) FROM (SELECT x.key, x.type, " + member + " AS js, " + size(member) +
		" AS size, x.id, row_number() OVER (ORDER BY x.id) <= " + strconv.Itoa(MaxCutMembers) + " AND sum(min(" + size(member) + ", " + ns +
		")) OVER (ORDER BY x.id) <= " + strconv.Itoa(total) + " AS keep FROM json_each(" + col + ") AS x ORDER BY x.id) AS e)"
	return "CASE WHEN " + col + " IS NULL THEN NULL WHEN " + size(col) + " <= " + ns + " THEN " + col +
		" WHEN NOT json_valid(" + col + ") THEN " + mark(col, col) +
		" ELSE CASE json_type(" + col + ") WHEN 'object' THEN " + object +
		" WHEN 'text' THEN json_object('" + cutKey + "', json_array(" + size(col) + ", substr(" + col + " ->> '$', 1, " + ns + ")))" + " ELSE " + mark(col, col) + " END END"
}

// cappedJSONB is cappedJSON on PostgreSQL. The value is detoasted once
// (#> '{}' in a subquery kept apart by OFFSET 0) and never turned into
// text whole: a string is measured and cut as text, anything else is
// measured by its binary size, and a structured value bigger than 16
// times the cap is marked cut without its first characters (writing it
// out as text to cut it would cost what the cap saves). An object's
// members are listed by key and each is taken out once to be measured;
// only the members kept whole are taken out again. No row holding a
// member's value is buffered: jsonb_each, or a window over rows that
// carry the values, would write a 50 MB member to disk on every read.
func (db *DB) cappedJSONB(col string, n int) string {
	ns, total, big := strconv.Itoa(n), strconv.Itoa(4*n), strconv.Itoa(16*n)
	size := func(v, typ string) string {
		return "CASE WHEN " + typ + " = 'string' THEN octet_length(" + v + " #>> '{}') ELSE pg_column_size(" + v + ") END"
	}
	mark := func(v, typ, size string) string {
		return "jsonb_build_object('" + cutKey + "', jsonb_build_array(" + size + ", CASE WHEN " + typ + " = 'string' THEN left(" +
			v + " #>> '{}', " + ns + ") WHEN " + size + " <= " + big + " THEN left(" + v + "::text, " + ns + ") ELSE '' END))"
	}
	member := "(d.v -> e.key)"
	object := "(SELECT COALESCE(jsonb_object_agg(e.key, CASE WHEN e.size <= " + ns + " THEN " + member + " ELSE " + mark(member, "CASE WHEN e.str THEN 'string' END", "e.size") +
		" END) FILTER (WHERE e.keep), '{}'::jsonb) || CASE WHEN bool_or(NOT e.keep) THEN jsonb_build_object('" + cutKey +
		"', count(*) FILTER (WHERE NOT e.keep)) ELSE '{}'::jsonb END FROM (SELECT t.key, t.str, t.size, t.i <= " +
		strconv.Itoa(MaxCutMembers) + " AND sum(LEAST(t.size, " + ns + ")) OVER (ORDER BY t.i) <= " + total +
		" AS keep FROM (SELECT k.key, k.i, m.ts[1] = 1 AS str, m.ts[2] AS size FROM jsonb_object_keys(d.v) WITH ORDINALITY AS k(key, i)," +
		" LATERAL (SELECT (SELECT ARRAY[(jsonb_typeof(x.value) = 'string')::int, " + size("x.value", "jsonb_typeof(x.value)") +
		"] FROM (SELECT d.v -> k.key AS value OFFSET 0) AS x) AS ts OFFSET 0) AS m) AS t) AS e)"
	return "(SELECT CASE WHEN d.v IS NULL THEN NULL WHEN jsonb_typeof(d.v) = 'object' THEN " + object +
		" WHEN " + size("d.v", "jsonb_typeof(d.v)") + " <= " + ns + " THEN d.v ELSE " + mark("d.v", "jsonb_typeof(d.v)", size("d.v", "jsonb_typeof(d.v)")) +
		" END FROM (SELECT " + col + " #> '{}' AS v OFFSET 0) AS d)"
}

// unfoldCut turns the cut markers of a capped value back into values the
// readers understand, each cut value a JSON string of its first
// characters, and appends what was cut to cuts.
func unfoldCut(j JSON, column string, cuts *[]Cut) JSON {
	if j == nil || !bytes.Contains(j, []byte(cutKey)) {
		return j
	}
	if size, text, ok := cutMarker(j); ok {
		*cuts = append(*cuts, Cut{Column: column, Bytes: size})
		return MustJSON(text)
	}
	dec := json.NewDecoder(bytes.NewReader(j))
	if tok, err := dec.Token(); err != nil || tok != json.Delim('{') {
		return j
	}
	var out bytes.Buffer
	out.WriteByte('{')
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return j
		}
		key, _ := tok.(string)
		var raw json.RawMessage
		if err := dec.Decode(&raw); err != nil {
			return j
		}
		if key == cutKey {
			n, _ := strconv.ParseInt(string(raw), 10, 64)
			*cuts = append(*cuts, Cut{Column: column + ".*", Bytes: n})
			continue
		}
		if size, text, ok := cutMarker(raw); ok {
			*cuts = append(*cuts, Cut{Column: column + "." + key, Bytes: size})
			raw = json.RawMessage(MustJSON(text))
		}
		if out.Len() > 1 {
			out.WriteByte(',')
		}
		out.Write(MustJSON(key))
		out.WriteByte(':')
		out.Write(raw)
	}
	out.WriteByte('}')
	return JSON(out.Bytes())
}

// cutMarker reads {cutKey: [bytes, text]}.
func cutMarker(raw []byte) (int64, string, bool) {
	t := bytes.TrimSpace(raw)
	if len(t) == 0 || t[0] != '{' || !bytes.Contains(t, []byte(cutKey)) {
		return 0, "", false
	}
	var m map[string][]json.RawMessage
	if json.Unmarshal(t, &m) != nil || len(m) != 1 || len(m[cutKey]) != 2 {
		return 0, "", false
	}
	var size int64
	var text string
	if json.Unmarshal(m[cutKey][0], &size) != nil || json.Unmarshal(m[cutKey][1], &text) != nil {
		return 0, "", false
	}
	return size, text, true
}

// unfoldCuts unfolds every capped column of runs read through db.
func (db *DB) unfoldCuts(runs []*Run) {
	if db.caps == (ValueCaps{}) {
		return
	}
	for _, r := range runs {
		r.Metadata = unfoldCut(r.Metadata, "metadata", &r.Cuts)
		r.Summary = unfoldCut(r.Summary, "summary", &r.Cuts)
		for _, c := range r.Cases {
			unfoldCase(c)
		}
	}
}

// unfoldCase unfolds a capped case and its metrics.
func unfoldCase(c *CaseResult) {
	for _, f := range []struct {
		name string
		v    *JSON
	}{{"question", &c.Question}, {"expected_answer", &c.ExpectedAnswer}, {"expected_actions", &c.ExpectedActions},
		{"minimum_scores", &c.MinimumScores}, {"metadata", &c.Metadata}, {"output", &c.Output}, {"actions", &c.Actions},
		{"response_metadata", &c.ResponseMetadata}, {"error_details", &c.ErrorDetails}} {
		*f.v = unfoldCut(*f.v, f.name, &c.Cuts)
	}
	for _, m := range c.Metrics {
		m.ErrorDetails = unfoldCut(m.ErrorDetails, "error_details", &m.Cuts)
		if m.Reason != nil && strings.HasSuffix(*m.Reason, " […]") {
			m.Cuts = append(m.Cuts, Cut{Column: "reason"})
		}
	}
}

// CutOf returns the cut recorded for column in cuts (nil when none).
func CutOf(cuts []Cut, column string) *Cut {
	for i := range cuts {
		if cuts[i].Column == column {
			return &cuts[i]
		}
	}
	return nil
}
