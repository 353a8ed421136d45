package compare

import (
	"fmt"
	"math"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/show"
)

// Defaults of the ci gate's statistics.
const (
	// DefaultAlpha is the significance level of the ci gate's tests.
	DefaultAlpha = 0.05
	// DefaultMinEffect is the smallest mean drop of a metric the ci gate
	// calls a regression, however significant.
	DefaultMinEffect = 0.02
	// MaxJudgeErrorShare is the share of a judge metric's calculated rows
	// that may end in an error before the ci gate calls the metric not
	// measurable: with more, the scores left over no longer stand for the
	// run.
	MaxJudgeErrorShare = 0.10
)

// Verdicts of a MetricTest.
const (
	TestRegressed      = "regressed"
	TestWithinNoise    = "within noise"
	TestBelowMinEffect = "below min effect"
	TestNoDrop         = "no drop"
	TestNotMeasurable  = "not measurable"
	TestNoPairs        = "no pairs"
)

// MetricTest is the statistical evidence on one metric against the
// baseline: the paired test of the score differences, for judge metrics
// the McNemar test of pass/fail flips and the judge's error count, and the
// verdict. It is computed under both gates; only the ci gate acts on it.
type MetricTest struct {
	// Judged is true for a judge-backed (noisy) metric.
	Judged bool       `json:"judged"`
	Drop   PairedTest `json:"drop"`
	// Flips is the pass/fail McNemar test (judge metrics only).
	Flips *FlipTest `json:"flips,omitempty"`
	// Rows and Errors count the run's calculated rows of the metric and
	// those that ended in an error.
	Rows   int `json:"rows"`
	Errors int `json:"errors"`
	// BaselineRows and BaselineErrors count the same in the baseline, over
	// the questions both runs have.
	BaselineRows   int    `json:"baseline_rows"`
	BaselineErrors int    `json:"baseline_errors"`
	Verdict        string `json:"verdict"`
	// ByFlips is true when the flip test, not the score test, regressed.
	ByFlips bool `json:"by_flips,omitempty"`
	// baselineMeasured: some baseline row of the metric had a score.
	baselineMeasured bool
	// Note says why the metric gates or does not, e.g. "within noise: p =
	// 0.41, mean change -0.006".
	Note string `json:"note"`
}

// JudgedMetrics names the judge-backed metrics of the two runs: opts.Judged
// when given; else the built-in evaluator types the score registry marks
// NeedsJudge, plus every metric a run's evidence shows a judge was asked
// about (response_metadata.judge_usage), which covers suite-declared
// evaluators of a judge type.
func JudgedMetrics(run, baseline *models.Run, opts Options) func(string) bool {
	if opts.Judged != nil {
		return opts.Judged
	}
	set := map[string]bool{}
	for name, def := range score.Builtins() {
		if def.NeedsJudge {
			set[name] = true
		}
	}
	for _, r := range []*models.Run{run, baseline} {
		if r == nil {
			continue
		}
		for _, c := range r.Cases {
			facts, err := models.FactsOf(c) // a traced case's spans are not decoded again
			if err != nil {
				continue
			}
			for name := range facts.JudgeUsage {
				set[name] = true
			}
		}
	}
	return func(name string) bool { return set[name] }
}

// metricTests computes the MetricTest of every metric of run against the
// baseline cases (by case id).
func metricTests(run *models.Run, base map[string]*models.CaseResult, judged func(string) bool, opts Options) map[string]*MetricTest {
	type acc struct {
		diffs              []float64
		p2f, f2p           int
		rows, errs         int
		baseRows, baseErrs int
		baselineMeasured   bool
	}
	accs := map[string]*acc{}
	var order []string
	for _, c := range run.Cases {
		b := base[c.CaseID]
		if b == nil {
			continue
		}
		bm := map[string]*models.MetricResult{}
		for _, m := range b.Metrics {
			bm[m.Name] = m
		}
		for _, m := range c.Metrics {
			a := accs[m.Name]
			if a == nil {
				a = &acc{}
				accs[m.Name] = a
				order = append(order, m.Name)
			}
			if m.Calculated() {
				a.rows++
			}
			if m.Errored() {
				a.errs++
			}
			o := bm[m.Name]
			if o == nil {
				continue
			}
			if o.Score != nil && !o.Errored() {
				a.baselineMeasured = true
			}
			if o.Calculated() {
				a.baseRows++
			}
			if o.Errored() {
				a.baseErrs++
			}
			if m.Score == nil || m.Errored() || o.Score == nil || o.Errored() {
				continue
			}
			a.diffs = append(a.diffs, *m.Score-*o.Score)
			switch {
			case o.Passed && !m.Passed:
				a.p2f++
			case !o.Passed && m.Passed:
				a.f2p++
			}
		}
	}
	out := make(map[string]*MetricTest, len(order))
	for _, name := range order {
		a := accs[name]
		t := &MetricTest{Judged: judged(name), Drop: PairedDropTest(a.diffs), Rows: a.rows, Errors: a.errs,
			BaselineRows: a.baseRows, BaselineErrors: a.baseErrs}
		if t.Judged {
			f := McNemar(a.p2f, a.f2p)
			t.Flips = &f
		}
		t.baselineMeasured = a.baselineMeasured
		t.Verdict, t.Note = t.decide(opts, a.baselineMeasured)
		out[name] = t
	}
	return out
}

// decide sets the verdict and its note from the tests (the rules are in
// the package documentation, "The ci gate").
func (t *MetricTest) decide(opts Options, baselineMeasured bool) (string, string) {
	if t.Judged && t.Rows > 0 && float64(t.Errors) > MaxJudgeErrorShare*float64(t.Rows) {
		return TestNotMeasurable, fmt.Sprintf("not measurable: %d of %d judge verdicts ended in an error (%.0f%%, more than %.0f%%); the gate cannot rule out a drop",
			t.Errors, t.Rows, 100*float64(t.Errors)/float64(t.Rows), 100*MaxJudgeErrorShare)
	}
	if t.Judged && t.BaselineRows > 0 && float64(t.BaselineErrors) > MaxJudgeErrorShare*float64(t.BaselineRows) {
		return TestNotMeasurable, fmt.Sprintf("not measurable: in the baseline %d of %d judge verdicts ended in an error (%.0f%%, more than %.0f%%); compare with a run whose judge answered",
			t.BaselineErrors, t.BaselineRows, 100*float64(t.BaselineErrors)/float64(t.BaselineRows), 100*MaxJudgeErrorShare)
	}
	if t.Drop.N == 0 {
		if t.Judged && baselineMeasured {
			return TestNotMeasurable, "not measurable: no question has a score in both runs"
		}
		return TestNoPairs, "no question has a score in both runs"
	}
	change, p := *t.Drop.MeanChange, *t.Drop.P
	stats := fmt.Sprintf("%s, mean change %s over %s", fmtP(p), fmtChange(change), show.Count(t.Drop.N, "question", "questions"))
	// A judge metric faces two tests (scores and flips): each gets half of
	// alpha (Bonferroni), so an unchanged metric raises a false alarm at
	// most alpha of the time.
	alpha, minEffect := opts.AlphaOrDefault(), opts.MinEffectOrDefault()
	if t.Flips != nil {
		alpha /= 2
	}
	if t.Flips != nil && t.Flips.P != nil && *t.Flips.P < alpha {
		t.ByFlips = true
		return TestRegressed, fmt.Sprintf("regressed: %d pass→fail against %d fail→pass, exact McNemar %s (α %g per test); %s",
			t.Flips.PassToFail, t.Flips.FailToPass, fmtP(*t.Flips.P), alpha, stats)
	}
	switch {
	case p < alpha && -change >= minEffect-ScoreEpsilon:
		return TestRegressed, fmt.Sprintf("regressed: %s (%s, α %g per test, min effect %g)", stats, t.Drop.Method, alpha, minEffect)
	case p < alpha && change < 0:
		return TestBelowMinEffect, fmt.Sprintf("below min effect: %s, a drop smaller than the min effect %g", stats, minEffect)
	case change >= 0:
		return TestNoDrop, "no drop: " + stats
	}
	if !t.Judged {
		return TestWithinNoise, "not significant: " + stats
	}
	return TestWithinNoise, "within noise: " + stats
}

// fmtP writes a p-value with two significant digits ("p = 0.41", "p =
// 0.003"), or "p < 0.001".
func fmtP(p float64) string {
	if p < 0.001 {
		return "p < 0.001"
	}
	return fmt.Sprintf("p = %.2g", p)
}

// fmtChange writes a signed mean change with three decimals and a true
// minus sign ("−0.006", "+0.012").
func fmtChange(v float64) string {
	if math.Abs(v) < 0.0005 {
		v = 0
	}
	if v < 0 {
		return fmt.Sprintf("−%.3f", -v)
	}
	return fmt.Sprintf("+%.3f", v)
}

// ciMetricFindings turns the metric tests into the ci gate's metric-level
// findings: MetricDrop or MetricFlips for a regressed metric, NotMeasurable
// for a judge metric the run could not measure. All of them gate.
func ciMetricFindings(names []string, tests map[string]*MetricTest) []Finding {
	var out []Finding
	for _, name := range names {
		t := tests[name]
		if t == nil {
			continue
		}
		switch t.Verdict {
		case TestRegressed:
			kind := MetricDrop
			if t.ByFlips {
				kind = MetricFlips
			}
			out = append(out, Finding{Kind: kind, Metric: name, After: t.Drop.MeanChange, Gating: true,
				Message: name + " " + t.Note})
		case TestNotMeasurable:
			out = append(out, Finding{Kind: NotMeasurable, Metric: name, Gating: true, Message: name + " " + t.Note})
		}
	}
	return out
}

// judgedAggregateWhy leads the reason of a judge metric's finding that
// does not gate one by one.
const judgedAggregateWhy = "not gating: judge metrics gate in aggregate"

// ciWhy decides whether a per-question finding gates under the ci gate and
// says why in a few words.
//
// Flakiness softens only judge-scored findings: a deterministic, action,
// trajectory or trace check that newly fails, and a new agent error, gate
// whatever the question's history.
func ciWhy(f Finding, tests map[string]*MetricTest, flaky *Flakiness) (bool, string) {
	t := tests[f.Metric]
	switch {
	case f.Kind == NewAgentError:
		return true, "gates: a new agent error regresses by itself"
	case t != nil && t.Judged && flaky != nil:
		return false, "not gating: flaky judged question at this revision (" + flaky.Text() + "); it still counts in the metric tests"
	case t != nil && t.Judged:
		return false, judgedAggregateWhy + "; " + f.Metric + " " + t.Note
	case f.Kind == ScoreDrop:
		note := ""
		if t != nil {
			note = "; " + f.Metric + " " + t.Note
		}
		return false, "not gating: per-question score drops gate in aggregate under the ci gate" + note
	case f.Kind == NewFailure:
		return true, "gates: a deterministic check that newly fails regresses by itself"
	case f.Kind == NewMetricError:
		return true, "gates: a deterministic check that newly errors regresses by itself"
	}
	return f.Kind.Regression(), ""
}
