package score

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"
)

// Outcome checks judge what the agent did to the world rather than what it
// said: a verifier program's verdict (Verifier) or a query against the
// application's database (StateCheck). This package only reads and checks
// their parameters; they are scored by the outcome package, which the
// runner binds to the run (programs, database connections, the run id).
// Unbound, they return an error, never a pass.
const (
	Verifier   = "verifier"
	StateCheck = "db_state"
)

// VerifierParams are a verifier check's parameters.
type VerifierParams struct {
	// Command is the program and its arguments, run in the suite's
	// directory.
	Command []string `json:"command"`
	// Worker keeps the program running: one JSON document per line on
	// stdin, one reply per line on stdout, shared by every verifier check
	// with the same command, env and timeout.
	Worker bool `json:"worker,omitempty"`
	// Env names environment variables passed through to the program.
	Env []string `json:"env,omitempty"`
	// Timeout bounds one verdict (default 30s).
	Timeout string `json:"timeout,omitempty"`
}

// StateParams are a state check's parameters.
type StateParams struct {
	// Database names an entry of the suite's "databases".
	Database string `json:"database"`
	// Query is one read-only statement; its placeholders ($1, $2 … on
	// PostgreSQL, ? on SQLite) take Args in order.
	Query string `json:"query"`
	// Args are where each placeholder's value comes from: "case_id",
	// "run_id" or "metadata.KEY" (a value of the question's metadata).
	Args []string `json:"args,omitempty"`
	// Expect is what the query must return.
	Expect StateExpect `json:"expect"`
	// Timeout is the statement timeout (default 5s).
	Timeout string `json:"timeout,omitempty"`
}

// StateExpect is a state check's expected result: exactly one of Value
// (the first column of the only row), Rows (the number of rows) or RowSet
// (every row, each an array of column values, in any order).
type StateExpect struct {
	Value  json.RawMessage   `json:"value,omitempty"`
	Rows   *int              `json:"rows,omitempty"`
	RowSet []json.RawMessage `json:"row_set,omitempty"`
}

// Default timeouts of outcome checks.
const (
	DefaultVerifierTimeout  = 30 * time.Second
	DefaultStatementTimeout = 5 * time.Second
)

// ParseVerifier reads and checks a verifier check's parameters.
func ParseVerifier(params json.RawMessage) (VerifierParams, time.Duration, error) {
	var p VerifierParams
	if err := decodeParams(params, &p, true); err != nil {
		return p, 0, fmt.Errorf("%w: %v (expected one of \"command\", \"worker\", \"env\", \"timeout\"; command is required)", ErrInvalidParams, err)
	}
	if len(p.Command) == 0 || strings.TrimSpace(p.Command[0]) == "" {
		return p, 0, fmt.Errorf("%w: \"command\" must name a program, as in [\"python3\", \"verify.py\"]", ErrInvalidParams)
	}
	d, err := parseTimeout(p.Timeout, DefaultVerifierTimeout)
	return p, d, err
}

// ParseState reads and checks a state check's parameters.
func ParseState(params json.RawMessage) (StateParams, time.Duration, error) {
	var p StateParams
	if err := decodeParams(params, &p, true); err != nil {
		return p, 0, fmt.Errorf("%w: %v (expected one of \"database\", \"query\", \"args\", \"expect\", \"timeout\"; database, query and expect are required)", ErrInvalidParams, err)
	}
	switch {
	case strings.TrimSpace(p.Database) == "":
		return p, 0, fmt.Errorf("%w: \"database\" must name an entry of the suite's \"databases\"", ErrInvalidParams)
	case strings.TrimSpace(p.Query) == "":
		return p, 0, fmt.Errorf("%w: \"query\" must be one SQL statement", ErrInvalidParams)
	}
	for i, a := range p.Args {
		if _, err := ArgSource(a); err != nil {
			return p, 0, fmt.Errorf("%w: args[%d]: %v", ErrInvalidParams, i, err)
		}
	}
	n := 0
	if len(p.Expect.Value) > 0 {
		n++
	}
	if p.Expect.Rows != nil {
		n++
		if *p.Expect.Rows < 0 {
			return p, 0, fmt.Errorf("%w: expect.rows must be 0 or more", ErrInvalidParams)
		}
	}
	if p.Expect.RowSet != nil {
		n++
		for i, r := range p.Expect.RowSet {
			if t := strings.TrimSpace(string(r)); t == "" || t[0] != '[' {
				return p, 0, fmt.Errorf("%w: expect.row_set[%d] must be an array of column values", ErrInvalidParams, i)
			}
		}
	}
	if n != 1 {
		return p, 0, fmt.Errorf("%w: \"expect\" must have exactly one of value, rows or row_set", ErrInvalidParams)
	}
	d, err := parseTimeout(p.Timeout, DefaultStatementTimeout)
	return p, d, err
}

// ArgSource reads a state check's argument source: "case_id", "run_id" or
// "metadata.KEY"; it returns the metadata key ("" for the ids).
func ArgSource(s string) (string, error) {
	switch {
	case s == "case_id" || s == "run_id":
		return "", nil
	case strings.HasPrefix(s, "metadata.") && len(s) > len("metadata."):
		return strings.TrimPrefix(s, "metadata."), nil
	}
	return "", fmt.Errorf("want \"case_id\", \"run_id\" or \"metadata.KEY\", got %q", s)
}

func parseTimeout(s string, def time.Duration) (time.Duration, error) {
	if s == "" {
		return def, nil
	}
	d, err := time.ParseDuration(s)
	if err != nil || d <= 0 {
		return 0, fmt.Errorf("%w: \"timeout\" wants a positive duration such as \"10s\", got %q", ErrInvalidParams, s)
	}
	return d, nil
}

// unbound is an outcome check that was not bound to a run.
type unbound struct{ typ string }

var errUnbound = errors.New("an outcome check is scored by evalrun's runner (or evaltest), which binds it to the run's programs and databases")

// Score refuses: an outcome check needs the run's resources.
func (u unbound) Score(context.Context, Sample) (Assessment, error) {
	return Assessment{}, &Error{Kind: "unbound", Message: u.typ + ": " + errUnbound.Error()}
}

func addOutcomeChecks(r Registry) {
	r[Verifier] = Definition{New: func(params json.RawMessage, _ Judge) (Scorer, error) {
		if _, _, err := ParseVerifier(params); err != nil {
			return nil, err
		}
		return unbound{Verifier}, nil
	}, Doc: Doc{
		Summary: "A program in any language reads the case (question, expectations, metadata, answer, actions, transcript, ids) as JSON on stdin and replies {\"score\", \"passed\", \"reason\"}.",
		Params: []Param{
			{Name: "command", Schema: stringList, Required: true, Description: "The program and its arguments, run in the suite's directory."},
			{Name: "worker", Schema: boolean, Description: "Keep the program running: one JSON document per line each way, shared by every verifier with the same command (default false)."},
			{Name: "env", Schema: stringList, Description: "Environment variables passed through to the program besides PATH, HOME, TMPDIR, LANG, LC_ALL and TZ."},
			{Name: "timeout", Schema: nonEmptyString, Description: "How long one verdict may take (default 30s)."},
		},
		Example: json.RawMessage(`{"command": ["python3", "verify.py"]}`)}}
	r[StateCheck] = Definition{New: func(params json.RawMessage, _ Judge) (Scorer, error) {
		if _, _, err := ParseState(params); err != nil {
			return nil, err
		}
		return unbound{StateCheck}, nil
	}, Doc: Doc{
		Summary: "A read-only query against a database of the suite's \"databases\", with the case's ids and metadata as arguments, returns the expected value, row count or rows.",
		Params: []Param{
			{Name: "database", Schema: nonEmptyString, Required: true, Description: "An entry of the suite's \"databases\"."},
			{Name: "query", Schema: nonEmptyString, Required: true, Description: "One SQL statement, run read-only under a statement timeout; placeholders $1… (PostgreSQL) or ? (SQLite)."},
			{Name: "args", Schema: stringList, Description: "The placeholders' values in order: \"case_id\", \"run_id\" or \"metadata.KEY\"."},
			{Name: "expect", Schema: map[string]any{"type": "object"}, Required: true, Description: "Exactly one of {\"value\": V} (the first column of the only row), {\"rows\": N} or {\"row_set\": [[…], …]} (every row, in any order)."},
			{Name: "timeout", Schema: nonEmptyString, Description: "The statement timeout (default 5s)."},
		},
		Example: json.RawMessage(`{"database": "app", "query": "SELECT count(*) FROM refunds WHERE order_id = ?", "args": ["metadata.order_id"], "expect": {"value": 1}}`)}}
}
