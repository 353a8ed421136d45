package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/provenance"
	"github.com/agentevals-go/agentevals/report"
)

// GateModeFlags choose the regression gate; run, report and experiment
// share them, so all three gate a run the same way.
type GateModeFlags struct {
	Tolerance float64 `name:"tolerance" default:"0" placeholder:"T" help:"Score decrease per metric and question that is not a regression (0..1). Never hides a newly failed threshold or a new error."`
	Gate      string  `name:"gate" default:"strict" enum:"strict,ci" help:"strict (default, the Ruby gem's rule): every per-question score drop beyond the tolerance, newly failed minimum and new error regresses, so LLM-judge noise alone regresses most runs. ci (use it for judged suites): a judge metric regresses only in aggregate, when a one-sided paired test of the per-question score differences is significant at --alpha and the mean drop is at least --min-effect, or when pass→fail flips significantly outnumber fail→pass (exact McNemar); deterministic, action, trajectory, trace and outcome checks that newly fail, and new agent errors, always regress one by one; flakiness (measured on runs of the same commit) softens only judge-scored findings; a judge metric with more than 10% errored verdicts is not measurable and gates."`
	Alpha     float64 `name:"alpha" default:"0.05" placeholder:"A" help:"--gate ci: significance level of the one-sided tests, above 0 and below 0.5, shared by all of them so an unchanged run raises a false alarm at most this often: a judge metric's score and flip tests split it, and when the question or slice tests run (20+ judged questions or repeats; slices of 5+) the metric tests keep half and those tests share the other half."`
	MinEffect float64 `name:"min-effect" default:"0.02" placeholder:"D" help:"--gate ci: smallest mean score drop of a metric that regresses however significant (0..1; 0 gates on significance alone)."`
	SliceBy   string  `name:"slice-by" default:"failure_mode" placeholder:"KEY" help:"--gate ci: the question metadata key whose values are tested as slices (a paired test per slice and judge metric, Holm-corrected across slices); a regressed slice is named with its size, mean change and p. Judge-scored questions also regress on their own when their drop is beyond the measured noise (Holm-corrected across questions)."`
}

// CompareFlags choose the baseline and what counts as a regression; run
// and report share them, so both gate a run the same way.
type CompareFlags struct {
	Baseline       string        `name:"baseline" placeholder:"RUN_ID" help:"Compare with this run instead of the automatic baseline. It must be an earlier run of the same suite, agent and definition; otherwise nothing is run or written (exit 2)."`
	BaselineFrom   string        `name:"baseline-from" placeholder:"FILE" help:"Compare with the run in this evidence file (written by run --save-to, or saved by the Action from the default branch) instead of the automatic baseline; it needs no database. The same rules as --baseline: a whole, earlier run of the same suite, agent and definition (exit 2 otherwise)."`
	BaselineBranch string        `name:"baseline-branch" placeholder:"BRANCH" help:"Take the automatic baseline only from runs made on this git branch (their recorded provenance). In CI it defaults to the pull request's target branch (GITHUB_BASE_REF, CI_MERGE_REQUEST_TARGET_BRANCH_NAME, BUILDKITE_PULL_REQUEST_BASE_BRANCH, CHANGE_TARGET), else the branch being built; outside CI, any branch. Runs of other branches are then never the automatic baseline."`
	BaselineMaxAge time.Duration `name:"baseline-max-age" default:"720h" placeholder:"DURATION" help:"Warn in every report when the baseline started this long before the run, or longer (0: never)."`
	GateModeFlags
	FailOn           string `name:"fail-on" default:"failures" enum:"failures,regressions,both" help:"What exits 1. failures (default, the gem's behaviour): a failed or errored check. regressions: only a gated regression against the baseline, so a question that failed at the baseline and still fails exits 0. both: either."`
	FailOnRegression bool   `name:"fail-on-regression" help:"Also exit 1 on a gated regression: --fail-on failures becomes both (kept as an alias)."`
}

// gate is the eval gate of the flags; in CI the automatic baseline comes
// from the target branch (provenance.TargetBranch) unless
// --baseline-branch names one.
func (f *CompareFlags) gate() eval.Gate {
	g := f.GateModeFlags.gate()
	g.Baseline, g.FailOn = f.Baseline, failOn(f.FailOn, f.FailOnRegression)
	g.BaselineFrom, g.Branch, g.MaxAge = f.BaselineFrom, f.BaselineBranch, f.BaselineMaxAge
	if g.Branch == "" {
		g.Branch = provenance.TargetBranch(os.Getenv).Branch
	}
	return g
}

// gateIn is gate for a suite in dir: a baseline of the target branch at or
// before the merge base of dir's checkout is preferred.
func (f *CompareFlags) gateIn(ctx context.Context, dir string) eval.Gate {
	g := f.gate()
	if g.Branch != "" {
		g.IsAncestor = provenance.Ancestry(ctx, dir)
	}
	return g
}

// gate is the eval gate of the flags, against the automatic baseline and
// failing on failures.
func (f *GateModeFlags) gate() eval.Gate {
	return eval.Gate{Mode: f.Gate, Tolerance: f.Tolerance, Alpha: f.Alpha, MinEffect: &f.MinEffect, SliceBy: f.SliceBy}
}

// validate checks the gate flags (exit 2 before anything runs).
func (f *GateModeFlags) validate() error {
	switch {
	case !(f.Alpha > 0 && f.Alpha < 0.5):
		return fmt.Errorf("--alpha %v: want a significance level above 0 and below 0.5, such as 0.05", f.Alpha)
	case !(f.MinEffect >= 0 && f.MinEffect <= 1):
		return fmt.Errorf("--min-effect %v: want a score difference from 0 to 1, such as 0.02", f.MinEffect)
	case !(f.Tolerance >= 0 && f.Tolerance <= 1):
		return fmt.Errorf("--tolerance %v: want a score difference from 0 to 1", f.Tolerance)
	}
	if err := f.gate().Options().Validate(); err != nil {
		return fmt.Errorf("--tolerance/--gate/--alpha/--min-effect: %w", err)
	}
	return nil
}

// checkFailOn validates an optional --fail-on rule ("" for none) and the
// gate mode flags.
func checkFailOn(rule string, f *GateModeFlags) error {
	switch rule {
	case "", eval.FailOnFailures, eval.FailOnRegressions, eval.FailOnBoth:
	default:
		return fmt.Errorf("--fail-on must be one of %q, %q or %q but got %q", eval.FailOnFailures, eval.FailOnRegressions, eval.FailOnBoth, rule)
	}
	return f.validate()
}

// failOn is the effective exit rule: --fail-on, with --fail-on-regression
// adding regressions to it.
func failOn(rule string, regression bool) string {
	if regression && (rule == "" || rule == eval.FailOnFailures) {
		return eval.FailOnBoth
	}
	if rule == "" {
		return eval.FailOnFailures
	}
	return rule
}

// GateFlags choose the baseline, the regression gate and the reports written
// after a run.
type GateFlags struct {
	CompareFlags
	Report []string `name:"report" sep:"none" placeholder:"PATH" help:"Write a report to PATH after the run (repeatable). The extension picks the format: .html/.htm, .md/.markdown, .txt/.text, .json, .xml (JUnit), e.g. --report out/report.html. The word 'github' instead prints GitHub Actions annotations (each question's at its line of the suite file, named relative to the root of the git repository the working directory is in, else as given) and appends a job summary to $$GITHUB_STEP_SUMMARY. A bare format name such as 'html' is not a path and is refused."`
	JUnit  string   `name:"junit" placeholder:"PATH" help:"Write JUnit XML (one testcase per question) to PATH."`
}

// targets validates the report flags before anything runs: unknown formats
// fail before any agent call and before any file is written. GitHub
// annotations append their job summary to $GITHUB_STEP_SUMMARY when set.
func (f *GateFlags) targets() ([]eval.Report, error) {
	var out []eval.Report
	for _, p := range f.Report {
		if p == string(report.FormatGitHub) {
			out = append(out, eval.Report{Format: report.FormatGitHub, StepSummary: os.Getenv("GITHUB_STEP_SUMMARY")})
			continue
		}
		format, err := reportFormat(p)
		if err != nil {
			return nil, err
		}
		if err := checkDir("--report", p); err != nil {
			return nil, err
		}
		out = append(out, eval.Report{Path: p, Format: format})
	}
	if f.JUnit != "" {
		if err := checkDir("--junit", f.JUnit); err != nil {
			return nil, err
		}
		out = append(out, eval.Report{Path: f.JUnit, Format: report.FormatJUnit})
	}
	return out, nil
}

// reportFormat reads the format of a --report path from its extension. A
// bare format name ("html") is refused with the file name to use instead:
// the extension is the one way to name a format, so PATH stays a plain path
// (no FORMAT:PATH, which would collide with Windows drive letters).
func reportFormat(p string) (report.Format, error) {
	format, err := report.FormatFromPath(p)
	if err == nil {
		return format, nil
	}
	hint := ""
	if f, perr := report.ParseFormat(p); perr == nil && f.Ext() != "" {
		hint = fmt.Sprintf("; to write %s, give a file name such as report%s", f, f.Ext())
	}
	return "", fmt.Errorf("--report %q: %w: want a path ending .html/.htm, .md/.markdown, .txt/.text, .json or .xml (JUnit), or the word github%s",
		p, report.ErrUnknownFormat, hint)
}

// checkDir fails early when a report's directory does not exist.
func checkDir(flag, path string) error {
	dir := filepath.Dir(path)
	st, err := os.Stat(dir)
	if err != nil {
		return fmt.Errorf("%s %s: %w", flag, path, err)
	}
	if !st.IsDir() {
		return fmt.Errorf("%s %s: %s is not a directory", flag, path, dir)
	}
	return nil
}

// check validates the gate and report flags before the agent runs and
// returns the reports to write. Without the database (--save-to,
// --no-save) there is no baseline: --baseline is refused and
// --fail-on-regression noted.
func (f *GateFlags) check(g *Globals, database bool) ([]eval.Report, error) {
	if f.Baseline != "" && f.BaselineFrom != "" {
		return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("--baseline %s and --baseline-from %s: choose one baseline", f.Baseline, f.BaselineFrom)}
	}
	if f.BaselineMaxAge < 0 {
		return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("--baseline-max-age %s: want a duration of 0 or more, such as 720h", f.BaselineMaxAge)}
	}
	if !database {
		if f.Baseline != "" {
			return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("--baseline needs the database, which --save-to and --no-save do not open; --baseline-from FILE takes an evidence file instead")}
		}
		if f.FailOnRegression && f.BaselineFrom == "" {
			fmt.Fprintln(g.Stderr, "note: --fail-on-regression cannot fail this run: without the database there is no baseline; "+
				"gate it after 'evalrun db:import' with 'evalrun report --fail-on-regression'")
		}
	}
	if err := f.validate(); err != nil {
		return nil, &exitError{Code: exitInvalid, Err: err}
	}
	targets, err := f.targets()
	if err != nil {
		return nil, &exitError{Code: exitInvalid, Err: err}
	}
	return targets, nil
}
