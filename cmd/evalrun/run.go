package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/alecthomas/kong"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// RunCmd runs a suite against its agent, saves the run in one transaction,
// compares it with its baseline and exits 0 (no failed or errored check, no
// gated regression), 1 (failed or errored checks, a gated regression, or an
// interrupted run: Ctrl-C or SIGTERM keep only the finished cases, in an evidence file) or 2 (invalid suite,
// options, configuration or baseline; nothing runs).
type RunCmd struct {
	Suite          string         `arg:"" name:"suite" help:"Suite file (JSON, or YAML with the same structure)."`
	GateFlags      `group:"gate"` // the most used flags: listed first in --help
	Metadata       string         `name:"metadata" group:"questions" placeholder:"JSON" help:"Run metadata as a JSON object, e.g. '{\"revision\":\"abc123\"}'."`
	Concurrency    count          `name:"concurrency" group:"questions" short:"j" placeholder:"N" help:"Cases run at once: a whole number >= 0; 0 or omitted means min(4, number of cases). Negative numbers are refused (exit 2)."`
	Only           []string       `name:"only" group:"questions" sep:"none" placeholder:"ID" help:"Run only the questions with this id or matching this glob pattern, e.g. 'refund-*' (repeatable). A subset is its own definition (digest): its baseline is an earlier run of the same subset, never a run of the whole suite."`
	Tag            []string       `name:"tag" group:"questions" sep:"none" placeholder:"TAG" help:"Run only the questions whose metadata.tags (golden set: meta.tags) holds this tag (repeatable: any of them). Combined with --only and --failed-in, every flag must match."`
	FailedIn       string         `name:"failed-in" group:"questions" placeholder:"RUN_ID" help:"Run only the questions that failed or errored in this earlier run (an id from evalrun history) and are still in the suite. A subset, like --only."`
	Timeout        *time.Duration `name:"timeout" group:"questions" placeholder:"DURATION" help:"Per-case agent timeout, a positive duration such as 30s (0 or negative is refused, exit 2). Omitted: the suite's agent.timeout, else 5m."`
	Repeat         *int           `name:"repeat" group:"questions" placeholder:"K" help:"Answer and judge every question K times (1..100; overrides the suite's \"repeat\" key, default 1). Each question keeps one row whose metric scores are the means of the K repeats (passing needs the mean at the threshold and no repeat in error); every repeat's answer, scores and reasons are kept in response_metadata.repeats, and reports show pass@k (some repeat passed), pass^k (every repeat passed) and each judge metric's within-question sd. K is not part of the suite's fingerprint, so a K=3 run baselines against K=1 history."`
	NoPreflight    bool           `name:"no-preflight" group:"questions" help:"Skip the preflight: before any question, evalrun checks that the agent (a TCP connection to an http or llm agent's host, the command found for command and worker agents) and the judge (a TCP connection to its endpoint, no request and no tokens) are reachable, and exits 2 with nothing saved when one is not."`
	RedactPII      bool           `name:"redact-pii" group:"save" help:"Also replace personal data in everything stored and shown with typed markers: e-mail addresses [EMAIL], phone numbers [PHONE], payment card numbers that pass the Luhn check [CARD], IBANs with valid check digits [IBAN], IP addresses other than loopback [IP]. Applied wherever credentials are redacted; each case's response_metadata.sanitized.pii lists the columns it changed. The agent and the judge still see the text as written."`
	Grace          time.Duration  `name:"grace" group:"questions" default:"30s" placeholder:"DURATION" help:"On Ctrl-C or SIGTERM no new question starts and the running ones have this long to finish (a second signal stops at once); the finished cases are then written to an evidence file (--save-to, else --evidence-dir) that 'evalrun db:import' keeps as an interrupted run, never an automatic baseline. 0 stops at once."`
	MaxAnswerBytes int            `name:"max-answer-bytes" group:"questions" placeholder:"BYTES" help:"Keep (and score) at most this many bytes of each command, worker or http agent answer; a longer answer is cut there and its case's response_metadata.output_truncated records the full length and SHA-256 of the reply. Omitted or 0: the suite's agent.max_answer_bytes, else 1048576 (1 MiB)."`

	JudgeFlags           `group:"judge"`
	SpendFlags           `group:"judge"`
	SaveFlags            `group:"save"`
	HostFlag             `group:"save"`
	TraceFlags           `group:"traces"`
	Record               bool   `name:"record" group:"record" help:"Record replay fixtures: send every request of the agent to its real host and write a new suite file (see --record-to) whose inline questions replay exactly those requests strictly (reply bodies under fixtures/recorded/, headers not recorded, credential-like reply fields redacted). Nothing is overwritten and the run is not saved."`
	RecordTo             string `name:"record-to" group:"record" placeholder:"PATH" help:"Where --record writes the new suite file, in the suite's directory (default: SUITE.recorded.json beside the suite)."`
	CalibrationGateFlags `group:"calibration"`
}

// Run executes the suite: flags, then the task, then eval.Run, then what
// the run looks like on the terminal.
func (c *RunCmd) Run(ctx context.Context, g *Globals) error {
	if err := c.checkNumbers(); err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	if err := c.checkExport(); err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	shard, err := c.SaveFlags.check()
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	s, meta, err := c.load(ctx, g)
	if err != nil {
		return asInvalid(err)
	}
	writeSuiteWarnings(g.Stderr, s)
	if shard != nil {
		s = s.Shard(*shard)
	}
	judge, err := c.judgeFor(ctx, s)
	if err != nil {
		return asInvalid(err)
	}
	warnSameFamily(g.Stderr, s.Agent.LLM, c.built, "")
	spend, err := c.meter(c.built, "", "")
	if err != nil {
		return err
	}
	conc := runner.Concurrency(int(c.Concurrency), len(s.Cases))
	setup, err := c.setup(g)
	if err != nil {
		return err
	}
	built, err := setup.Agent(s.Agent, eval.AgentOptions{Concurrency: conc, Timeout: c.timeout(), MaxAnswerBytes: c.MaxAnswerBytes})
	if err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("%s: %w", s.Path, err)}
	}
	defer built.Close()
	a := built.Agent
	prov, meta := collectProvenance(ctx, s.Dir, meta, c.NoHost)
	task := eval.Task{Suite: s, Agent: a, Judge: judge,
		Exec: eval.Exec{Concurrency: conc, Timeout: c.timeout(), Metadata: meta,
			ExtraSummary: c.judgeSummary, JudgeDisabled: bool(c.NoJudge), JudgeSpend: spend, Provenance: prov,
			Sanitize: sanitize.Policy{PII: c.RedactPII}}}
	traces, stopTraces, err := c.startTraces(s, g.Stderr)
	if err != nil {
		return asInvalid(err)
	}
	defer stopTraces()
	task.Exec.Traces = traces
	if c.Record {
		return c.record(ctx, g, task)
	}
	var db *models.DB
	if c.usesDatabase() {
		if db, err = g.open(ctx, false); err != nil {
			if models.Transient(err) {
				err = fmt.Errorf("%w\nnothing has run yet; to run without the database, add --save-to FILE and import the file later with 'evalrun db:import FILE'", err)
			}
			return asInvalid(err)
		}
		defer db.Close()
	}
	if task.Reports, err = c.GateFlags.check(g, db != nil); err != nil {
		return err
	}
	task.Store, task.Gate = c.SaveFlags.store(g, db, shard), c.gateIn(ctx, s.Dir)
	if task.Gate.Uncalibrated, err = c.uncalibrated(ctx, g, db, s, task.Gate.Mode); err != nil {
		return err
	}
	task.Preflight = func(ctx context.Context) error { return c.preflight(ctx, s, judge != nil) }
	task.Exec.Repeat = c.repeat(s)
	if g.signals != nil && c.Grace > 0 && !c.NoSave {
		task.Exec.Stop, task.Exec.StopReason = g.signals.graceful(c.Grace)
	}
	showProgress(g, &task.Exec, len(s.Cases), func() string { return rateNote(built.Limiter, c.JudgeFlags.limiter) })
	res, err := eval.Run(ctx, task)
	if res == nil || res.Comparison == nil {
		return asFailed(keptAnyway(g, res, err))
	}
	c.exportScores(ctx, g.Stderr, res.Run)
	c.render(g, res, db != nil)
	if err != nil {
		return asInvalid(err)
	}
	if note := strictJudgeNotice(res.Comparison); note != "" {
		fmt.Fprintln(g.Stderr, note)
	}
	fmt.Fprintln(g.Stdout, res.Decision.Line)
	if res.Evidence.Kept == eval.Spooled { // the reports are written; now say loudly that the run is not in the database
		return &exitError{Code: exitNotSaved, Err: notSaved(g, res.Evidence)}
	}
	if res.Decision.Code != exitOK {
		return &exitError{Code: res.Decision.Code}
	}
	return nil
}

// asFailed keeps an exitError's code and makes anything else exit 1.
func asFailed(err error) error {
	var ee *exitError
	if errors.As(err, &ee) {
		return err
	}
	return &exitError{Code: exitFailed, Err: err}
}

// Help is the detail under "evalrun run --help".
func (c *RunCmd) Help() string {
	return "Exit codes follow --fail-on, and the last line of the output says which rule produced it: " +
		"0 when nothing the rule acts on was found (0 does not claim quality: a question nothing was calculated on is not evaluated, not failed); " +
		"1 under --fail-on failures (default) for failed or errored checks, under --fail-on regressions for a gated regression against the baseline " +
		"(a question that failed at the baseline and still fails exits 0), under both for either; also 1 for an interrupted run " +
		"(Ctrl-C or SIGTERM: no new question starts, the running ones finish within --grace, and the finished cases go to an evidence file that db:import keeps as an interrupted run) and, whatever --fail-on says, for a run in which every agent call or every judge call failed from " +
		"infrastructure (saved, marked infrastructure_failure, never an automatic baseline); 2 for an invalid suite, options, configuration or baseline, or an agent or judge found unreachable by the preflight (nothing runs); " +
		"3 when the run finished but could not be saved to the database within --save-wait: its evidence file is written to --evidence-dir, " +
		"the reports are still written, and 'evalrun db:import FILE' saves it later (Ctrl-C while the save is retrying also keeps the evidence file, without reports).\n\n" +
		"Gates: --gate strict (default) is the Ruby gem's rule: every per-question drop beyond --tolerance, newly failed minimum or new error regresses. " +
		"With an LLM judge its run-to-run noise flips questions near their minimum in every run, so use --gate ci for judged suites: " +
		"judge metrics regress only when a one-sided paired test of the per-question differences is significant at --alpha and the mean drop is at least --min-effect, " +
		"or when pass→fail flips significantly outnumber fail→pass (exact McNemar); deterministic and action checks and agent errors still regress one by one. " +
		"Every finding says why it gates or not."
}

// judgeFor builds the judge only when a metric of the suite needs one or a
// scenario needs its model to play the user, so a suite of deterministic
// checks runs without the judge provider's credential. The judge flags
// typed and the section are still validated; the EVAL_JUDGE_* variables are
// then not read. Without a judge-backed metric the calculated metrics and
// the digest are the same with or without a judge.
func (c *JudgeFlags) judgeFor(ctx context.Context, st *suite.Suite) (score.Judge, error) {
	if st.NeedsJudge() || st.NeedsSimulator() {
		j, err := c.judge(ctx, st.Judge)
		var ee *exitError
		if s, ok, _ := c.settings(st.Judge); ok && errors.As(err, &ee) && llm.CredentialEnv(s.Provider) != "" && s.BaseURL == "" &&
			strings.TrimSpace(os.Getenv(llm.CredentialEnv(s.Provider))) == "" {
			// run (unlike calibrate --rejudge) can go on without a judge.
			err = &exitError{Code: ee.Code, Err: fmt.Errorf("%w; set it, or pass --no-judge to run without a judge (its metrics are then not calculated)", ee.Err)}
		}
		return j, err
	}
	return nil, c.checkTyped(st.Judge)
}

// load reads the suite, the --only filter and --metadata.
func (c *RunCmd) load(ctx context.Context, g *Globals) (*suite.Suite, map[string]any, error) {
	s, err := suite.Load(c.Suite)
	if err != nil {
		return nil, nil, err
	}
	// every check validate makes (agent, judge section, scorers), so that
	// --no-judge does not accept a judge section validate refuses
	if err := s.Validate(); err != nil {
		return nil, nil, err
	}
	sel := suite.Selection{IDs: c.Only, Tags: c.Tag}
	if c.FailedIn != "" {
		if sel.Failed, err = c.failedIn(ctx, g, s); err != nil {
			return nil, nil, err
		}
		sel.FailedSource = "run " + c.FailedIn
	}
	if s, err = s.Select(sel); err != nil {
		return nil, nil, err
	}
	meta, err := parseMetadata(c.Metadata)
	if err != nil {
		return nil, nil, err
	}
	return s, meta, nil
}

// failedIn reads the ids of the questions that failed or errored in the
// --failed-in run, which must be a run of this suite.
func (c *RunCmd) failedIn(ctx context.Context, g *Globals, s *suite.Suite) ([]string, error) {
	db, err := g.open(ctx, true)
	if err != nil {
		return nil, err
	}
	defer db.Close()
	run, err := eval.LoadRun(ctx, db, c.FailedIn, "--failed-in")
	if err != nil {
		return nil, err
	}
	if run.Suite != s.Name {
		return nil, fmt.Errorf("--failed-in %s: that run is of suite %q, not %q", c.FailedIn, sanitize.EscapeText(run.Suite), sanitize.EscapeText(s.Name))
	}
	ids := []string{}
	for _, cr := range run.Cases {
		if cr.Status == models.StatusFailed || cr.Status == models.StatusError {
			ids = append(ids, cr.CaseID)
		}
	}
	return ids, nil
}

// checkNumbers refuses numeric flags that have no meaning, before the suite
// is read: a negative --concurrency, and a --timeout that is not positive
// (0 would otherwise read as "no timeout" to some and "the default" to
// others; omitting the flag is how to get the default).
func (c *RunCmd) checkNumbers() error {
	if c.Concurrency < 0 {
		return fmt.Errorf("--concurrency: %s, got %d", concurrencyRule(), c.Concurrency)
	}
	if c.Repeat != nil && (*c.Repeat < 1 || *c.Repeat > suite.MaxRepeat) {
		return fmt.Errorf("--repeat: %s, got %d", suite.RepeatRule(), *c.Repeat)
	}
	if c.Timeout != nil && *c.Timeout <= 0 {
		return fmt.Errorf("--timeout: want a positive duration such as 30s (omit it for the suite's agent.timeout, else %s), got %s",
			strings.TrimSuffix(suite.DefaultAgentTimeout.String(), "0s"), *c.Timeout)
	}
	if c.MaxAnswerBytes < 0 {
		return fmt.Errorf("--max-answer-bytes: want a whole number of bytes >= 1 (0 or omitted: the suite's agent.max_answer_bytes, else %d), got %d",
			adapter.DefaultMaxAnswerBytes, c.MaxAnswerBytes)
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

// preflight probes the agent and, when one was built, the judge
// (adapter.Preflight) unless --no-preflight is given.
func (c *RunCmd) preflight(ctx context.Context, st *suite.Suite, withJudge bool) error {
	if c.NoPreflight {
		return nil
	}
	var js *llm.Settings
	if withJudge {
		s, ok, err := c.settings(st.Judge)
		if err != nil {
			return err
		}
		if ok {
			js = &s
		}
	}
	if err := adapter.Preflight(ctx, st.Agent, js); err != nil {
		return fmt.Errorf("%s: %w\nNothing was run or saved. Start or fix what is unreachable, or pass --no-preflight to run anyway "+
			"(every question would then record the failure)", st.Path, err)
	}
	return nil
}

// repeat is --repeat, else the suite's "repeat" key, else 1.
func (c *RunCmd) repeat(s *suite.Suite) int {
	switch {
	case c.Repeat != nil:
		return *c.Repeat
	case s.Repeat > 0:
		return s.Repeat
	}
	return 1
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
