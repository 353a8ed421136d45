package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/internal/atomicfile"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/monitor"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
	"github.com/agentevals-go/agentevals/tracefile"
)

// TraceToSuiteCmd turns one production case into a suite question for
// review, written to a copy of the suite.
type TraceToSuiteCmd struct {
	Suite   string   `arg:"" name:"suite" help:"The suite file (JSON) the question joins; it is read, never changed."`
	Output  string   `short:"o" name:"output" required:"" placeholder:"FILE" help:"Write the suite with the new question at the end of its questions here; refused when FILE exists. Relative paths in it are read from FILE's folder, so keep it beside the suite."`
	RunID   string   `name:"run" placeholder:"RUN_ID" help:"A saved production window (evalrun score-traces) that holds the case."`
	Case    string   `name:"case" placeholder:"ID|N" help:"With --run: the case's id (its trace or conversation id) or its position in the window (1 is the first)."`
	Failing string   `name:"failing" placeholder:"METRIC" help:"With --run, instead of --case: the window's first case (in time order) that failed or errored on this metric."`
	Traces  []string `name:"traces" sep:"none" placeholder:"FILE" help:"A collector's file export holding the trace (repeatable), instead of --run."`
	TraceID string   `name:"trace-id" placeholder:"ID" help:"With --traces: the trace id (hex) or the conversation id of the case."`
	Monitor string   `name:"monitor" placeholder:"FILE" help:"The monitor file whose checks the question gets: with --run the checks the case failed, or those named by --check."`
	Check   []string `name:"check" sep:"none" placeholder:"NAME" help:"Give the question this check of --monitor (repeatable); replaces the checks the case failed."`
	ID      string   `name:"id" placeholder:"ID" help:"The question's id (default: production- and the first 16 characters of the case id)."`
	KeepPII bool     `name:"keep-pii" help:"Write personal data as the traces hold it. By default the question passes the same PII pass as score-traces ([EMAIL], [PHONE], [CARD], [IBAN], [IP]); credentials are redacted either way."`
}

// Help says why the command is named as it is and what it writes.
func (c *TraceToSuiteCmd) Help() string {
	return `Named for its direction, the reverse of score-traces: score-traces turns traces into a scored run, trace-to-suite turns one trace back into a suite question, which run then asks the agent.

The question holds the user's message (a conversation's messages as turns), the agent's answer as expected_answer, the tool calls it made as expected_actions checked by action_group (in order, other calls allowed between, on the arguments given: "partial"), and metadata.review: true with where it came from. The answer and the calls are what the agent did, not yet what it should do: review them before the question gates CI. With --monitor the question also gets the monitor checks the case failed (or those named by --check), the checks that catch the regression again.

The suite is validated with the question added before anything is written, and the result goes to a new file (-o); the suite itself is never changed.

Exit 0 when written, 2 when the case, the suite or an option is refused (nothing written).`
}

// Run drafts the question and writes the new suite.
func (c *TraceToSuiteCmd) Run(ctx context.Context, g *Globals) error {
	if err := c.flags(); err != nil {
		return asInvalid(err)
	}
	if _, err := os.Lstat(c.Output); err == nil {
		return asInvalid(fmt.Errorf("-o %s: the file exists; trace-to-suite never overwrites a file: name a new one", c.Output))
	}
	if _, err := suite.Load(c.Suite); err != nil {
		return asInvalid(err)
	}
	data, err := bounds.ReadFile(c.Suite, bounds.Defaults().MaxBytes)
	if err != nil {
		return asInvalid(fmt.Errorf("suite %s: %w", c.Suite, err))
	}
	d, err := c.draft(ctx, g)
	if err != nil {
		return asInvalid(err)
	}
	checks, err := c.checks(d)
	if err != nil {
		return asInvalid(err)
	}
	id := c.ID
	if id == "" {
		id = "production-" + clipID(d.Source.CaseID, 16)
	}
	q, err := d.Write(id, checks, sanitize.Policy{PII: !c.KeepPII})
	if err != nil {
		return asInvalid(err)
	}
	out, err := monitor.AppendQuestion(data, q)
	if err != nil {
		return asInvalid(fmt.Errorf("suite %s: %w", c.Suite, err))
	}
	abs, err := filepath.Abs(c.Output)
	if err != nil {
		return asInvalid(err)
	}
	if _, err := suite.Parse(c.Output, filepath.Dir(abs), out, score.Builtins()); err != nil {
		return asInvalid(fmt.Errorf("the suite with the question added does not validate; nothing was written: %w", err))
	}
	if err := atomicfile.CreateNew(c.Output, out, 0o644); err != nil {
		return asInvalid(fmt.Errorf("-o %s: %w", c.Output, err))
	}
	fmt.Fprintf(g.Stdout, "Wrote %s: %s with question %q from %s (%d expected actions, checks: %s); review its expected answer and actions (metadata.review), then run it with evalrun run %s\n",
		sanitize.EscapeText(c.Output), sanitize.EscapeText(c.Suite), sanitize.EscapeText(id), sanitize.EscapeText(c.source()),
		len(d.Actions), sanitize.EscapeText(strings.Join(append([]string{monitor.ActionsCheck}, c.Check...), ", ")), sanitize.EscapeText(c.Output))
	return nil
}

// flags refuses a missing or doubled source.
func (c *TraceToSuiteCmd) flags() error {
	fromRun, fromFile := c.RunID != "" || c.Case != "" || c.Failing != "", len(c.Traces) > 0 || c.TraceID != ""
	switch {
	case fromRun == fromFile:
		return errors.New("trace-to-suite: give the case either as --run RUN_ID --case ID|N (or --failing METRIC) or as --traces FILE --trace-id ID")
	case fromRun && (c.RunID == "" || (c.Case == "") == (c.Failing == "")):
		return errors.New("trace-to-suite: --run takes one of --case ID|N and --failing METRIC")
	case fromFile && (len(c.Traces) == 0 || c.TraceID == ""):
		return errors.New("trace-to-suite: --traces and --trace-id go together")
	case len(c.Check) > 0 && c.Monitor == "":
		return errors.New("trace-to-suite: --check names a check of --monitor FILE")
	}
	return nil
}

func (c *TraceToSuiteCmd) source() string {
	if c.RunID != "" && c.Case != "" {
		return "case " + c.Case + " of run " + c.RunID
	}
	if c.RunID != "" {
		return "the first case of run " + c.RunID + " that failed " + c.Failing
	}
	return "trace " + c.TraceID
}

// draft reads the case from the window or the files.
func (c *TraceToSuiteCmd) draft(ctx context.Context, g *Globals) (monitor.Draft, error) {
	if c.RunID == "" {
		return draftFromFiles(c.Traces, c.TraceID)
	}
	db, err := g.open(ctx, true)
	if err != nil {
		return monitor.Draft{}, err
	}
	defer db.Close()
	run, err := eval.LoadRun(ctx, db, c.RunID, "--run")
	if err != nil {
		return monitor.Draft{}, err
	}
	if c.Failing != "" {
		cr := failingCase(run, c.Failing)
		if cr == nil {
			return monitor.Draft{}, fmt.Errorf("--failing %s: no case of run %s failed or errored on that metric", c.Failing, run.ID)
		}
		return monitor.DraftFromCase(run, cr)
	}
	cr := caseOf(run, c.Case)
	if cr == nil {
		return monitor.Draft{}, fmt.Errorf("--case %s: run %s has no case with that id, nor at that position (1 to %d)", c.Case, run.ID, len(run.Cases))
	}
	return monitor.DraftFromCase(run, cr)
}

// caseOf finds a case by id, else by its 1-based place in the window.
func caseOf(run *models.Run, key string) *models.CaseResult {
	for _, cr := range run.Cases {
		if cr.CaseID == key {
			return cr
		}
	}
	if n, err := strconv.Atoi(key); err == nil && n >= 1 && n <= len(run.Cases) {
		return run.Cases[n-1]
	}
	return nil
}

// failingCase is the first case that failed or errored on metric.
func failingCase(run *models.Run, metric string) *models.CaseResult {
	for _, cr := range run.Cases {
		for _, m := range cr.Metrics {
			if m.Name == metric && (!m.Passed || len(m.ErrorDetails) > 0 && string(m.ErrorDetails) != "null") {
				return cr
			}
		}
	}
	return nil
}

// draftFromFiles reads the files until the case holding the trace id.
func draftFromFiles(files []string, id string) (monitor.Draft, error) {
	for _, f := range files {
		r, err := tracefile.Open(f, tracefile.Options{})
		if err != nil {
			return monitor.Draft{}, err
		}
		for {
			tc, err := r.Next()
			if errors.Is(err, io.EOF) {
				break
			}
			if err != nil {
				_ = r.Close()
				return monitor.Draft{}, err
			}
			if holds(tc, id) {
				_ = r.Close()
				return monitor.DraftFromTrace(tc, f)
			}
		}
		_ = r.Close()
	}
	return monitor.Draft{}, fmt.Errorf("--trace-id %s: no case of %s holds that trace or conversation id", id, strings.Join(files, ", "))
}

func holds(tc *tracefile.Case, id string) bool {
	if strings.EqualFold(tc.ID, id) {
		return true
	}
	for _, t := range tc.Turns {
		if strings.EqualFold(t.TraceID, id) {
			return true
		}
	}
	return false
}

// checks are the monitor checks the question gets: --check, else the
// monitor's checks among those the case failed.
func (c *TraceToSuiteCmd) checks(d monitor.Draft) ([]json.RawMessage, error) {
	if c.Monitor == "" {
		return nil, nil
	}
	m, err := monitor.Load(c.Monitor)
	if err != nil {
		return nil, err
	}
	if len(c.Check) > 0 {
		return m.ChecksNamed(c.Check)
	}
	var out []json.RawMessage
	for _, name := range d.Failed {
		got, err := m.ChecksNamed([]string{name})
		if errors.Is(err, monitor.ErrNoCheck) {
			continue
		}
		if err != nil {
			return nil, err
		}
		c.Check = append(c.Check, name)
		out = append(out, got...)
	}
	return out, nil
}

// clipID cuts an id to n bytes at a rune boundary.
func clipID(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && s[n]&0xC0 == 0x80 {
		n--
	}
	return s[:n]
}
