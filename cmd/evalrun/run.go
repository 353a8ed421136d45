package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"agentevals/judges"
	"agentevals/models"
	"agentevals/reports"
	"agentevals/runner"
)

// RunCmd runs a suite against its agent, saves the run in one transaction,
// compares it with its baseline and exits 0 (no failed or errored check, no
// gated regression), 1 (failed or errored checks, a gated regression, or an
// interrupted run: Ctrl-C or SIGTERM save nothing) or 2 (invalid suite,
// options, configuration or baseline; nothing runs).
type RunCmd struct {
	Suite          string         `arg:"" name:"suite" help:"Suite file (JSON, or YAML with the same structure)."`
	Metadata       string         `name:"metadata" placeholder:"JSON" help:"Run metadata as a JSON object, e.g. '{\"revision\":\"abc123\"}'."`
	Concurrency    count          `name:"concurrency" short:"j" placeholder:"N" help:"Cases run at once: a whole number >= 0; 0 or omitted means min(4, number of cases). Negative numbers are refused (exit 2)."`
	Only           []string       `name:"only" sep:"none" placeholder:"ID" help:"Run only the question with this id (repeatable). A subset is its own definition (digest): its baseline is an earlier run of the same subset, never a run of the whole suite."`
	Timeout        *time.Duration `name:"timeout" placeholder:"DURATION" help:"Per-case agent timeout, a positive duration such as 30s (0 or negative is refused, exit 2). Omitted: the suite's agent.timeout, else 5m."`
	MaxAnswerBytes int            `name:"max-answer-bytes" placeholder:"BYTES" help:"Keep (and score) at most this many bytes of each command, worker or http agent answer; a longer answer is cut there and its case's response_metadata.output_truncated records the full length and SHA-256 of the reply. Omitted or 0: the suite's agent.max_answer_bytes, else 1048576 (1 MiB)."`

	JudgeFlags
	GateFlags
}

// Run executes the suite.
func (c *RunCmd) Run(ctx context.Context, g *Globals) error {
	if err := c.checkNumbers(); err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	suite, meta, err := c.load()
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	judge, err := c.judgeFor(ctx, suite)
	if err != nil {
		return asInvalid(err)
	}
	calculated := suite.Calculated(judge != nil)
	conc := runner.Concurrency(int(c.Concurrency), len(suite.Cases))
	agentOpts := runner.AgentOptions{Concurrency: conc, Timeout: c.timeout(), MaxAnswerBytes: c.MaxAnswerBytes}
	if g.guard != nil && (suite.Agent.Type == runner.AgentCommand || suite.Agent.Type == runner.AgentWorker) {
		// a machine that refuses (say, a locked-down container) still runs
		// the suite: process groups and Pdeathsig remain
		if tag, stop, err := g.guard(); err != nil {
			fmt.Fprintf(g.Stderr, "warning: %v: agent processes that leave their process group may outlive evalrun\n", err)
		} else {
			defer stop()
			agentOpts.ProcessTag = tag
		}
	}
	agent, err := runner.NewAgent(suite.Agent, agentOpts)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("%s: %w", suite.Path, err)}
	}
	if cl, ok := agent.(io.Closer); ok {
		defer cl.Close()
	}
	db, err := g.open(ctx, false)
	if err != nil {
		return asInvalid(err)
	}
	defer db.Close()
	baseline, err := c.resolveBaseline(ctx, db, suite.Plan(calculated), calculated)
	if err != nil {
		return asInvalid(err)
	}
	prog := newProgress(g.Stderr, len(suite.Cases))
	opts := runner.ExecOptions{Judge: judge, Concurrency: conc, Timeout: c.timeout(), Metadata: meta,
		Progress: prog.update, ExtraSummary: c.judgeSummary, JudgeDisabled: c.NoJudge}
	prog.start()
	run, err := runner.Execute(ctx, suite, agent, opts)
	prog.finish()
	var interrupted *runner.InterruptedError
	if errors.As(err, &interrupted) {
		return &exitError{Code: exitFailed, Err: err}
	}
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	if err := db.InsertRun(ctx, run); err != nil {
		if ctx.Err() != nil {
			return &exitError{Code: exitFailed, Err: fmt.Errorf("interrupted while saving: %s had finished; nothing was saved: %w", allCases(len(run.Cases)), err)}
		}
		return &exitError{Code: exitFailed, Err: err}
	}
	writeRunTable(g.Stdout, run, db.URL)
	writeCoverageWarnings(g.Stderr, run)
	c.GateFlags.subset = len(c.Only) > 0
	c.GateFlags.suiteFile = c.Suite
	gateFailed, err := c.finish(ctx, g, run, baseline)
	if err != nil {
		return asInvalid(err)
	}
	if runFailed(run) || gateFailed {
		return &exitError{Code: exitFailed}
	}
	return nil
}

// Help is the detail under "evalrun run --help".
func (c *RunCmd) Help() string {
	return "Exit codes: 0 when no calculated check failed or errored and no gated regression was found " +
		"(0 does not claim quality: a question nothing was calculated on is not evaluated, not failed); " +
		"1 for failed or errored checks, a regression under --fail-on-regression, or an interrupted run " +
		"(Ctrl-C or SIGTERM: nothing is saved); 2 for an invalid suite, options, configuration or baseline " +
		"(nothing runs)."
}

// judgeFor builds the judge only when a metric of the suite needs one, so a
// suite of deterministic checks runs without the judge provider's
// credential. The judge flags and section are still validated. Without a
// judge-backed metric the calculated metrics and the digest are the same
// with or without a judge.
func (c *RunCmd) judgeFor(ctx context.Context, suite *runner.Suite) (judges.Judge, error) {
	if suite.NeedsJudge() {
		return c.judge(ctx, suite.Judge)
	}
	_, _, err := c.settings(suite.Judge)
	return nil, err
}

// load reads the suite, the --only filter and --metadata.
func (c *RunCmd) load() (*runner.Suite, map[string]any, error) {
	suite, err := runner.Load(c.Suite)
	if err != nil {
		return nil, nil, err
	}
	// every check validate makes (agent, judge section, scorers), so that
	// --no-judge does not accept a judge section validate refuses
	if err := suite.Check(); err != nil {
		return nil, nil, err
	}
	if suite, err = suite.Only(c.Only); err != nil {
		return nil, nil, err
	}
	meta := map[string]any{}
	if c.Metadata != "" {
		if err := json.Unmarshal([]byte(c.Metadata), &meta); err != nil || meta == nil {
			return nil, nil, fmt.Errorf("--metadata: want a JSON object such as '{\"revision\":\"abc\"}', got %q", c.Metadata)
		}
	}
	return suite, meta, nil
}

// checkNumbers refuses numeric flags that have no meaning, before the suite
// is read: a negative --concurrency, and a --timeout that is not positive
// (0 would otherwise read as "no timeout" to some and "the default" to
// others; omitting the flag is how to get the default).
func (c *RunCmd) checkNumbers() error {
	if c.Concurrency < 0 {
		return fmt.Errorf("--concurrency: %s, got %d", concurrencyRule(), c.Concurrency)
	}
	if c.Timeout != nil && *c.Timeout <= 0 {
		return fmt.Errorf("--timeout: want a positive duration such as 30s (omit it for the suite's agent.timeout, else %s), got %s",
			strings.TrimSuffix(runner.DefaultAgentTimeout.String(), "0s"), *c.Timeout)
	}
	if c.MaxAnswerBytes < 0 {
		return fmt.Errorf("--max-answer-bytes: want a whole number of bytes >= 1 (0 or omitted: the suite's agent.max_answer_bytes, else %d), got %d",
			runner.DefaultMaxAnswerBytes, c.MaxAnswerBytes)
	}
	return nil
}

// count is a whole-number flag value. Unlike kong's int it also reads a
// negative number given as a separate argument ("--concurrency -3"), which
// kong would take for a short flag ("expected int value but got "-3" (short
// flag)"), so that checkNumbers refuses it with the rule instead.
type count int

// Decode reads the flag's value.
func (n *count) Decode(ctx *kong.DecodeContext) error {
	t := ctx.Scan.Peek()
	if s, ok := t.Value.(string); ok && !t.IsEOL() {
		if v, err := strconv.Atoi(s); err == nil {
			ctx.Scan.Pop()
			*n = count(v)
			return nil
		}
	}
	t, err := ctx.Scan.PopValue("whole number")
	if err != nil {
		return err
	}
	return fmt.Errorf("%s, got %q", concurrencyRule(), t)
}

// concurrencyRule says what --concurrency takes.
func concurrencyRule() string {
	return fmt.Sprintf("want a whole number ≥ 0 (0 = default min(%d, cases))", runner.DefaultConcurrency)
}

// timeout is --timeout, or 0 when it was not given (the suite's own).
func (c *RunCmd) timeout() time.Duration {
	if c.Timeout == nil {
		return 0
	}
	return *c.Timeout
}

// asInvalid keeps an exitError's code and makes anything else exit 2.
func asInvalid(err error) error {
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return &exitError{Code: exitInvalid, Err: err}
}

// runFailed reports whether any calculated check failed or errored, or an
// agent call errored.
func runFailed(run *models.Run) bool {
	for _, c := range run.Cases {
		if c.Status == models.StatusFailed || c.Status == models.StatusError {
			return true
		}
	}
	return false
}

// ValidateCmd checks a suite file without running it.
type ValidateCmd struct {
	Suite string `arg:"" name:"suite" help:"Suite file to check."`
}

// Run loads the suite and reports every problem (exit 2) or a short
// description (exit 0). It makes every check that run makes before calling
// the agent and that needs neither the database nor a credential: the agent
// section, the judge section and every metric's scorer (runner.Suite.Check).
// Credentials and header values belong to the machine, not the suite: an
// unset one is a note on stderr, not a failure.
func (c *ValidateCmd) Run(g *Globals) error {
	suite, err := runner.Load(c.Suite)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	if err := suite.Check(); err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	names := suite.Calculated(true)
	fmt.Fprintf(g.Stdout, "%s: ok: suite %q version %q, agent %q (%s), %s, metrics: %s\n",
		c.Suite, reports.EscapeText(suite.Name), reports.EscapeText(suite.Version), reports.EscapeText(suite.Agent.Name), suite.Agent.Type,
		questions(len(suite.Cases)), reports.EscapeText(strings.Join(names, ", ")))
	for _, v := range suite.Env() {
		if os.Getenv(v.Name) == "" {
			fmt.Fprintf(g.Stderr, "note: run reads %s (for %s), which is not set here\n", reports.EscapeText(v.Name), reports.EscapeText(v.For))
		}
	}
	return nil
}

// SchemaCmd prints the JSON Schema of suite files (committed as
// docs/suite.schema.json).
type SchemaCmd struct{}

// Run prints the schema.
func (c *SchemaCmd) Run(g *Globals) error {
	_, err := g.Stdout.Write(runner.JSONSchema())
	return err
}

// HistoryCmd lists recent runs, newest first.
type HistoryCmd struct {
	Suite string `name:"suite" help:"Only runs of this suite."`
	Agent string `name:"agent" help:"Only runs of this agent."`
	Limit int    `name:"limit" default:"20" help:"How many runs to list."`
}

// Run prints the runs.
func (c *HistoryCmd) Run(ctx context.Context, g *Globals) error {
	if c.Limit <= 0 {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--limit: want a positive number, got %d", c.Limit)}
	}
	db, err := g.open(ctx, true)
	if path, ok := missingDefault(err); ok {
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
	writeHistory(g.Stdout, runs)
	return nil
}
