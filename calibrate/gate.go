package calibrate

import (
	"context"
	"encoding/json"
	"fmt"
	"maps"
	"math"
	"slices"
	"unicode/utf8"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/suite"
)

// Gate keeps the ci gate from gating on judge metrics that human labels do
// not vouch for: a metric gates only when the lower bound of its Cohen's
// kappa 95% interval against Labels reaches MinKappa.
type Gate struct {
	// Labels is the labels file, each line naming its run (evalrun label).
	Labels string
	// Source is how the user named the file, for errors ("--gate-labels").
	Source string
	// MinKappa is the bar, from -1 to 1.
	MinKappa float64
}

// RunReader reads the labelled runs (models.DB).
type RunReader interface {
	GetRun(ctx context.Context, id uuid.UUID) (*models.Run, error)
}

var _ RunReader = (*models.DB)(nil)

// GateVerdict is one judge metric under the gate: whether it gates, and
// why.
type GateVerdict struct {
	Metric string
	Gates  bool
	Why    string
}

// Validate checks the bar.
func (g Gate) Validate() error {
	if math.IsNaN(g.MinKappa) || g.MinKappa < -1 || g.MinKappa > 1 {
		return fmt.Errorf("want a number from -1 to 1, got %v", g.MinKappa)
	}
	return nil
}

// Check calibrates the judge metrics names (sorted) against the labels,
// reading each labelled run from runs, and says for each whether it gates.
func (g Gate) Check(ctx context.Context, runs RunReader, names []string) ([]GateVerdict, error) {
	labels, err := ReadLabels(g.Source, g.Labels)
	if err != nil {
		return nil, err
	}
	var judged []JudgedMetric
	seen := map[string]bool{}
	for i, l := range labels {
		if l.RunID == "" {
			return nil, fmt.Errorf("%s %s: line %d names no run_id (label the run with evalrun label)", g.Source, g.Labels, l.Line)
		}
		labels[i].CaseID = l.RunID + "/" + l.CaseID // one key space across runs
		if seen[l.RunID] {
			continue
		}
		seen[l.RunID] = true
		id, err := uuid.Parse(l.RunID)
		if err != nil {
			return nil, fmt.Errorf("%s %s: line %d: run_id %q: %w", g.Source, g.Labels, l.Line, l.RunID, err)
		}
		run, err := runs.GetRun(ctx, id)
		if err != nil {
			return nil, fmt.Errorf("%s %s: %w", g.Source, g.Labels, err)
		}
		for _, jm := range JudgedMetrics(run) {
			jm.CaseID = l.RunID + "/" + jm.CaseID
			judged = append(judged, jm)
		}
	}
	byMetric := map[string]MetricAgreement{}
	for _, m := range Calibrate(labels, judged) {
		byMetric[m.Metric] = m
	}
	out := make([]GateVerdict, 0, len(names))
	for _, name := range names {
		m := byMetric[name]
		m.Metric = name
		why, below := KappaBelow(m, g.MinKappa)
		out = append(out, GateVerdict{Metric: name, Gates: !below, Why: why})
	}
	return out, nil
}

// Uncalibrated is what eval.Gate.Uncalibrated takes: each metric that
// does not gate, with why.
func (g Gate) Uncalibrated(verdicts []GateVerdict) map[string]string {
	out := map[string]string{}
	for _, v := range verdicts {
		if !v.Gates {
			out[v.Metric] = "not gating: " + v.Why + " in " + g.Labels
		}
	}
	return out
}

// KappaBelow says why a metric's calibration does not reach bar: the
// lower bound of its kappa interval is below it (up to floating-point
// error), or kappa cannot be computed; ok is false when it reaches bar.
func KappaBelow(m MetricAgreement, bar float64) (why string, ok bool) {
	switch {
	case m.Pairs == 0:
		return "no human label", true
	case m.KappaUndefined:
		return "undefined (only one label on both sides)", true
	case m.Kappa == nil:
		return "no label could be compared", true
	}
	low := *m.Kappa
	if m.KappaLow != nil {
		low = *m.KappaLow
	}
	text := fmt.Sprintf("Cohen's kappa %.3f", *m.Kappa)
	if m.KappaLow != nil {
		text += fmt.Sprintf(" [%.3f, %.3f]", *m.KappaLow, *m.KappaHigh)
	}
	// The tolerance keeps a bound that is exactly the bar on paper from
	// failing on floating-point error.
	if low < bar-1e-9 {
		return fmt.Sprintf("%s over %d labels: the interval's lower bound %.3f < %v", text, m.Pairs, low, bar), true
	}
	return fmt.Sprintf("%s over %d labels: the interval's lower bound %.3f >= %v", text, m.Pairs, low, bar), false
}

// ReadLabels reads the labels file at path, which source (as the user
// typed it: a flag or an option) names in errors.
func ReadLabels(source, path string) ([]Label, error) {
	f, err := bounds.Open(path)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", source, err)
	}
	defer f.Close()
	labels, err := ParseLabels(bounds.NewReader(f, bounds.DefaultMaxBytes))
	if err != nil {
		return nil, fmt.Errorf("%s %s: %w", source, path, err)
	}
	return labels, nil
}

// JudgedMetrics flattens a run's metric rows into the judge verdicts that
// calibration compares with human labels.
func JudgedMetrics(run *models.Run) []JudgedMetric {
	var out []JudgedMetric
	for _, cr := range run.Cases {
		for _, m := range cr.Metrics {
			out = append(out, JudgedMetric{
				CaseID: cr.CaseID, Metric: m.Name, Threshold: m.Threshold,
				Score: m.Score, Passed: m.Passed, Errored: m.Errored(),
				AnswerLength: utf8.RuneCountInString(answerText(cr.Output)),
			})
		}
	}
	return out
}

// answerText is a JSON string's text, or the JSON itself.
func answerText(j models.JSON) string {
	var s string
	if json.Unmarshal(j, &s) == nil {
		return s
	}
	return string(j)
}

// SuiteJudgeMetrics are the suite's judge-backed metric names, sorted.
func SuiteJudgeMetrics(s *suite.Suite) []string {
	seen := map[string]bool{}
	for _, c := range s.Cases {
		for _, m := range c.Metrics {
			if typ, _, ok := s.MetricDefinition(m.Name); ok && s.Registry[typ].NeedsJudge {
				seen[m.Name] = true
			}
		}
	}
	return slices.Sorted(maps.Keys(seen))
}
