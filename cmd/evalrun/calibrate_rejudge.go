package main

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strconv"
	"strings"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/calibrate"
	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/suite"
)

// maxRejudge bounds --rejudge: beyond it the estimate barely improves and
// the judge bill keeps growing.
const maxRejudge = 100

// RejudgeFlags are calibrate's test-retest options.
type RejudgeFlags struct {
	Rejudge     *int     `name:"rejudge" placeholder:"N" help:"Judge the run's stored answers N more times (2..100) and report the judge's stability per metric: pass/fail agreement and kappa between repetitions, within-question sd and the minimum detectable effect at the run's size. Needs --suite. Calls no agent, writes nothing."`
	Suite       string   `name:"suite" placeholder:"FILE" help:"With --rejudge: the suite file the run was made from; its metric definitions and judge section are used (the --judge-* flags override the judge)."`
	Concurrency count    `name:"concurrency" short:"j" placeholder:"N" help:"With --rejudge: judge calls at once (0 or omitted: 4)."`
	JSON        bool     `name:"json" help:"With --rejudge: print the stability as one JSON object (run, judge, repetitions and per metric every figure and the verdict) instead of text."`
	MaxMDE      *float64 `name:"max-mde" placeholder:"D" help:"With --rejudge: exit 1 when a metric's minimum detectable effect is above D (0..1), or cannot be measured, so CI can refuse a judge too noisy to see the drops you care about (e.g. --max-mde 0.02)."`

	JudgeFlags
}

// checkRejudge validates the re-judging flags before anything is opened.
func (f *RejudgeFlags) checkRejudge() error {
	if f.Rejudge == nil {
		switch {
		case f.Suite != "":
			return errors.New("--suite: only used with --rejudge N")
		case f.MaxMDE != nil:
			return errors.New("--max-mde: only used with --rejudge N")
		case f.JSON:
			return errors.New("--json: only used with --rejudge N")
		}
		return nil
	}
	switch {
	case *f.Rejudge < 2 || *f.Rejudge > maxRejudge:
		return fmt.Errorf("--rejudge: want a whole number of repetitions from 2 to %d (two judgements of one answer are the least that can disagree), got %d", maxRejudge, *f.Rejudge)
	case f.Suite == "":
		return errors.New("--rejudge: give --suite FILE, the suite the run was made from (it defines the metrics and the judge)")
	case bool(f.NoJudge):
		return errors.New("--rejudge: --no-judge leaves nothing to re-judge")
	case f.JudgeCache != "":
		return errors.New("--rejudge: --judge-cache would replay the same verdicts and measure no noise at all; drop it")
	case f.MaxMDE != nil && (math.IsNaN(*f.MaxMDE) || *f.MaxMDE < 0 || *f.MaxMDE > 1):
		return fmt.Errorf("--max-mde: want a score difference from 0 to 1, got %v", *f.MaxMDE)
	case f.Concurrency < 0:
		return fmt.Errorf("--concurrency: %s, got %d", concurrencyRule(), f.Concurrency)
	}
	return nil
}

// rejudge judges the run's stored answers again and prints the stability.
func (f *RejudgeFlags) rejudge(ctx context.Context, g *Globals, run *models.Run) error {
	s, err := rejudgeSuite(f.Suite, run)
	if err != nil {
		return err
	}
	if !s.NeedsJudge() {
		return fmt.Errorf("calibrate --rejudge: %s has no judge-backed metric (only deterministic and action checks, which do not vary): nothing to re-judge", f.Suite)
	}
	settings, ok, err := f.settings(s.Judge)
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf("calibrate --rejudge: %s names no judge: give --judge-model (and --judge-provider/--judge-base-url)", f.Suite)
	}
	judge, err := f.judge(ctx, s.Judge)
	if err != nil {
		return err
	}
	if err := adapter.Preflight(ctx, suite.AgentConfig{}, &settings); err != nil {
		return fmt.Errorf("calibrate --rejudge: %w", err)
	}
	prog := newProgress(g.Stderr, 0)
	items, err := calibrate.Rejudge(ctx, s, run, judge, calibrate.RejudgeOptions{Times: *f.Rejudge, Concurrency: int(f.Concurrency),
		Progress: callProgress(prog)})
	prog.finish()
	if err != nil {
		return &exitError{Code: exitFailed, Err: err}
	}
	stability := calibrate.MeasureStability(items)
	if err := f.writeStability(g, run, settings, stability); err != nil {
		return err
	}
	if f.MaxMDE != nil {
		if err := checkMDE(stability, *f.MaxMDE); err != nil {
			return &exitError{Code: exitFailed, Err: err}
		}
	}
	return nil
}

// stabilityJSON is the --json shape of one metric: every figure of
// calibrate.Stability plus its verdict.
type stabilityJSON struct {
	calibrate.Stability
	MDERepeat3 *float64 `json:"minimum_detectable_effect_repeat_3"`
	Verdict    string   `json:"verdict"`
}

// writeStability prints the re-judging result as text, or as JSON with --json.
func (f *RejudgeFlags) writeStability(g *Globals, run *models.Run, s llm.Settings, ms []calibrate.Stability) error {
	if f.JSON {
		metrics := make([]stabilityJSON, len(ms))
		for i, m := range ms {
			metrics[i] = stabilityJSON{Stability: m, MDERepeat3: m.MDEWithRepeats(3), Verdict: m.Verdict()}
		}
		enc := json.NewEncoder(g.Stdout)
		enc.SetIndent("", "  ")
		return enc.Encode(map[string]any{"run": run.ID, "suite": run.Suite, "agent": run.Agent,
			"judge": map[string]string{"provider": s.Provider, "model": s.Model}, "repetitions": *f.Rejudge, "metrics": metrics})
	}
	fmt.Fprintf(g.Stdout, "Judge stability on run %s (%s, %s): its stored answers judged %d times by %s %s; nothing was saved\n\n",
		run.ID, sanitize.EscapeText(run.Suite), sanitize.EscapeText(run.Agent), *f.Rejudge,
		sanitize.EscapeText(s.Provider), sanitize.EscapeText(s.Model))
	if err := calibrate.WriteStability(g.Stdout, ms, sanitize.EscapeText); err != nil {
		return err
	}
	_, err := fmt.Fprintln(g.Stdout, "\nThis is the judge's noise alone: the same answers judged again. The agent's own variation adds to it; "+
		"run --repeat K measures both, and averaging K judgements per question divides the judge's part of the MDE by √K.")
	return err
}

// checkMDE fails when a metric's minimum detectable effect is above bar or
// could not be measured (or when no metric was re-judged at all).
func checkMDE(ms []calibrate.Stability, bar float64) error {
	if len(ms) == 0 {
		return errors.New("calibrate --max-mde: no judge metric was re-judged, so no effect size was measured")
	}
	var problems []string
	for _, m := range ms {
		switch {
		case m.MDE == nil:
			problems = append(problems, sanitize.EscapeText(m.Metric)+": not measurable")
		case *m.MDE > bar+1e-9:
			problems = append(problems, fmt.Sprintf("%s: %.3f", sanitize.EscapeText(m.Metric), *m.MDE))
		}
	}
	if len(problems) > 0 {
		return fmt.Errorf("calibrate: minimum detectable effect above %v or not measurable: %s", bar, strings.Join(problems, "; "))
	}
	return nil
}

// rejudgeSuite loads the suite file and checks that it defines the run's
// questions (the whole suite, or the subset the run answered with --only).
func rejudgeSuite(path string, run *models.Run) (*suite.Suite, error) {
	s, err := suite.Load(path)
	if err != nil {
		return nil, err
	}
	calculated := compare.CalculatedMetrics(run)
	if err := compare.SameDefinition(run, s.Plan(calculated), nil, calculated); err == nil {
		return s, nil
	}
	ids := make([]string, len(run.Cases))
	for i, c := range run.Cases {
		ids[i] = c.CaseID
	}
	have := map[string]bool{}
	for _, c := range s.Cases {
		have[c.ID] = true
	}
	var missing []string
	for _, id := range ids {
		if !have[id] {
			missing = append(missing, strconv.Quote(id))
		}
	}
	if len(missing) > 0 {
		return nil, fmt.Errorf("calibrate --rejudge: %s does not define run %s's questions: it has no question %s; give the suite file the run was made from",
			path, run.ID, strings.Join(missing, ", "))
	}
	subset, err := s.Only(ids)
	if err != nil {
		return nil, fmt.Errorf("calibrate --rejudge: %s does not define run %s's questions: %w", path, run.ID, err)
	}
	if err := compare.SameDefinition(run, subset.Plan(calculated), nil, calculated); err != nil {
		// The baseline rule's words ("incompatible baseline: …") would
		// puzzle here: say what differs.
		why := strings.TrimPrefix(err.Error(), compare.ErrIncompatible.Error()+": ")
		return nil, fmt.Errorf("calibrate --rejudge: %s is not the definition run %s was made from "+
			"(re-judging with other questions, thresholds or rubrics would measure something else): %s", path, run.ID, why)
	}
	return subset, nil
}

// callProgress draws judge calls on the progress bar of a terminal (and
// nothing elsewhere: a line per call would flood a CI log).
func callProgress(p *progress) func(done, total int) {
	return func(done, total int) {
		if p.cols == nil {
			return
		}
		p.total = total
		p.draw(done, "judge calls")
	}
}
