package compare

import (
	"fmt"
	"math"
	"sort"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/show"
	"github.com/agentevals-go/agentevals/stats"
)

// Sizes below which the ci gate's localized tests do not run: the suite
// spread needs enough questions to measure the noise, and a slice's exact
// sign-flip test cannot reach the slice family's α with fewer pairs.
const (
	minSpreadPairs = 20
	minSlicePairs  = 5
	// priorDF is the weight, in degrees of freedom, of the suite's pooled
	// within-question variance in each question's own variance (see
	// questionNoise).
	priorDF = 20
)

// Noise sources of a metric's per-question tests.
const (
	NoiseRepeats = "repeats"      // each question's own variance over its repeats
	NoiseSpread  = "suite spread" // the spread of the questions that rose, over the suite
)

// Localization is what the ci gate found below the aggregate: judge-scored
// questions whose own drop is beyond the measured noise, and metadata
// slices whose paired test shows a drop. Both families share the gate's
// α with the aggregate tests (see the package documentation, "Localized
// regressions").
type Localization struct {
	// SliceBy is the metadata key the slices group by.
	SliceBy string `json:"slice_by"`
	// AlphaAggregate, AlphaQuestions and AlphaSlices are the family
	// budgets; 0 for a family that did not run.
	AlphaAggregate float64 `json:"alpha_aggregate"`
	AlphaQuestions float64 `json:"alpha_questions"`
	AlphaSlices    float64 `json:"alpha_slices"`
	// Noise says, per judged metric, how a question's noise was measured.
	Noise []MetricNoise `json:"noise"`
	// Questions are the question and metric pairs that regressed.
	Questions []QuestionDrop `json:"questions"`
	// Slices are every slice test, regressed or not.
	Slices []SliceDrop `json:"slices"`
	// Power says, once per metric, when the gate cannot see a drop of the
	// min effect, the smallest it can see and the repeats that would.
	Power []string `json:"power,omitempty"`
}

// MetricNoise is how the noise of one judged metric's per-question
// differences was measured.
type MetricNoise struct {
	Metric string `json:"metric"`
	Pairs  int    `json:"pairs"`
	// Source is NoiseRepeats or NoiseSpread; "" when not measured, then
	// Why says why.
	Source string `json:"source,omitempty"`
	// SD is the typical standard deviation of one question's paired
	// difference (nil when not measured).
	SD *float64 `json:"sd"`
	// Tail is, without repeats, the sign-flip test of the largest
	// changes, the metric's one question test.
	Tail *TailTest `json:"tail_test,omitempty"`
	Why  string    `json:"why,omitempty"`
}

// QuestionDrop is one judged question whose drop on one metric is beyond
// the noise after Holm's correction over every question and metric.
type QuestionDrop struct {
	CaseID   string  `json:"case_id"`
	CaseName string  `json:"case_name,omitempty"`
	Metric   string  `json:"metric"`
	Change   float64 `json:"change"`
	Z        float64 `json:"z"`
	P        float64 `json:"p"`
	// AdjustedP is Holm's adjusted p-value over the question family.
	AdjustedP float64 `json:"holm_p"`
	Source    string  `json:"noise"`
	// Tail is the tail test that found it, when the question had no
	// repeats (P is then that test's p-value).
	Tail *TailTest `json:"tail_test,omitempty"`
}

// Rule is the finding's one sentence: "refunds-3 · semantic_accuracy:
// −0.410, beyond noise (z = 4.2, Holm-adjusted p = 0.004)"; found by the
// tail test, "refunds-3 · semantic_accuracy: −0.410, a drop larger than
// any rise (sign-flip test of the largest changes: 14 of 20 beyond ±0.265
// dropped, p = 0.004, Holm-adjusted p = 0.004)".
func (q QuestionDrop) Rule() string {
	if q.Tail != nil {
		return fmt.Sprintf("%s · %s: %s, a drop larger than any rise (%s, Holm-adjusted %s)", q.CaseID, q.Metric,
			fmtChange(q.Change), q.Tail.Text(), fmtP(q.AdjustedP))
	}
	return fmt.Sprintf("%s · %s: %s, beyond noise (z = %.1f, Holm-adjusted %s)", q.CaseID, q.Metric,
		fmtChange(q.Change), -q.Z, fmtP(q.AdjustedP))
}

// SliceDrop is the paired test of one metric over one slice's questions.
type SliceDrop struct {
	Key        string  `json:"key"`
	Value      string  `json:"value"`
	Metric     string  `json:"metric"`
	Size       int     `json:"size"`
	MeanChange float64 `json:"mean_change"`
	// RestChange is the mean change of the suite's other questions: the
	// slice is tested against it.
	RestChange float64 `json:"rest_change"`
	P          float64 `json:"p"`
	AdjustedP  float64 `json:"holm_p"`
	Method     string  `json:"method"`
	Regressed  bool    `json:"regressed"`
	// QuestionsRegressed counts the slice's questions that regressed on
	// their own (any metric, any cause).
	QuestionsRegressed int `json:"questions_regressed"`
}

// Name is "KEY=VALUE" (VALUE is untrusted: callers escape it).
func (s SliceDrop) Name() string { return s.Key + "=" + s.Value }

// Rule is the slice finding's sentence: "slice failure_mode=refunds (20
// questions): semantic_accuracy mean change −0.300 against +0.004 for the
// rest of the suite, beyond noise (random-split test against the rest
// (4000 splits) p < 0.001, Holm-adjusted p < 0.001)".
func (s SliceDrop) Rule() string {
	return fmt.Sprintf("slice %s (%s): %s mean change %s against %s for the rest of the suite, beyond noise (%s %s, Holm-adjusted %s)", s.Name(),
		show.Count(s.Size, "question", "questions"), s.Metric, fmtChange(s.MeanChange), fmtChange(s.RestChange), s.Method, fmtP(s.P), fmtP(s.AdjustedP))
}

// pair is one question's scores of one judged metric in both runs.
type pair struct {
	caseID, name, slice string
	diff, baseScore     float64
	cur, base           repeatSide
}

// repeatSide is one run's repeats of a question's metric: the sum of
// squares around their mean, its degrees of freedom and the count.
type repeatSide struct {
	ss    float64
	df, k int
}

// judgedPairs collects, per judged metric in first-seen order, the paired
// scores of the questions both runs calculated without an error.
func judgedPairs(run *models.Run, base map[string]*models.CaseResult, tests map[string]*MetricTest, sliceBy string) ([]string, map[string][]pair) {
	var order []string
	out := map[string][]pair{}
	for _, c := range run.Cases {
		b := base[c.CaseID]
		if b == nil {
			continue
		}
		slice := sliceValue(c, sliceBy)
		var curReps, baseReps map[string][]*float64
		for _, m := range c.Metrics {
			t := tests[m.Name]
			if t == nil || !t.Judged || m.Score == nil || m.Errored() {
				continue
			}
			o := metricOf(b, m.Name)
			if o == nil || o.Score == nil || o.Errored() {
				continue
			}
			if curReps == nil {
				curReps, baseReps = RepeatScores(c), RepeatScores(b)
			}
			if _, ok := out[m.Name]; !ok {
				order = append(order, m.Name)
			}
			out[m.Name] = append(out[m.Name], pair{caseID: c.CaseID, name: c.Name, slice: slice, diff: *m.Score - *o.Score, baseScore: *o.Score,
				cur: sideOf(curReps[m.Name]), base: sideOf(baseReps[m.Name])})
		}
	}
	return order, out
}

func sideOf(scores []*float64) repeatSide {
	ss, df := sumSquares(scores)
	k := 0
	for _, s := range scores {
		if s != nil {
			k++
		}
	}
	return repeatSide{ss: ss, df: df, k: max(k, 1)}
}

// sliceValue is the case's metadata[key] as text (a string, number or
// boolean); "" when absent or of another type.
func sliceValue(c *models.CaseResult, key string) string {
	var meta map[string]any
	if c == nil || c.Metadata.Decode(&meta) != nil {
		return ""
	}
	switch v := meta[key].(type) {
	case string:
		return v
	case float64, bool:
		return fmt.Sprint(v)
	}
	return ""
}

// plan decides which localized families run and shares α: the aggregate
// tests keep all of it when neither runs. The question family gets four
// fifths when it runs: a drop of a few questions moves the mean by less
// than the min effect, so only the question tests can find it, and with
// one verdict per question even the best test of sparse drops needs that
// much α to find nine drops of 0.4 among 200 four times in five. A drop of
// every question or of a whole slice pools many questions and shows at
// far less α: the aggregate and slice tests share the fifth left.
func plan(order []string, pairs map[string][]pair, alpha float64) (agg, questions, slices float64) {
	q, s := false, false
	for _, name := range order {
		ps := pairs[name]
		if len(ps) >= minSpreadPairs || hasRepeats(ps) {
			q = true
		}
		sizes := map[string]int{}
		for _, p := range ps {
			if p.slice != "" {
				sizes[p.slice]++
			}
		}
		testable := 0
		for _, n := range sizes {
			if n >= minSlicePairs && len(ps)-n >= minSlicePairs {
				testable++
			}
		}
		s = s || testable > 0
	}
	switch {
	case q && s:
		return alpha / 10, 4 * alpha / 5, alpha / 10
	case q:
		return alpha / 5, 4 * alpha / 5, 0
	case s:
		return alpha / 2, 0, alpha / 2
	}
	return alpha, 0, 0
}

// questionTests gives each pair of a metric its z (t) statistic and, with
// repeats, its one-sided p-value against the metric's noise, and says how
// the noise was measured.
//
// With repeats, a question's variance is its own within-question variance
// moderated toward the suite's pooled one, (priorDF·s₀² + SS)/(priorDF +
// df) per run, divided by the run's repeats: three repeats alone give two
// degrees of freedom, too few to test 200 questions at a family-wise α,
// while the prior keeps a question that is noisier than most from raising
// alarms.
//
// Without repeats one verdict against one cannot tell a judge's rare
// large error from a drop of that question, so the metric gets one test,
// the distribution-free TailTest (noise.Tail), and pvals is nil. z is then
// the change over the spread of the questions that rose above the median,
// √(2/n·Σ r²), shown and used for the power line: under no change a
// question is as likely to rise as to fall, so the rises measure the noise
// and the drops cannot inflate it (unlike the MAD, it stays above zero for
// coarse judges whose scores mostly repeat exactly).
func questionTests(ps []pair, seed uint64, label string) (zs, pvals []float64, noise MetricNoise) {
	noise.Pairs = len(ps)
	if hasRepeats(ps) {
		var ss float64
		var df int
		for _, p := range ps {
			ss += p.cur.ss + p.base.ss
			df += p.cur.df + p.base.df
		}
		s0 := ss / float64(df)
		if s0 <= 0 {
			noise.Why = "every repeat scored alike, so the repeats measured no noise"
			return nil, nil, noise
		}
		var sumVar float64
		for _, p := range ps {
			v := moderated(p.cur, s0)/float64(p.cur.k) + moderated(p.base, s0)/float64(p.base.k)
			sumVar += v
			z := p.diff / math.Sqrt(v)
			zs = append(zs, z)
			pvals = append(pvals, stats.StudentTCDF(z, float64(priorDF+p.cur.df+p.base.df)))
		}
		noise.Source, noise.SD = NoiseRepeats, Ptr(math.Sqrt(sumVar/float64(len(ps))))
		return zs, pvals, noise
	}
	if len(ps) < minSpreadPairs {
		noise.Why = fmt.Sprintf("%s, fewer than %d to measure the noise without repeats", show.Count(len(ps), "question", "questions"), minSpreadPairs)
		return nil, nil, noise
	}
	sd, rises := riseSpread(ps, func(pair) bool { return true })
	if rises < minSlicePairs*2 || sd <= 0 {
		noise.Why = fmt.Sprintf("only %d questions rose, too few to measure the noise", rises)
		return nil, nil, noise
	}
	// Scores near 0 or 1 are clipped, so their questions vary less and
	// would pull the spread below that of the others: the interior
	// questions' spread is used when it is larger.
	c := 1.5 * sd / math.Sqrt2
	if in, n := riseSpread(ps, func(p pair) bool { return p.baseScore > c && p.baseScore < 1-c }); n >= minSlicePairs*2 && in > sd {
		sd = in
	}
	diffs := make([]float64, len(ps))
	for i, p := range ps {
		diffs[i] = p.diff
		zs = append(zs, p.diff/sd)
	}
	tail := tailSignFlip(diffs, seed, label)
	noise.Source, noise.SD, noise.Tail = NoiseSpread, &sd, &tail
	return zs, nil, noise
}

// sliceTests tests, per slice with enough pairs (a slice holding every
// pair is the aggregate test), whether the slice's questions dropped, and
// dropped more than the rest of the suite's: a drop shared by every
// question is the aggregate test's finding and names no slice. Against
// the rest the statistic is the slice's mean change minus the rest's;
// under "the slice is like the rest" its questions are a random draw from
// the suite, so random splits give an exact p-value whatever the noise.
// On its own it is the paired drop test, random sign flips in the tail.
// The slice's p-value is the larger of the two. A t-test p above twice
// the family's α cannot come near rejection after Holm: the random draws
// are spared.
func sliceTests(key, metric string, ps []pair, seed uint64, alpha float64) []SliceDrop {
	groups := map[string][]float64{}
	all := make([]float64, len(ps))
	for i, p := range ps {
		all[i] = p.diff
		if p.slice != "" {
			groups[p.slice] = append(groups[p.slice], p.diff)
		}
	}
	values := make([]string, 0, len(groups))
	for v, ds := range groups {
		if len(ds) >= minSlicePairs && len(ps)-len(ds) >= minSlicePairs {
			values = append(values, v)
		}
	}
	sort.Strings(values)
	out := make([]SliceDrop, 0, len(values))
	var total float64
	for _, d := range all {
		total += d
	}
	for _, v := range values {
		in := groups[v]
		var sum float64
		for _, d := range in {
			sum += d
		}
		restN := len(all) - len(in)
		meanIn, meanRest := sum/float64(len(in)), (total-sum)/float64(restN)
		// Both must show the drop (an intersection-union test, valid at α
		// as it is): against the rest, so that a drop every question
		// shares names no slice, and on its own, so that a slice is not
		// named because another one improved.
		p, method := welchLowerP(in, all, meanIn, meanRest), "Welch t-test against the rest"
		own := PairedDropTest(in)
		p = math.Max(p, *own.P)
		if p <= 2*alpha {
			splits := sliceFlips(len(values), alpha)
			label := metric + "\x00" + v
			rest := splitP(all, len(in), sum, splits, seed^uint64(len(out)+1), label)
			self := *own.P
			if own.Method == MethodPairedT {
				self = signFlipMC(in, splits, seed^uint64(len(out)+1), label)
			}
			p = math.Max(rest, self)
			method = fmt.Sprintf("random-split test against the rest and sign-flip test of the slice's own drop (%d draws each)", splits)
		}
		out = append(out, SliceDrop{Key: key, Value: v, Metric: metric, Size: len(in), MeanChange: meanIn,
			RestChange: meanRest, P: p, Method: method})
	}
	return out
}

func metricOf(c *models.CaseResult, name string) *models.MetricResult {
	for _, m := range c.Metrics {
		if m.Name == name {
			return m
		}
	}
	return nil
}
