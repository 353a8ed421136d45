package compare

import (
	"fmt"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/show"
)

// Kind classifies a finding of the comparison.
type Kind string

// Finding kinds. All but Improvement and Fixed are regressions.
const (
	ScoreDrop      Kind = "score_drop"       // a metric score fell by more than the tolerance
	NewFailure     Kind = "new_failure"      // a threshold that held now fails
	NewAgentError  Kind = "new_agent_error"  // the agent call now fails
	NewMetricError Kind = "new_metric_error" // a metric now ends in an error
	MetricDrop     Kind = "metric_drop"      // ci gate: the paired test shows a significant drop of at least the min effect
	MetricFlips    Kind = "metric_flips"     // ci gate: a judge metric's pass→fail flips outnumber fail→pass significantly
	NotMeasurable  Kind = "not_measurable"   // ci gate: too many judge verdicts of a metric ended in an error
	Improvement    Kind = "improvement"      // a score rose by more than the tolerance
	Fixed          Kind = "fixed"            // a failure or error of the baseline is gone
)

// Regression reports whether findings of this kind are regressions.
func (k Kind) Regression() bool {
	switch k {
	case ScoreDrop, NewFailure, NewAgentError, NewMetricError, MetricDrop, MetricFlips, NotMeasurable, QuestionDropKind, SliceDropKind:
		return true
	}
	return false
}

// Finding is one difference between a run and its baseline.
type Finding struct {
	Kind     Kind   `json:"kind"`
	CaseID   string `json:"case_id,omitempty"`
	CaseName string `json:"case_name,omitempty"`
	Metric   string `json:"metric,omitempty"`
	// Before and After are the baseline and current scores (nil when not
	// calculated or when the finding is about an error).
	Before *float64 `json:"before"`
	After  *float64 `json:"after"`
	// Slice is "KEY=VALUE" for a slice_drop finding of the ci gate.
	Slice string `json:"slice,omitempty"`
	// Threshold is the metric's minimum score, when the finding is about one.
	Threshold *float64 `json:"threshold,omitempty"`
	// Gating is true when the finding fails the gate under the chosen mode.
	Gating  bool   `json:"gating"`
	Message string `json:"message"`
	// Why says, under the ci gate, why the finding gates or does not
	// ("not gating: judge metrics gate in aggregate; …").
	Why string `json:"why,omitempty"`
}

// Text is the message followed by why it gates or not, when known.
func (f Finding) Text() string {
	if f.Why == "" {
		return f.Message
	}
	return f.Message + " (" + f.Why + ")"
}

// MetricDelta compares one metric of one case.
type MetricDelta struct {
	Name     string               `json:"name"`
	Current  *models.MetricResult `json:"-"`
	Baseline *models.MetricResult `json:"-"`
	Before   *float64             `json:"before"`
	After    *float64             `json:"after"`
	Delta    *float64             `json:"delta"`
}

// CaseComparison is one question of the run next to the same question of
// the baseline (nil when the baseline has no such case).
type CaseComparison struct {
	Case     *models.CaseResult `json:"-"`
	Baseline *models.CaseResult `json:"-"`
	CaseID   string             `json:"case_id"`
	Status   string             `json:"status"`
	// BaselineStatus is empty when there is no baseline case.
	BaselineStatus  string        `json:"baseline_status,omitempty"`
	Quality         *float64      `json:"quality"`
	BaselineQuality *float64      `json:"baseline_quality"`
	Metrics         []MetricDelta `json:"metrics"`
	Findings        []Finding     `json:"findings"`
	// Flaky is set when the question's status flipped in recent runs.
	Flaky *Flakiness `json:"flaky,omitempty"`
}

// MetricComparison is one metric over the whole run next to the baseline.
type MetricComparison struct {
	MetricStat
	// BaselineMean is nil without a baseline or baseline scores.
	BaselineMean *float64 `json:"baseline_mean"`
	Delta        *float64 `json:"delta"`
	// BelowBaseline is true when the whole interval lies below BaselineMean.
	BelowBaseline bool `json:"below_baseline"`
	// Test is the paired evidence against the baseline (nil without one).
	Test *MetricTest `json:"test,omitempty"`
}

// Comparison is a run compared with its baseline (or with none). It is
// everything the renderers show.
type Comparison struct {
	Run      *models.Run
	Baseline *models.Run
	Options  Options
	Totals   Totals
	// BaselineTotals is nil without a baseline.
	BaselineTotals *Totals
	Metrics        []MetricComparison
	Cases          []CaseComparison
	// Findings lists every finding, regressions first, in case order.
	Findings []Finding
	// Slices are totals per metadata.failure_mode and per tag.
	Slices []Slice
	// Missing lists baseline case ids absent from the run.
	Missing []string
	// Localized is the ci gate's question and slice tests (nil under the
	// strict gate or without a baseline).
	Localized *Localization
	// Decision is the gate decision recorded when the run was made (see
	// Recorded); nil for a comparison made now. When set, it is
	// the verdict: Regressed follows its gating findings.
	Decision *models.GateDecision
}

// Regressions returns the regression findings (gating or not).
func (c *Comparison) Regressions() []Finding {
	var out []Finding
	for _, f := range c.Findings {
		if f.Kind.Regression() {
			out = append(out, f)
		}
	}
	return out
}

// Regressed reports whether a finding fails the gate under the chosen
// mode; for a recorded decision, whether one did when the run was made.
func (c *Comparison) Regressed() bool {
	if c.Decision != nil {
		return len(c.Decision.Findings) > 0
	}
	for _, f := range c.Findings {
		if f.Gating {
			return true
		}
	}
	return false
}

// ChecksFailed reports whether a calculated check failed or errored, or an
// agent call failed (exit 1 regardless of the gate, docs/architecture.md, Semantics).
func (c *Comparison) ChecksFailed() bool {
	return c.Totals.Failed > 0 || c.Totals.Errored > 0
}

// Compare compares run with baseline (nil: no baseline) per case and metric.
// It does not check compatibility: callers choose the baseline with
// FindBaseline or CheckBaseline.
func Compare(run, baseline *models.Run, opts Options) *Comparison {
	opts = opts.withDefaults()
	cmp := &Comparison{Run: run, Baseline: baseline, Options: opts,
		Totals: TotalsOf(run.Cases, opts)}
	var base map[string]*models.CaseResult
	if baseline != nil {
		bt := TotalsOf(baseline.Cases, opts)
		cmp.BaselineTotals = &bt
		base = make(map[string]*models.CaseResult, len(baseline.Cases))
		for _, c := range baseline.Cases {
			base[c.CaseID] = c
		}
	}
	var tests map[string]*MetricTest
	var order []string
	var pairs map[string][]pair
	agg, aq, as := opts.AlphaOrDefault(), 0.0, 0.0
	if baseline != nil {
		tests = metricTests(run, base, JudgedMetrics(run, baseline, opts), opts)
		if opts.Gate == GateCI {
			order, pairs = judgedPairs(run, base, tests, opts.SliceByOrDefault())
			agg, aq, as = plan(order, pairs, agg)
			if agg < opts.AlphaOrDefault() {
				aggOpts := opts
				aggOpts.Alpha = agg
				for _, t := range tests {
					t.Verdict, t.Note = t.decide(aggOpts, t.baselineMeasured)
				}
			}
		}
	}
	var regressions, others []Finding
	seen := map[string]bool{}
	for _, c := range run.Cases {
		seen[c.CaseID] = true
		cc := compareCase(c, base[c.CaseID], opts, tests)
		cmp.Cases = append(cmp.Cases, cc)
		for _, f := range cc.Findings {
			if f.Kind.Regression() {
				regressions = append(regressions, f)
			} else {
				others = append(others, f)
			}
		}
	}
	if baseline != nil {
		for _, c := range baseline.Cases {
			if !seen[c.CaseID] {
				cmp.Missing = append(cmp.Missing, c.CaseID)
			}
		}
	}
	var sliceFindings []Finding
	if baseline != nil && opts.Gate == GateCI {
		var byCase map[string][]Finding
		cmp.Localized, sliceFindings, byCase = localize(cmp.Cases, tests, opts, order, pairs, agg, aq, as)
		if aq == 0 && as == 0 {
			cmp.Localized = nil // no localized family ran: the aggregate tests are the whole gate
		}
		regressions = mergeQuestionDrops(cmp.Cases, byCase, aq > 0)
	}
	cmp.Metrics, regressions = compareMetrics(run, baseline, opts, tests, regressions)
	// Localized findings first: slices, then the metrics, then questions.
	cmp.Findings = append(append(sliceFindings, regressions...), others...)
	cmp.Slices = buildSlices(cmp, opts)
	return cmp
}

func compareMetrics(run, baseline *models.Run, opts Options, tests map[string]*MetricTest, regs []Finding) ([]MetricComparison, []Finding) {
	var baseStats map[string]MetricStat
	if baseline != nil {
		baseStats = map[string]MetricStat{}
		for _, s := range MetricStats(baseline.Cases, opts) {
			baseStats[s.Name] = s
		}
	}
	var out []MetricComparison
	var names []string
	for _, s := range MetricStats(run.Cases, opts) {
		mc := MetricComparison{MetricStat: s, Test: tests[s.Name]}
		if b, ok := baseStats[s.Name]; ok {
			mc.BaselineMean = b.Mean
		}
		if bm := mc.BaselineMean; bm != nil && s.Mean != nil {
			mc.Delta = Ptr(*s.Mean - *bm)
			// Shown in the metric table under both gates; neither gates on it.
			mc.BelowBaseline = s.CI != nil && s.CI.High < *bm-ScoreEpsilon
		}
		out = append(out, mc)
		names = append(names, s.Name)
	}
	if opts.Gate == GateCI {
		// Metric-level verdicts first: they are the ci gate's main story.
		regs = append(ciMetricFindings(names, tests), regs...)
	}
	return out, regs
}

func Ptr[T any](v T) *T { return &v }

func compareCase(c, b *models.CaseResult, opts Options, tests map[string]*MetricTest) CaseComparison {
	cc := CaseComparison{Case: c, Baseline: b, CaseID: c.CaseID, Status: CaseStatus(c), Quality: c.Quality()}
	if fl, ok := opts.Flaky[c.CaseID]; ok {
		cc.Flaky = &fl
	}
	if b != nil {
		cc.BaselineStatus = CaseStatus(b)
		cc.BaselineQuality = b.Quality()
	}
	baseMetrics := map[string]*models.MetricResult{}
	if b != nil {
		for _, m := range b.Metrics {
			baseMetrics[m.Name] = m
		}
	}
	for _, m := range c.Metrics {
		md := MetricDelta{Name: m.Name, Current: m, Baseline: baseMetrics[m.Name], After: m.Score}
		if md.Baseline != nil {
			md.Before = md.Baseline.Score
		}
		if md.Before != nil && md.After != nil {
			md.Delta = Ptr(*md.After - *md.Before)
		}
		cc.Metrics = append(cc.Metrics, md)
	}
	if b == nil {
		return cc
	}
	f := func(k Kind, metric string, before, after, threshold *float64, msg string) {
		fd := Finding{Kind: k, CaseID: c.CaseID, CaseName: c.Name, Metric: metric,
			Before: before, After: after, Threshold: threshold, Gating: k.Regression(), Message: msg}
		if opts.Gate == GateCI && k.Regression() {
			fd.Gating, fd.Why = ciWhy(fd, tests, cc.Flaky)
		}
		cc.Findings = append(cc.Findings, fd)
	}
	switch {
	case c.AgentErrored() && !b.AgentErrored():
		f(NewAgentError, "", nil, nil, nil, "the agent call failed: "+ErrorSummary(c.ErrorDetails))
		return cc // metric findings would only repeat the agent error
	case !c.AgentErrored() && b.AgentErrored():
		f(Fixed, "", nil, nil, nil, "the agent call no longer fails")
	}
	for _, md := range cc.Metrics {
		m, bm := md.Current, md.Baseline
		if bm == nil {
			continue
		}
		th := Ptr(m.Threshold)
		switch {
		case m.Errored() && !bm.Errored():
			f(NewMetricError, m.Name, bm.Score, nil, th, m.Name+" now ends in an error: "+ErrorSummary(m.ErrorDetails))
			continue
		case !m.Errored() && bm.Errored() && m.Score != nil:
			f(Fixed, m.Name, nil, m.Score, th, m.Name+" no longer ends in an error")
		}
		failedNow := m.Score != nil && !m.Errored() && !m.Passed
		failedBefore := bm.Score != nil && !bm.Errored() && !bm.Passed
		if failedNow && !failedBefore && !bm.Errored() {
			f(NewFailure, m.Name, bm.Score, m.Score, th, fmt.Sprintf("%s now fails its minimum %s (score %s, was %s)",
				m.Name, show.Score(th), show.Score(m.Score), show.Score(bm.Score)))
		}
		if md.Delta != nil && !m.Errored() && !bm.Errored() {
			d := *md.Delta
			switch {
			case -d > opts.Tolerance+ScoreEpsilon:
				f(ScoreDrop, m.Name, bm.Score, m.Score, th, fmt.Sprintf("%s fell by %.3f, from %s to %s (tolerance %s)",
					m.Name, -d, show.Score(bm.Score), show.Score(m.Score), show.Float(opts.Tolerance)))
			case d > opts.Tolerance+ScoreEpsilon:
				f(Improvement, m.Name, bm.Score, m.Score, th, fmt.Sprintf("%s rose by %.3f, from %s to %s",
					m.Name, d, show.Score(bm.Score), show.Score(m.Score)))
			}
		}
		if failedBefore && m.Score != nil && !m.Errored() && m.Passed {
			f(Fixed, m.Name, bm.Score, m.Score, th, m.Name+" meets its minimum again")
		}
	}
	return cc
}

// ErrorSummary returns a short one-line text of an error_details value:
// its "message" (or "error") string when it is an object, else its JSON.
func ErrorSummary(details models.JSON) string {
	if details.IsNull() {
		return ""
	}
	var v any
	if err := details.Decode(&v); err != nil {
		return string(details)
	}
	if obj, ok := v.(map[string]any); ok {
		for _, k := range []string{"message", "error", "class"} {
			if s, ok := obj[k].(string); ok && s != "" {
				if cls, ok := obj["class"].(string); ok && k != "class" && cls != "" {
					return cls + ": " + s
				}
				return s
			}
		}
	}
	if s, ok := v.(string); ok {
		return s
	}
	return show.Value(v)
}
