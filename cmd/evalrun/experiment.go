package main

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/show"
	"github.com/agentevals-go/agentevals/suite"
)

// ExperimentCmd runs the questions of one suite against several variants
// of its agent, one ordinary run per variant, and shows the answers side by
// side.
type ExperimentCmd struct {
	File        string        `arg:"" name:"experiment" help:"Experiment file (JSON, or YAML with the same structure): the suite and its variants or a model × system-prompt matrix."`
	Metadata    string        `name:"metadata" placeholder:"JSON" help:"Metadata added to every variant's run, as a JSON object, e.g. '{\"revision\":\"abc123\"}'."`
	Concurrency count         `name:"concurrency" short:"j" placeholder:"N" help:"Cases of one variant run at once: a whole number >= 0; 0 or omitted means min(4, number of cases). Variants run one after another."`
	Report      []string      `name:"report" sep:"none" placeholder:"PATH" help:"Write the grid to PATH (repeatable); the extension picks the format: .html/.htm, .md/.markdown, .txt/.text or .json."`
	Grace       time.Duration `name:"grace" default:"30s" placeholder:"DURATION" help:"On Ctrl-C or SIGTERM no new question or variant starts and the running questions have this long to finish (a second signal stops at once); the variants that finished are saved and the finished cases of the interrupted one are written to an evidence file under ./evalrun-evidence that 'evalrun db:import' keeps as an interrupted run, never an automatic baseline. 0 stops at once."`

	GateModeFlags
	FailOn           string `name:"fail-on" placeholder:"RULE" help:"Gate every variant against its own baseline as run --fail-on does (failures, regressions or both; see run --help): each variant prints its exit line, and the experiment exits 1 when a variant's would be 1. Omitted: the experiment is a measurement, and failed checks or regressions of a variant do not fail it."`
	FailOnRegression bool   `name:"fail-on-regression" help:"As run --fail-on-regression: --fail-on failures becomes both; alone, it means --fail-on both."`

	JudgeFlags
	SpendFlags
	HostFlag
	Pairwise bool `name:"pairwise" help:"Judge every later variant's answers against the first variant's, question by question and twice with the slots swapped (as compare --pairwise); the verdicts are stored in the later variant's run summary and shown in the grid. Needs a judge."`

	// reference is the first variant's run once it ran (--pairwise).
	reference *models.Run
	// notSaved counts the variants whose save failed (their evidence files
	// were written instead); failed those whose gate decided exit 1.
	notSaved, failed int
}

// Help is the detail under "evalrun experiment --help".
func (c *ExperimentCmd) Help() string {
	return `An experiment file names a suite (relative to the file) and the variants to compare:

  {"experiment": "Support prompts", "suite": "suite.json",
   "variants": [
     {"name": "reference", "env": {"AGENT_REVISION": "reference"}, "metadata": {"revision": "reference"}},
     {"name": "candidate", "env": {"AGENT_REVISION": "candidate"}},
     {"name": "v2 endpoint", "agent": {"url": "http://127.0.0.1:8080/answer"}}]}

A variant's "agent" object overrides keys of the suite's agent section (a variant that sets command, url or llm replaces the agent's kind; an llm section is merged key by key); "env" gives literal values to environment variables of command and worker agents (never stored); "metadata" is added to the variant's run. For llm agents, "matrix": {"model": [...], "system_prompt": [...]} crosses every model with every prompt (and with every variant, when both are given).

Every variant is an ordinary run of the suite, saved like "evalrun run" saves it, under its own agent name (the suite's agent name followed by the variant in brackets, unless the variant names its agent), so each variant has its own history and baseline. The runs share metadata.experiment = {id, name, variant, variants, started_at, params}. The grid (questions × variants, each answer with its scores, the best answer per question marked, totals and cost per variant, and paired comparisons) is printed and written to every --report; evaldash shows it at /experiments/ID.

Each variant is compared with its own baseline under --gate (strict by default; --tolerance, --alpha and --min-effect as for run), and its gate summary is printed with the variant's name in brackets.

Exit codes: 0 when every variant ran and was saved (an experiment is a measurement, like compare: failing checks of a variant do not fail it, unless --fail-on or --fail-on-regression asks to gate each variant as run would, which exits 1 when a variant's exit line says 1), 1 when interrupted (Ctrl-C or SIGTERM: variants that finished are saved, no other starts, and the interrupted variant's running questions finish within --grace and its finished cases go to an evidence file that db:import keeps as an interrupted run), 2 for an invalid experiment, suite, options or configuration (nothing runs), 3 when a variant's run could not be saved within --save-wait: its evidence file is written to ./` + DefaultEvidenceDir + ` (import it with evalrun db:import) and the grid is still shown.`
}

// Run executes every variant and prints the grid.
func (c *ExperimentCmd) Run(ctx context.Context, g *Globals) error {
	if c.Concurrency < 0 {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--concurrency: %s, got %d", concurrencyRule(), c.Concurrency)}
	}
	if err := c.checkGate(); err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	exp, err := suite.LoadExperiment(c.File)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	meta, err := parseMetadata(c.Metadata)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	targets, err := gridTargets(c.Report)
	if err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	suites := make([]*suite.Suite, len(exp.Variants))
	for i, v := range exp.Variants {
		s := *exp.Suite
		s.Agent = v.Agent
		if err := s.ValidateAgent(); err != nil {
			return &exitError{Code: exitInvalid, Err: fmt.Errorf("variant %q: %w", v.Name, err)}
		}
		suites[i] = &s
	}
	judge, err := c.judgeFor(ctx, exp.Suite)
	if err != nil {
		return asInvalid(err)
	}
	if c.Pairwise && judge == nil && !bool(c.NoJudge) {
		// No metric needs a judge, the pairwise verdicts do.
		if judge, err = c.judge(ctx, exp.Suite.Judge); err != nil {
			return asInvalid(err)
		}
	}
	for i, v := range exp.Variants {
		warnSameFamily(g.Stderr, suites[i].Agent.LLM, c.built, fmt.Sprintf("variant %q: ", sanitize.EscapeText(v.Name)))
	}
	if c.Pairwise && judge == nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--pairwise needs a judge: the suite names none (give --judge-model) or --no-judge is set")}
	}
	db, err := g.open(ctx, false)
	if err != nil {
		return asInvalid(err)
	}
	defer db.Close()
	info := report.ExperimentInfo{ID: uuid.NewString(), Name: exp.Name, StartedAt: models.UTC(time.Now()).Format(time.RFC3339Nano)}
	for _, v := range exp.Variants {
		info.Variants = append(info.Variants, v.Name)
	}
	var runs []*models.Run
	var stop <-chan struct{}
	if g.signals != nil && c.Grace > 0 {
		stop, _ = g.signals.graceful(c.Grace)
	}
	for i, v := range exp.Variants {
		select {
		case <-stop:
			return &exitError{Code: exitFailed, Err: fmt.Errorf("interrupted: %d of %d variants ran and were saved; %d did not start",
				len(runs), len(exp.Variants), len(exp.Variants)-len(runs))}
		default:
		}
		fmt.Fprintf(g.Stderr, "variant %d/%d: %s (agent %s)\n", i+1, len(exp.Variants),
			sanitize.EscapeText(v.Name), sanitize.EscapeText(v.Agent.Name))
		vi := info
		vi.Variant, vi.Params = v.Name, v.Params
		run, err := c.runVariant(ctx, g, db, suites[i], v, judge, variantMetadata(meta, v, vi))
		if err != nil {
			return err
		}
		runs = append(runs, run)
		if i == 0 {
			c.reference = run
		}
	}
	if err := writeGrid(g, runs, targets); err != nil {
		return err
	}
	if c.notSaved > 0 {
		return &exitError{Code: exitNotSaved, Err: fmt.Errorf("%s of %d not saved to the database: import the evidence files named above",
			show.Count(c.notSaved, "variant", "variants"), len(runs))}
	}
	if c.failed > 0 {
		return &exitError{Code: exitFailed, Err: fmt.Errorf("%s of %d failed the gate (--fail-on %s): see the exit lines above",
			show.Count(c.failed, "variant", "variants"), len(runs), c.gate().FailOn)}
	}
	return nil
}

// checkGate validates the gate flags before anything runs.
func (c *ExperimentCmd) checkGate() error { return checkFailOn(c.FailOn, &c.GateModeFlags) }

// gated reports whether --fail-on or --fail-on-regression asks the
// variants' gates to decide the exit code.
func (c *ExperimentCmd) gated() bool { return c.FailOn != "" || c.FailOnRegression }

// gate is the variants' gate: the gate flags, each variant against its
// automatic baseline.
func (c *ExperimentCmd) gate() eval.Gate {
	g := c.GateModeFlags.gate()
	g.FailOn = failOn(c.FailOn, c.FailOnRegression)
	return g
}

// writeGrid prints the variants' grid and writes it to every --report.
func writeGrid(g *Globals, runs []*models.Run, targets []eval.Report) error {
	grid, err := report.BuildGrid(runs, compare.Options{})
	if err != nil {
		return err
	}
	r, err := report.NewRenderer()
	if err != nil {
		return err
	}
	if err := r.RenderGrid(g.Stdout, report.FormatText, grid); err != nil {
		return err
	}
	for _, t := range targets {
		if err := r.WriteGridFile(t.Path, t.Format, grid); err != nil {
			return &exitError{Code: exitInvalid, Err: err}
		}
		fmt.Fprintf(g.Stderr, "wrote %s\n", t.Path)
	}
	return nil
}

// runVariant runs one variant as "evalrun run" runs a suite (eval.Run)
// and prints the variant's gate summary against the variant's own
// baseline, and its exit line when the experiment is gated.
func (c *ExperimentCmd) runVariant(ctx context.Context, g *Globals, db *models.DB, s *suite.Suite, v suite.Variant,
	judge score.Judge, meta map[string]any) (*models.Run, error) {
	conc := runner.Concurrency(int(c.Concurrency), len(s.Cases))
	setup, err := c.setup(g)
	if err != nil {
		return nil, err
	}
	built, err := setup.Agent(s.Agent, eval.AgentOptions{Concurrency: conc, LookupEnv: v.LookupEnv(os.LookupEnv)})
	if err != nil {
		return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("variant %q: %w", v.Name, err)}
	}
	defer built.Close()
	a := built.Agent
	prov, meta := collectProvenance(ctx, s.Dir, meta, c.NoHost)
	spend, err := c.meter(c.built, "", "")
	if err != nil {
		return nil, err
	}
	task := eval.Task{Suite: s, Agent: a, Judge: judge, Gate: c.gate(),
		Store: eval.Store{DB: db, EvidenceDir: DefaultEvidenceDir, Save: g.saveOptions(g.announceRetry)},
		Exec:  eval.Exec{Concurrency: conc, Metadata: meta, ExtraSummary: c.judgeSummary, JudgeDisabled: bool(c.NoJudge), JudgeSpend: spend, Provenance: prov}}
	if g.signals != nil && c.Grace > 0 {
		task.Exec.Stop, task.Exec.StopReason = g.signals.graceful(c.Grace)
	}
	showProgress(g, &task.Exec, len(s.Cases), nil)
	c.pairwiseHooks(ctx, g, &task.Exec, judge, v)
	res, err := eval.Run(ctx, task)
	if err != nil {
		err = inStage(err, eval.StageExecute, func(err error) error { return fmt.Errorf("variant %q: %w", v.Name, err) })
		return nil, asFailed(keptAnyway(g, res, err))
	}
	if res.Evidence.Kept == eval.Spooled {
		fmt.Fprintf(g.Stderr, "evalrun: variant %q: %s\n", v.Name, notSaved(g, res.Evidence))
		c.notSaved++
	}
	var buf bytes.Buffer
	writeGateSummary(&buf, res.Comparison, res.NoBaseline)
	if c.gated() {
		fmt.Fprintln(&buf, res.Decision.Line)
		if res.Decision.Code == exitFailed {
			c.failed++
		}
	}
	for _, line := range strings.SplitAfter(buf.String(), "\n") {
		if line != "" {
			fmt.Fprintf(g.Stdout, "[%s] %s", sanitize.EscapeText(v.Name), line)
		}
	}
	return res.Run, nil
}

// variantMetadata builds a variant run's metadata: the --metadata object,
// the variant's own metadata over it, and the experiment record.
func variantMetadata(base map[string]any, v suite.Variant, info report.ExperimentInfo) map[string]any {
	out := make(map[string]any, len(base)+len(v.Metadata)+1)
	for k, val := range base {
		out[k] = val
	}
	for k, val := range v.Metadata {
		out[k] = val
	}
	out[report.ExperimentKey] = info
	return out
}

// metadataLimits bound --metadata: a suite's depth, and 1 MiB (a command
// line holds far less).
func metadataLimits() bounds.Limits {
	return bounds.Limits{MaxDepth: bounds.DefaultMaxDepth, MaxBytes: 1 << 20}
}

// parseMetadata reads a --metadata JSON object ("" is an empty one),
// within metadataLimits and UTF-8.
func parseMetadata(s string) (map[string]any, error) {
	meta := map[string]any{}
	if s == "" {
		return meta, nil
	}
	if err := metadataLimits().CheckJSON([]byte(s)); err != nil {
		return nil, fmt.Errorf("--metadata: %w", err)
	}
	if err := bounds.CheckEncoding([]byte(s)); err != nil {
		return nil, fmt.Errorf("--metadata: %w", err)
	}
	if off := sanitize.BadEscape([]byte(s)); off >= 0 {
		return nil, fmt.Errorf("--metadata: byte %d: %s is NUL or a lone surrogate, which PostgreSQL refuses (limit: encoding UTF-8 without NUL)", off, s[off:min(len(s), off+6)])
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.UseNumber() // numbers keep every digit: a 20-digit build id stays itself
	if err := dec.Decode(&meta); err != nil || meta == nil || dec.More() {
		return nil, fmt.Errorf("--metadata: want a JSON object such as '{\"revision\":\"abc\"}', got %q", s)
	}
	return meta, nil
}

// gridTargets validates the --report paths of a grid (text, Markdown, HTML
// or JSON) before anything runs.
func gridTargets(paths []string) ([]eval.Report, error) {
	var out []eval.Report
	for _, p := range paths {
		format, err := reportFormat(p)
		if err != nil {
			// reportFormat's list (JUnit, the word github) is run's, not the grid's.
			return nil, fmt.Errorf("--report %q: %w: a grid is written to a file whose name ends .txt/.text, .md/.markdown, .html/.htm or .json, such as grid.html",
				p, report.ErrUnknownFormat)
		}
		switch format {
		case report.FormatText, report.FormatMarkdown, report.FormatHTML, report.FormatJSON:
		default:
			return nil, fmt.Errorf("--report %q: a grid is written as .txt, .md, .html or .json, not %s", p, format)
		}
		if err := checkDir("--report", p); err != nil {
			return nil, err
		}
		out = append(out, eval.Report{Path: p, Format: format})
	}
	return out, nil
}
