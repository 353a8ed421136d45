package main

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/google/uuid"

	"agentevals/compare"
	"agentevals/models"
	"agentevals/report"
	"agentevals/sanitize"
	"agentevals/suite"
)

// CompareFlags choose the baseline and what counts as a regression; run
// and report share them, so both gate a run the same way.
type CompareFlags struct {
	Baseline         string  `name:"baseline" placeholder:"RUN_ID" help:"Compare with this run instead of the automatic baseline. It must be an earlier run of the same suite, agent and definition; otherwise nothing is run or written (exit 2)."`
	Tolerance        float64 `name:"tolerance" default:"0" placeholder:"T" help:"Score decrease per metric and question that is not a regression (0..1). Never hides a newly failed threshold or a new error."`
	Gate             string  `name:"gate" default:"strict" enum:"strict,ci" help:"strict (default, the Ruby gem's rule): every per-question score drop beyond the tolerance, newly failed minimum and new error regresses, so LLM-judge noise alone regresses most runs. ci (use it for judged suites): a judge metric regresses only in aggregate, when a one-sided paired test of the per-question score differences is significant at --alpha and the mean drop is at least --min-effect, or when pass→fail flips significantly outnumber fail→pass (exact McNemar); deterministic and action checks that newly fail, and new agent errors, still regress one by one; flaky questions do not gate one by one; a judge metric with more than 10% errored verdicts is not measurable and gates."`
	Alpha            float64 `name:"alpha" default:"0.05" placeholder:"A" help:"--gate ci: significance level of the one-sided tests, above 0 and below 0.5; a judge metric's score and flip tests each get half, so an unchanged metric raises a false alarm at most this often."`
	MinEffect        float64 `name:"min-effect" default:"0.02" placeholder:"D" help:"--gate ci: smallest mean score drop of a metric that regresses however significant (0..1; 0 gates on significance alone)."`
	FailOn           string  `name:"fail-on" default:"failures" enum:"failures,regressions,both" help:"What exits 1. failures (default, the gem's behaviour): a failed or errored check. regressions: only a gated regression against the baseline, so a question that failed at the baseline and still fails exits 0. both: either."`
	FailOnRegression bool    `name:"fail-on-regression" help:"Also exit 1 on a gated regression: --fail-on failures becomes both (kept as an alias)."`
}

// options are the comparison settings of the flags.
func (f *CompareFlags) options() compare.Options {
	return compare.Options{Tolerance: f.Tolerance, Gate: f.Gate, Alpha: f.Alpha, MinEffect: &f.MinEffect}
}

// validate checks the comparison flags (exit 2 before anything runs).
func (f *CompareFlags) validate() error {
	switch {
	case !(f.Alpha > 0 && f.Alpha < 0.5):
		return fmt.Errorf("--alpha %v: want a significance level above 0 and below 0.5, such as 0.05", f.Alpha)
	case !(f.MinEffect >= 0 && f.MinEffect <= 1):
		return fmt.Errorf("--min-effect %v: want a score difference from 0 to 1, such as 0.02", f.MinEffect)
	case !(f.Tolerance >= 0 && f.Tolerance <= 1):
		return fmt.Errorf("--tolerance %v: want a score difference from 0 to 1", f.Tolerance)
	}
	if err := f.options().Validate(); err != nil {
		return fmt.Errorf("--tolerance/--gate/--alpha/--min-effect: %w", err)
	}
	return nil
}

// failOn is the effective exit rule: --fail-on, with --fail-on-regression
// adding regressions to it.
func (f *CompareFlags) failOn() string {
	if f.FailOnRegression && (f.FailOn == "" || f.FailOn == failOnFailures) {
		return failOnBoth
	}
	if f.FailOn == "" {
		return failOnFailures
	}
	return f.FailOn
}

// GateFlags choose the baseline, the regression gate and the reports written
// after a run.
type GateFlags struct {
	CompareFlags
	Report []string `name:"report" sep:"none" placeholder:"PATH" help:"Write a report to PATH after the run (repeatable). The extension picks the format: .html/.htm, .md/.markdown, .txt/.text, .json, .xml (JUnit), e.g. --report out/report.html. The word 'github' instead prints GitHub Actions annotations (each question's at its line of the suite file, named relative to the root of the git repository the working directory is in, else as given) and appends a job summary to $$GITHUB_STEP_SUMMARY. A bare format name such as 'html' is not a path and is refused."`
	JUnit  string   `name:"junit" placeholder:"PATH" help:"Write JUnit XML (one testcase per question) to PATH."`

	// subset is set by run --only: a subset of the questions is its own
	// definition, which the no-baseline line explains.
	subset bool
	// noDatabase is set by run --save-to/--no-save: no baseline was looked up.
	noDatabase bool
	// suiteFile is set by run to its suite file; GitHub annotations point
	// at the line of each question in it.
	suiteFile string
}

// reportTarget is one report to write: a file, or GitHub Actions output.
type reportTarget struct {
	path   string
	format report.Format
}

// targets validates the report flags before anything runs: unknown formats
// fail before any agent call and before any file is written.
func (f *GateFlags) targets() ([]reportTarget, error) {
	var out []reportTarget
	for _, p := range f.Report {
		if p == string(report.FormatGitHub) {
			out = append(out, reportTarget{format: report.FormatGitHub})
			continue
		}
		format, err := reportFormat(p)
		if err != nil {
			return nil, err
		}
		if err := checkDir("--report", p); err != nil {
			return nil, err
		}
		out = append(out, reportTarget{path: p, format: format})
	}
	if f.JUnit != "" {
		if err := checkDir("--junit", f.JUnit); err != nil {
			return nil, err
		}
		out = append(out, reportTarget{path: f.JUnit, format: report.FormatJUnit})
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

// resolveBaseline finds the baseline of the planned run before any agent is
// called: planned carries suite, agent, version, digest and each case's
// definition columns; calculated is the sorted set of metric names that will
// be calculated. An explicit --baseline that is missing or incompatible is an
// error (exit 2). A nil run means there is no baseline.
func (f *GateFlags) resolveBaseline(ctx context.Context, db *models.DB, planned *models.Run, calculated []string) (*models.Run, error) {
	if err := f.validate(); err != nil {
		return nil, &exitError{Code: exitInvalid, Err: err}
	}
	if _, err := f.targets(); err != nil {
		return nil, &exitError{Code: exitInvalid, Err: err}
	}
	return f.baseline(ctx, db, planned, calculated)
}

// baseline is the baseline of run: --baseline, checked to be one, or else
// the automatic one (nil when there is none). calculated is as for
// reports.FindBaseline. Any problem is an exit-2 error.
func (f *CompareFlags) baseline(ctx context.Context, db *models.DB, run *models.Run, calculated []string) (*models.Run, error) {
	if f.Baseline == "" {
		base, err := compare.FindBaseline(ctx, db, run, calculated)
		if err != nil {
			return nil, &exitError{Code: exitInvalid, Err: err}
		}
		return base, nil
	}
	base, err := loadRun(ctx, db, f.Baseline, "--baseline")
	if err != nil {
		return nil, err
	}
	if err := compare.CheckBaseline(run, base, calculated); err != nil {
		return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("--baseline %s: %w", f.Baseline, err)}
	}
	return base, nil
}

// loadRun reads the run with the given id; a malformed or unknown id is an
// exit-2 error naming the flag or argument.
func loadRun(ctx context.Context, db *models.DB, id, what string) (*models.Run, error) {
	uid, err := uuid.Parse(id)
	if err != nil {
		return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("%s %q: not a run id (want a UUID from evalrun history)", what, id)}
	}
	run, err := db.GetRun(ctx, uid)
	if errors.Is(err, models.ErrNotFound) {
		return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("%s %s: no such run in %s", what, id, db.URL)}
	}
	if err != nil {
		return nil, &exitError{Code: exitInvalid, Err: err}
	}
	return run, nil
}

// finish compares the saved run with its baseline, writes the requested
// reports and returns the comparison, from which exitLine derives the exit
// code.
func (f *GateFlags) finish(ctx context.Context, g *Globals, db *models.DB, run, baseline *models.Run, calculated []string) (*compare.Comparison, error) {
	targets, err := f.targets()
	if err != nil {
		return nil, &exitError{Code: exitInvalid, Err: err}
	}
	opts := f.options()
	if f.noDatabase || db == nil {
		fmt.Fprintln(g.Stdout, "Baseline: not looked up (--save-to and --no-save open no database); thresholds only")
	} else {
		opts = f.withFlaky(ctx, g, db, run, calculated)
	}
	cmp := compare.Compare(run, baseline, opts)
	if !f.noDatabase && db != nil {
		writeGateSummary(g.Stdout, cmp, f.noBaselineWhy(ctx, db, run, cmp, calculated))
	}
	r, err := report.NewRenderer()
	if err != nil {
		return nil, err
	}
	for _, t := range targets {
		var locs map[string]report.Location
		if t.format == report.FormatGitHub && t.path == "" {
			locs = f.locations(g)
		}
		if err := writeTarget(r, g, t, cmp, locs); err != nil {
			return nil, &exitError{Code: exitInvalid, Err: err}
		}
	}
	return cmp, nil
}

// withFlaky is the comparison options with the run's flaky questions
// (reports.FlakyQuestions). A history that cannot be read is a note on
// stderr, not a failure: the run is saved and its gate still decides.
func (f *CompareFlags) withFlaky(ctx context.Context, g *Globals, db *models.DB, run *models.Run, calculated []string) compare.Options {
	opts := f.options()
	flaky, err := compare.FlakyQuestions(ctx, db, run, calculated)
	if err != nil {
		fmt.Fprintf(g.Stderr, "note: flaky questions not marked: %s\n", sanitize.EscapeText(err.Error()))
		return opts
	}
	opts.Flaky = flaky
	return opts
}

// writeTarget writes one report file, or GitHub annotations to stdout plus
// the job summary when $GITHUB_STEP_SUMMARY is set; locs are the questions'
// annotation locations (nil: unlocated).
func writeTarget(r *report.Renderer, g *Globals, t reportTarget, cmp *compare.Comparison, locs map[string]report.Location) error {
	if t.format == report.FormatGitHub && t.path == "" {
		if err := r.RenderGitHub(g.Stdout, cmp, report.GitHubOptions{Locations: locs}); err != nil {
			return err
		}
		if p := os.Getenv("GITHUB_STEP_SUMMARY"); p != "" {
			return r.AppendStepSummary(p, cmp)
		}
		return nil
	}
	if err := r.WriteFile(t.path, t.format, cmp); err != nil {
		return err
	}
	fmt.Fprintf(g.Stdout, "Wrote %s report to %s\n", t.format, sanitize.EscapeText(t.path))
	return nil
}

// locations are the suite file's question positions as GitHub annotations
// name them (see repoPath). A suite whose questions cannot be located is
// annotated without locations, with a note on stderr.
func (f *GateFlags) locations(g *Globals) map[string]report.Location {
	if f.suiteFile == "" {
		return nil
	}
	positions, err := suite.Positions(f.suiteFile)
	if err != nil {
		fmt.Fprintf(g.Stderr, "note: GitHub annotations carry no file and line: %s\n", sanitize.EscapeText(err.Error()))
		return nil
	}
	out := make(map[string]report.Location, len(positions))
	for id, p := range positions {
		out[id] = report.Location{File: repoPath(p.File), Line: p.Line}
	}
	return out
}

// repoPath names file the way GitHub resolves the file of an annotation:
// relative to the root of the git repository (the nearest directory up from
// the working directory holding .git), with forward slashes. Outside a git
// repository, or for a file outside the repository, it is the path as given
// (relative to the working directory), which matches when the working
// directory is the checkout's root, as in a default GitHub Actions job.
func repoPath(file string) string {
	wd, err := os.Getwd()
	if err != nil {
		return file
	}
	root := gitRoot(wd)
	if root == "" {
		return file
	}
	abs := file
	if !filepath.IsAbs(abs) {
		abs = filepath.Join(wd, abs)
	}
	if resolved, err := filepath.EvalSymlinks(abs); err == nil {
		abs = resolved
	}
	if resolved, err := filepath.EvalSymlinks(root); err == nil {
		root = resolved
	}
	rel, err := filepath.Rel(root, abs)
	if err != nil || rel == ".." || strings.HasPrefix(rel, ".."+string(filepath.Separator)) {
		return file
	}
	return filepath.ToSlash(rel)
}

// gitRoot is the nearest directory from dir up that holds .git (a directory,
// or a file in worktrees and submodules); "" when there is none.
func gitRoot(dir string) string {
	for {
		if _, err := os.Stat(filepath.Join(dir, ".git")); err == nil {
			return dir
		}
		parent := filepath.Dir(dir)
		if parent == dir {
			return ""
		}
		dir = parent
	}
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

// noBaselineWhy says why run has no automatic baseline, for the summary's
// "Baseline: none (…)" line: "" for the first run of a definition. Earlier
// runs of the definition that are all marked as infrastructure failures
// are named, so "first run" does not hide them.
func (f *GateFlags) noBaselineWhy(ctx context.Context, db *models.DB, run *models.Run, cmp *compare.Comparison, calculated []string) string {
	switch {
	case cmp.Baseline != nil || f.Baseline != "":
		return ""
	case f.subset:
		return "--only runs a subset, which is its own definition; no earlier run of this subset"
	}
	cands, err := db.BaselineCandidates(ctx, models.BaselineQuery{Suite: run.Suite, Agent: run.Agent, Digest: run.SuiteDigest,
		Before: models.Cursor{StartedAt: run.StartedAt, Sequence: run.Sequence}, Limit: 1}) // the newest only: candidates come with all their rows
	if err != nil {
		return ""
	}
	for _, c := range cands {
		if c.ID != run.ID && compare.InfrastructureFailure(c) && compare.CheckBaseline(run, c, calculated) == nil {
			return "the earlier runs of this definition are marked as infrastructure failures, never automatic baselines; " +
				"--baseline RUN_ID compares with one anyway"
		}
	}
	return ""
}
