package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/internal/atomicfile"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/sanitize"
)

// ReportCmd renders a run's report, compared with its baseline. Rendering
// is not gating: it exits 0 whatever the run's outcome, unless --fail-on
// or --fail-on-regression asks it to exit like run does (docs/architecture.md,
// Semantics): 1 for failed or errored calculated checks (failures), a
// gated regression (regressions) or either (both), after the report is
// written. 2 for invalid input. A line on stderr says how the run went and
// which rule produced the code.
type ReportCmd struct {
	RunID    string `arg:"" optional:"" name:"run-id" help:"Run to report: its id or a unique prefix of it (default: the latest run: the newest started_at that is not after now, ties broken by the order the database saved them; a run dated in the future is never the latest)."`
	Baseline string `name:"baseline" placeholder:"RUN_ID" help:"Compare with this run (an id or a unique prefix) instead of the automatic baseline. It must be an earlier run of the same suite, agent and definition; otherwise nothing is written (exit 2)."`
	GateModeFlags
	CalibrationGateFlags
	FailOn           string `name:"fail-on" placeholder:"RULE" help:"Exit 1 as run does: failures (a failed or errored check), regressions (a gated regression against the baseline) or both. Omitted, and without --fail-on-regression: the report is written and the exit is 0 whatever the run's outcome."`
	FailOnRegression bool   `name:"fail-on-regression" help:"Exit 1 on a failed check or a gated regression (--fail-on both; with --fail-on regressions, regressions only)."`
	Recompare        bool   `name:"recompare" help:"Compare the run again under this command's --baseline and gate flags instead of showing the decision recorded when it was made (its gate, baseline and exit). Giving --baseline, or a gate flag other than its default, also compares again. Runs without a recorded decision (the gem's, older ones) are always compared again."`
	Format           string `name:"format" short:"f" placeholder:"FORMAT" help:"text, markdown, html, json, junit, github or comment (default: from the --output extension, else text). comment is Markdown shaped for a pull-request comment: the verdict first, the regressed questions and slices with their reasons, the baseline's branch and commit, a link (--link) and a hidden marker (--comment-key) that identifies the suite's comment."`
	CommentKey       string `name:"comment-key" placeholder:"KEY" help:"--format comment: the key of the hidden marker that identifies this suite's comment (default: the suite's name)."`
	Link             string `name:"link" placeholder:"URL" help:"--format comment: the address of the full report (say, the CI job's page)."`
	Output           string `name:"output" short:"o" placeholder:"PATH" help:"Write the report to PATH (atomically) instead of stdout."`
}

// Help is the detail under "evalrun report --help".
func (c *ReportCmd) Help() string {
	return "Rendering a report exits 0, whatever the run's outcome; a line on stderr says how the run went. " +
		"To gate on a report (say, after evalrun db:import in CI), give --fail-on as for run: " +
		"1 under --fail-on failures when the reported run has failed or errored checks, under --fail-on regressions when it regressed " +
		"against its baseline under the chosen --gate, under both (or --fail-on-regression) for either; the report is written first. " +
		"2 for an unknown format, run or baseline, or an unwritable output (nothing is written). " +
		"Runs are named by their id or a unique prefix of it, as git names commits. " +
		"For judged suites use --gate ci (see evalrun run --help); --gate-labels and --min-kappa keep uncalibrated judge metrics from gating, as for run, so db:import and report reproduce run's decision."
}

// gated reports whether a gate flag asks report to exit like run.
func (c *ReportCmd) gated() bool { return c.FailOn != "" || c.FailOnRegression }

// gate is the report's gate: the gate flags against the automatic (or the
// --baseline) run.
func (c *ReportCmd) gate() eval.Gate {
	g := c.GateModeFlags.gate()
	g.Baseline, g.FailOn = c.Baseline, failOn(c.FailOn, c.FailOnRegression)
	return g
}

// validate checks the flags before anything is read.
func (c *ReportCmd) validate() error { return checkFailOn(c.FailOn, &c.GateModeFlags) }

// format picks the output format before anything is read or written.
func (c *ReportCmd) format() (report.Format, error) {
	switch {
	case strings.EqualFold(c.Format, string(formatComment)):
		return formatComment, nil
	case c.Format != "":
		return report.ParseFormat(c.Format)
	case c.Output != "":
		return report.FormatFromPath(c.Output)
	}
	return report.FormatText, nil
}

// Run renders the report.
func (c *ReportCmd) Run(ctx context.Context, g *Globals) error {
	format, err := c.format()
	if err != nil {
		return &exitError{Code: exitInvalid, Err: fmt.Errorf("--format/--output: %w", err)}
	}
	if err := c.validate(); err != nil {
		return &exitError{Code: exitInvalid, Err: err}
	}
	if c.Output != "" {
		if err := checkDir("--output", c.Output); err != nil {
			return &exitError{Code: exitInvalid, Err: err}
		}
	}
	r, err := report.NewRenderer()
	if err != nil {
		return err
	}
	db, err := g.open(ctx, true)
	if err != nil {
		return asInvalid(err)
	}
	defer db.Close()
	run, err := c.run(ctx, db)
	if err != nil {
		return err
	}
	gate := c.gate()
	cmp, err := c.compare(ctx, g, db, run, gate)
	if err != nil {
		return err
	}
	switch {
	case format == formatComment:
		err = c.writeComment(g, cmp)
	case c.Output != "":
		err = r.WriteFile(c.Output, format, cmp)
	case format == report.FormatGitHub:
		err = eval.Report{Format: format, StepSummary: os.Getenv("GITHUB_STEP_SUMMARY")}.Write(r, g.Stdout, cmp, nil)
	default:
		err = r.Render(g.Stdout, format, cmp)
	}
	if err != nil {
		return asInvalid(fmt.Errorf("report: %w", err))
	}
	if !c.gated() {
		fmt.Fprintf(g.Stderr, "evalrun: report: run %s: %s; report written, exit 0 (add --fail-on failures or --fail-on-regression to exit 1 as run does)\n",
			cmp.Run.ID, sanitize.EscapeText(report.HeadlineOf(cmp).Outcome))
		return nil
	}
	d := gate.Decide(cmp)
	if rec := cmp.Decision; rec != nil && rec.FailOn == gate.FailOn {
		d = eval.Decision{Code: rec.Exit, Line: rec.Line}
	}
	if d.Code != exitOK {
		return &exitError{Code: d.Code, Err: fmt.Errorf("report: run %s: %s", cmp.Run.ID, d.Line)}
	}
	fmt.Fprintf(g.Stderr, "evalrun: report: run %s: %s\n", cmp.Run.ID, d.Line)
	return nil
}

// compare is the comparison report shows: the decision recorded when the
// run was made, unless --recompare, --baseline, --gate-labels or a gate
// flag other than its default asks to compare again (or the run recorded
// none).
func (c *ReportCmd) compare(ctx context.Context, g *Globals, db *models.DB, run *models.Run, gate eval.Gate) (*compare.Comparison, error) {
	again := c.Recompare || c.Baseline != "" || c.GateModeFlags != defaultGateModeFlags() || c.GateLabels != ""
	if rec := compare.RecordedDecision(run); rec != nil && !again {
		cmp, err := compare.Recorded(ctx, db, run)
		if err != nil {
			return nil, asInvalid(fmt.Errorf("report: %w", err))
		}
		fmt.Fprintf(g.Stderr, "note: showing the decision recorded when the run was made (%s); --recompare compares again under this command's flags\n",
			sanitize.EscapeText(report.DecisionLine(rec)))
		return cmp, nil
	}
	baseline, _, err := gate.FindBaseline(ctx, db, run, nil)
	if err != nil {
		return nil, err
	}
	opts, note := gate.CompareOptions(ctx, db, run, nil)
	if note != "" {
		fmt.Fprintf(g.Stderr, "note: %s\n", sanitize.EscapeText(note))
	}
	cmp := compare.Compare(run, baseline, opts)
	uncal, err := c.uncalibratedOf(ctx, g, db, func() []string { return runJudgeMetricNames(run) }, gate.Mode)
	if err != nil {
		return nil, err
	}
	cmp.Ungate(uncal)
	return cmp, nil
}

// formatComment is report's pull-request comment format (report.WriteComment).
const formatComment report.Format = "comment"

// writeComment writes the pull-request comment to --output or stdout.
func (c *ReportCmd) writeComment(g *Globals, cmp *compare.Comparison) error {
	var b strings.Builder
	if err := report.WriteComment(&b, cmp, report.CommentOptions{Key: c.CommentKey, Link: c.Link}); err != nil {
		return err
	}
	if c.Output != "" {
		return atomicfile.Write(c.Output, []byte(b.String()), 0o644)
	}
	_, err := io.WriteString(g.Stdout, b.String())
	return err
}

// defaultGateModeFlags are the gate flags' defaults: report compares again
// when they differ.
func defaultGateModeFlags() GateModeFlags {
	return GateModeFlags{Gate: "strict", Alpha: 0.05, MinEffect: 0.02, SliceBy: "failure_mode"}
}

// run loads the requested run, or the latest one.
func (c *ReportCmd) run(ctx context.Context, db *models.DB) (*models.Run, error) {
	if c.RunID != "" {
		return eval.LoadRun(ctx, db, c.RunID, "run")
	}
	run, err := latestRun(ctx, db, time.Now())
	if err != nil {
		return nil, err
	}
	return eval.LoadRun(ctx, db, run.ID.String(), "run")
}

// latestRun is the run a command without a run id means: the newest
// started_at at or before now, ties broken by sequence (the order the
// database saved them). A run dated after now (a wrong clock, or a forged
// file) is never the latest, so it cannot stand in for the run CI has just
// saved.
func latestRun(ctx context.Context, db *models.DB, now time.Time) (*models.Run, error) {
	runs, _, err := db.ListRuns(ctx, models.RunFilter{Limit: 1, To: now.Add(time.Microsecond)})
	if err != nil {
		return nil, &exitError{Code: exitInvalid, Err: err}
	}
	if len(runs) == 0 {
		return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("no runs in %s started before now yet (evalrun run SUITE saves one)", db.URL)}
	}
	return runs[0], nil
}
