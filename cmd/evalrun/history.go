package main

import (
	"context"
	"fmt"
	"io"
	"strconv"
	"strings"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/internal/suggest"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
)

// HistoryCmd lists recent runs, newest first.
type HistoryCmd struct {
	Suite string `name:"suite" help:"Only runs of this suite (ignoring case; close names are suggested when none matches)."`
	Agent string `name:"agent" help:"Only runs of this agent (ignoring case; close names are suggested when none matches)."`
	Limit int    `name:"limit" default:"20" help:"How many runs to list."`
	JSON  bool   `name:"json" help:"Write the runs as a JSON array (id, times, names, outcome, totals, baseline, quality change, regressed questions, revision, provenance, metadata) instead of a table."`
}

// Run prints the runs.
func (c *HistoryCmd) Run(ctx context.Context, g *Globals) error {
	if c.Limit <= 0 {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--limit: want a positive number, got %d", c.Limit)}
	}
	db, err := g.open(ctx, true)
	if path, ok := missingDefault(err); ok {
		if c.JSON {
			return writeHistoryJSON(g.Stdout, nil)
		}
		fmt.Fprintf(g.Stdout, "No runs yet (no database at %s).\n", path)
		return nil
	}
	if err != nil {
		return asInvalid(err)
	}
	defer db.Close()
	runs, _, err := db.ListRuns(ctx, models.RunFilter{Suite: c.Suite, Agent: c.Agent, Limit: c.Limit})
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	if len(runs) == 0 && c.JSON {
		return writeHistoryJSON(g.Stdout, nil)
	}
	if len(runs) == 0 && (c.Suite != "" || c.Agent != "") {
		return writeNoMatch(ctx, g.Stdout, db, c.Suite, c.Agent)
	}
	if len(runs) == 0 {
		fmt.Fprintf(g.Stdout, "No runs yet in %s: evalrun run SUITE saves one (evalrun init DIR writes a first suite).\n", db.URL)
		return nil
	}
	ids := make([]uuid.UUID, len(runs))
	for i, r := range runs {
		ids[i] = r.ID
	}
	cases, err := db.CasesOf(ctx, ids)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("history: %w", err)}
	}
	rows, err := historyRows(ctx, db, runs, cases)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	if c.JSON {
		return writeHistoryJSON(g.Stdout, rows)
	}
	writeHistoryRows(g.Stdout, rows)
	return nil
}

// writeNoMatch says that no run matched the --suite/--agent filters
// (which ignore case) and suggests close names of saved runs.
func writeNoMatch(ctx context.Context, w io.Writer, db *models.DB, s, a string) error {
	suites, agents, err := db.RunNames(ctx)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	var what []string
	if s != "" {
		what = append(what, fmt.Sprintf("suite %q", sanitize.EscapeText(s)))
	}
	if a != "" {
		what = append(what, fmt.Sprintf("agent %q", sanitize.EscapeText(a)))
	}
	fmt.Fprintf(w, "No runs of %s (names match ignoring case).\n", strings.Join(what, " and "))
	for _, f := range []struct {
		flag, want string
		names      []string
	}{{"--suite", s, suites}, {"--agent", a, agents}} {
		if f.want == "" {
			continue
		}
		if close := suggest.Closest(f.want, f.names, 3); len(close) > 0 {
			for i, n := range close {
				close[i] = strconv.Quote(sanitize.EscapeText(n))
			}
			fmt.Fprintf(w, "Did you mean %s %s?\n", f.flag, strings.Join(close, " or "))
		} else if len(f.names) > 0 && len(f.names) <= 10 {
			for i, n := range f.names {
				f.names[i] = strconv.Quote(sanitize.EscapeText(n))
			}
			fmt.Fprintf(w, "Known %ss: %s\n", strings.TrimPrefix(f.flag, "--"), strings.Join(f.names, ", "))
		}
	}
	return nil
}
