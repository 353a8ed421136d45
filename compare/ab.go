package compare

import (
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/show"
)

// Verdicts of an A/B comparison (the rules are in the package doc). The
// per-metric verdicts use only the first three and VerdictNoData.
const (
	VerdictBBetter      = "B is better"
	VerdictBWorse       = "B is worse"
	VerdictNoDifference = "no significant difference"
	VerdictNoData       = "not comparable: no question was evaluated in both runs"
	// VerdictBRegressed: B has regressions under the ci gate (a
	// deterministic check or agent call newly failing, or a judge metric
	// regressing in aggregate) while its mean quality is not significantly
	// lower.
	VerdictBRegressed = "B regressed"
	// VerdictMixed: B's mean quality is significantly higher, yet some
	// questions regressed.
	VerdictMixed = "mixed: B is better on average but regressed"
)

// ABMetric is one metric of one question in both runs. A and B are the
// scores; nil when not calculated or errored (ErrorA, ErrorB tell which),
// never an invented 0. Delta needs both scores.
type ABMetric struct {
	Name   string   `json:"name"`
	A      *float64 `json:"a"`
	B      *float64 `json:"b"`
	ErrorA bool     `json:"error_a"`
	ErrorB bool     `json:"error_b"`
	Delta  *float64 `json:"delta"`
}

// ABCase is one question side by side.
type ABCase struct {
	CaseID   string     `json:"case_id"`
	Name     string     `json:"name"`
	StatusA  string     `json:"status_a"`
	StatusB  string     `json:"status_b"`
	QualityA *float64   `json:"quality_a"`
	QualityB *float64   `json:"quality_b"`
	Delta    *float64   `json:"delta"`
	Metrics  []ABMetric `json:"metrics"`
}

// ABMetricStat is a metric's paired difference B-A over the questions that
// calculated it in both runs.
type ABMetricStat struct {
	Name       string   `json:"name"`
	MeanA      *float64 `json:"mean_a"`
	MeanB      *float64 `json:"mean_b"`
	Difference Stat     `json:"difference"`
	// Drop and Rise are the one-sided paired tests of a drop and of a rise.
	Drop    PairedTest `json:"drop"`
	Rise    PairedTest `json:"rise"`
	Verdict string     `json:"verdict"`
}

// ABComparison compares two runs of the same definition, for example two
// prompts or two models: per question deltas and the bootstrap interval of
// the paired difference of quality (B minus A).
type ABComparison struct {
	A       *models.Run    `json:"-"`
	B       *models.Run    `json:"-"`
	TotalsA Totals         `json:"totals_a"`
	TotalsB Totals         `json:"totals_b"`
	Cases   []ABCase       `json:"cases"`
	Metrics []ABMetricStat `json:"metrics"`
	// Difference is the mean paired quality difference B-A with its
	// interval, over the questions evaluated in both runs; Drop and Rise
	// are its one-sided paired tests, which decide "better" and "worse".
	Difference Stat       `json:"difference"`
	Drop       PairedTest `json:"drop"`
	Rise       PairedTest `json:"rise"`
	// Verdict is one of the Verdict constants; VerdictDetail says why in
	// one sentence (outcome changes, regressions and the interval).
	Verdict       string `json:"verdict"`
	VerdictDetail string `json:"verdict_detail"`
	// Changes counts the outcome changes and the regression findings of B
	// against A (A taken as B's baseline, as `evalrun run` would).
	Changes ABChanges `json:"changes"`
	// Findings are those regression and improvement findings, regressions
	// first (ci gate, tolerance from the options); ByQuestion merges the
	// regressions per question, gating ones first, the others within noise.
	Findings   []Finding          `json:"findings"`
	ByQuestion []QuestionFindings `json:"by_question"`
	// Localized is the ci gate's question and slice tests of B against A
	// (nil when none ran).
	Localized *Localization `json:"localized,omitempty"`
}

// LocalizedText is Localized.Headline ("" without one).
func (ab *ABComparison) LocalizedText() string { return ab.Localized.Headline() }

// ABChanges counts what changed from A to B.
type ABChanges struct {
	NewlyFailing int `json:"newly_failing"` // questions that fail in B and did not fail or error in A
	NewlyErrored int `json:"newly_errored"` // questions that end in an error in B and did not in A
	NewlyPassing int `json:"newly_passing"` // questions that pass in B and failed or errored in A
	Regressions  int `json:"regressions"`   // questions that regress under the ci gate (each once)
	WithinNoise  int `json:"within_noise"`  // questions whose drops or new failures are within the judge's noise
	// Aggregates counts the metrics and slices that regress as a whole
	// (ci gate), and Text says what regressed (Comparison.RegressionText).
	Aggregates int    `json:"aggregate_regressions"`
	Text       string `json:"-"`
}

// AB compares runs a and b question by question. They must evaluate
// the same definition (see SameDefinition; the agents may differ);
// otherwise the error wraps ErrIncompatible. It reads B against A with the
// ci gate whatever opts.Gate says, so that judge noise is told from a
// regression and "no significant difference" is reachable.
func AB(a, b *models.Run, opts Options) (*ABComparison, error) {
	if err := SameDefinition(a, b, nil, nil); err != nil {
		return nil, fmt.Errorf("compare %s with %s: %w", a.ID, b.ID, err)
	}
	opts = opts.withDefaults()
	opts.Gate = GateCI
	ab := &ABComparison{A: a, B: b, TotalsA: TotalsOf(a.Cases, opts), TotalsB: TotalsOf(b.Cases, opts)}
	byID := map[string]*models.CaseResult{}
	for _, c := range b.Cases {
		byID[c.CaseID] = c
	}
	var diffs []float64
	metricDiffs := map[string][]float64{}
	var metricOrder []string
	for _, ca := range a.Cases {
		cb := byID[ca.CaseID]
		if cb == nil {
			continue // SameDefinition guarantees the same ids; be safe anyway
		}
		abc := ABCase{CaseID: ca.CaseID, Name: ca.Name, StatusA: CaseStatus(ca), StatusB: CaseStatus(cb),
			QualityA: ca.Quality(), QualityB: cb.Quality()}
		if abc.QualityA != nil && abc.QualityB != nil &&
			abc.StatusA != models.StatusNotEvaluated && abc.StatusB != models.StatusNotEvaluated {
			abc.Delta = Ptr(*abc.QualityB - *abc.QualityA)
			diffs = append(diffs, *abc.Delta)
		}
		mb := map[string]*models.MetricResult{}
		for _, m := range cb.Metrics {
			mb[m.Name] = m
		}
		for _, m := range ca.Metrics {
			am := ABMetric{Name: m.Name, A: m.Score, ErrorA: m.Errored()}
			if o := mb[m.Name]; o != nil {
				am.B, am.ErrorB = o.Score, o.Errored()
			}
			if _, seen := metricDiffs[m.Name]; !seen {
				metricOrder = append(metricOrder, m.Name)
				metricDiffs[m.Name] = nil
			}
			if am.A != nil && am.B != nil {
				am.Delta = Ptr(*am.B - *am.A)
				metricDiffs[m.Name] = append(metricDiffs[m.Name], *am.Delta)
			}
			abc.Metrics = append(abc.Metrics, am)
		}
		ab.Cases = append(ab.Cases, abc)
	}
	ab.Difference = Bootstrap(diffs, opts.Resamples, opts.Seed, "ab:quality")
	var overall string
	overall, ab.Drop, ab.Rise = pairedVerdict(diffs, opts)
	cmp := Compare(b, a, opts)
	ab.Findings = cmp.Findings
	ab.ByQuestion = cmp.RegressionsByQuestion()
	ab.Localized = cmp.Localized
	ab.Changes = abChanges(ab.Cases, cmp)
	ab.Verdict, ab.VerdictDetail = ABVerdict(overall, ab.Difference, ab.Drop, ab.Rise, ab.Changes)
	statsA, statsB := map[string]MetricStat{}, map[string]MetricStat{}
	for _, s := range MetricStats(a.Cases, opts) {
		statsA[s.Name] = s
	}
	for _, s := range MetricStats(b.Cases, opts) {
		statsB[s.Name] = s
	}
	for _, name := range metricOrder {
		st := Bootstrap(metricDiffs[name], opts.Resamples, opts.Seed, "ab:metric:"+name)
		v, drop, rise := pairedVerdict(metricDiffs[name], opts)
		ab.Metrics = append(ab.Metrics, ABMetricStat{Name: name, MeanA: statsA[name].Mean, MeanB: statsB[name].Mean,
			Difference: st, Drop: drop, Rise: rise, Verdict: v})
	}
	return ab, nil
}

// abChanges counts the outcome changes per question and the regressions.
func abChanges(cases []ABCase, cmp *Comparison) ABChanges {
	var ch ABChanges
	bad := func(s string) bool { return s == models.StatusFailed || s == models.StatusError }
	for _, c := range cases {
		switch {
		case c.StatusB == models.StatusFailed && !bad(c.StatusA):
			ch.NewlyFailing++
		case c.StatusB == models.StatusError && c.StatusA != models.StatusError:
			ch.NewlyErrored++
		case c.StatusB == models.StatusPassed && bad(c.StatusA):
			ch.NewlyPassing++
		}
	}
	ch.Regressions = cmp.GatingCount()
	ch.Aggregates = len(cmp.GatingAggregates())
	ch.Text = cmp.RegressionText()
	for _, q := range cmp.RegressionsByQuestion() {
		if !q.Gating && q.CaseID != "" {
			ch.WithinNoise++
		}
	}
	return ch
}

// pairedVerdict reads paired differences B-A with the ci gate's test in
// both directions: worse when a drop is significant at the options' alpha
// and at least their min effect, better likewise for a rise.
func pairedVerdict(diffs []float64, opts Options) (string, PairedTest, PairedTest) {
	drop := PairedDropTest(diffs)
	neg := make([]float64, len(diffs))
	for i, d := range diffs {
		neg[i] = -d
	}
	rise := PairedDropTest(neg)
	switch {
	case drop.P == nil:
		return VerdictNoData, drop, rise
	case *drop.P < opts.AlphaOrDefault() && -*drop.MeanChange >= opts.MinEffectOrDefault()-ScoreEpsilon:
		return VerdictBWorse, drop, rise
	case *rise.P < opts.AlphaOrDefault() && *drop.MeanChange >= opts.MinEffectOrDefault()-ScoreEpsilon:
		return VerdictBBetter, drop, rise
	}
	return VerdictNoDifference, drop, rise
}

// ABVerdict combines the ci gate's findings with the paired verdict on the
// quality difference: regressions are never hidden behind "no significant
// difference", and drops within noise never count as regressions (see the
// package doc for the rules).
func ABVerdict(overall string, diff Stat, drop, rise PairedTest, ch ABChanges) (verdictText, detail string) {
	regressed := ch.Regressions > 0 || ch.Aggregates > 0
	switch {
	case overall == VerdictNoData:
		verdictText = VerdictNoData
	case regressed && overall == VerdictBBetter:
		verdictText = VerdictMixed
	case regressed && overall == VerdictNoDifference:
		verdictText = VerdictBRegressed
	default:
		verdictText = overall
	}
	var parts []string
	if ch.NewlyFailing > 0 {
		parts = append(parts, show.Count(ch.NewlyFailing, "question newly fails", "questions newly fail"))
	}
	if ch.NewlyErrored > 0 {
		parts = append(parts, show.Count(ch.NewlyErrored, "question newly ends in an error", "questions newly end in an error"))
	}
	if ch.NewlyPassing > 0 {
		parts = append(parts, show.Count(ch.NewlyPassing, "question newly passes", "questions newly pass"))
	}
	switch {
	case regressed && ch.Text != "":
		parts = append(parts, ch.Text)
	case regressed:
		parts = append(parts, show.Count(ch.Regressions, "regression", "regressions"))
	default:
		parts = append(parts, "no regressions")
	}
	if ch.WithinNoise > 0 {
		parts = append(parts, show.Count(ch.WithinNoise, "question drops within noise", "questions drop within noise"))
	}
	q := "no question was evaluated in both runs"
	if diff.CI != nil && drop.P != nil {
		sig := "not significant"
		switch {
		case overall != VerdictNoDifference:
			sig = "significant"
		case verdictText == VerdictBRegressed:
			// The regressions above are the verdict; the average alone
			// is only too small to call, not evidence against them.
			sig = "the average alone does not show it"
		}
		test, direction := drop, "drop"
		if *drop.MeanChange > 0 && rise.P != nil {
			test, direction = rise, "rise"
		}
		q = fmt.Sprintf("quality difference %s, 95%% CI [%.3f, %.3f], %s for a %s, %s on %s", show.Delta(diff.Mean),
			diff.CI.Low, diff.CI.High, fmtP(*test.P), direction, sig, show.Count(diff.N, "question", "questions"))
	}
	return verdictText, strings.Join(parts, ", ") + " (" + q + ")"
}
