package outcome

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"math"
	"time"

	"github.com/agentevals-go/agentevals/internal/jsonvalue"
	"github.com/agentevals-go/agentevals/score"
)

// stateCheck is a bound db_state check.
type stateCheck struct {
	p       score.StateParams
	timeout time.Duration
	db      *stateDB
}

var _ score.Scorer = (*stateCheck)(nil)

func (rt *Runtime) newStateCheck(params json.RawMessage) (score.Scorer, error) {
	p, timeout, err := score.ParseState(params)
	if err != nil {
		return nil, err
	}
	db, ok := rt.dbs[p.Database]
	if !ok {
		return nil, fmt.Errorf("%w: unknown database %q", score.ErrInvalidParams, p.Database)
	}
	return &stateCheck{p: p, timeout: timeout, db: db}, nil
}

// Score runs the query read-only and compares what it returns with the
// expectation: 1 when it matches, else 0.
func (c *stateCheck) Score(ctx context.Context, s score.Sample) (score.Assessment, error) {
	args, err := argValues(c.p.Args, s.CaseID, s.RunID, s.Metadata)
	if err != nil {
		return score.Assessment{}, err
	}
	details := map[string]any{"check_type": score.StateCheck, "database": c.p.Database, "query": c.p.Query, "args": args}
	rows, err := c.db.query(ctx, c.timeout, c.p.Query, args)
	if err != nil {
		return score.Assessment{}, &score.Error{Kind: "state_query", Message: err.Error(), Details: details}
	}
	ok, observed, reason := c.compare(rows)
	details["observed"] = observed
	a := score.Assessment{Reason: fmt.Sprintf("%s (database %s: %s; args %s)", reason, c.p.Database, c.p.Query, encode(args)), Details: details}
	if ok {
		a.Score = 1
	}
	return a, nil
}

// shownRows bounds the rows kept as the observed value.
const shownRows = 20

// compare checks rows against the expectation.
func (c *stateCheck) compare(rows [][]any) (bool, any, string) {
	e := c.p.Expect
	switch {
	case e.Rows != nil:
		if len(rows) == *e.Rows {
			return true, len(rows), fmt.Sprintf("the query returned %d rows, as expected", len(rows))
		}
		return false, len(rows), fmt.Sprintf("the query returned %d rows, want %d", len(rows), *e.Rows)
	case len(e.Value) > 0:
		if len(rows) != 1 || len(rows[0]) == 0 {
			return false, firstRows(rows), fmt.Sprintf("the query returned %d rows, want one row whose first column is %s", len(rows), compact(e.Value))
		}
		got := rows[0][0]
		if same(got, e.Value) {
			return true, got, fmt.Sprintf("the query returned %s, as expected", encode(got))
		}
		return false, got, fmt.Sprintf("the query returned %s, want %s", encode(got), compact(e.Value))
	default:
		if matchRowSet(rows, e.RowSet) {
			return true, firstRows(rows), fmt.Sprintf("the query returned the %d expected rows", len(rows))
		}
		return false, firstRows(rows), fmt.Sprintf("the query returned %d rows that are not the %d expected rows (in any order)", len(rows), len(e.RowSet))
	}
}

// matchRowSet reports whether rows and want hold the same rows, in any order.
func matchRowSet(rows [][]any, want []json.RawMessage) bool {
	if len(rows) != len(want) {
		return false
	}
	used := make([]bool, len(want))
	for _, r := range rows {
		found := false
		for i, w := range want {
			if !used[i] && same(r, w) {
				used[i], found = true, true
				break
			}
		}
		if !found {
			return false
		}
	}
	return true
}

// same compares a scanned value with an expected JSON value by meaning.
func same(got any, want json.RawMessage) bool {
	b, err := json.Marshal(got)
	if err != nil {
		return false
	}
	eq, err := jsonvalue.Equal(b, want)
	return err == nil && eq
}

func firstRows(rows [][]any) any {
	if len(rows) > shownRows {
		return rows[:shownRows]
	}
	if rows == nil {
		return [][]any{}
	}
	return rows
}

func encode(v any) string {
	b, err := json.Marshal(v)
	if err != nil {
		return fmt.Sprint(v)
	}
	return string(b)
}

func compact(raw json.RawMessage) string {
	var b bytes.Buffer
	if json.Compact(&b, raw) != nil {
		return string(raw)
	}
	return b.String()
}

// argValues resolves a check's or step's argument sources for the case.
func argValues(sources []string, caseID, runID string, metadata map[string]any) ([]any, error) {
	out := make([]any, 0, len(sources))
	for _, src := range sources {
		key, err := score.ArgSource(src)
		if err != nil {
			return nil, err
		}
		switch {
		case src == "case_id":
			out = append(out, caseID)
		case src == "run_id":
			if runID == "" {
				return nil, &score.Error{Kind: score.KindMissingInput, Message: "run_id: the run has no id yet"}
			}
			out = append(out, runID)
		default:
			v, ok := metadata[key]
			if !ok || v == nil {
				return nil, &score.Error{Kind: score.KindMissingInput, Message: fmt.Sprintf("%s: the question's metadata has no %q", src, key)}
			}
			out = append(out, sqlValue(v))
		}
	}
	return out, nil
}

// sqlValue is a metadata value as a driver argument: whole numbers as
// integers, objects and arrays as their JSON text.
func sqlValue(v any) any {
	switch x := v.(type) {
	case float64:
		if x == math.Trunc(x) && math.Abs(x) < 1<<53 {
			return int64(x)
		}
		return x
	case string, bool:
		return x
	}
	return encode(v)
}
