package compare

import (
	"hash/fnv"
	"math/rand/v2"
	"slices"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/stats"
)

// Bootstrap defaults: 1,000 resamples and a fixed seed, so that the same
// rows always give the same interval and reports are reproducible.
const (
	DefaultResamples = 1000
	DefaultSeed      = 20261130
)

// Interval is a bootstrap 95% confidence interval of a mean.
type Interval struct {
	Low  float64 `json:"low"`
	High float64 `json:"high"`
}

// Stat is a mean with its bootstrap interval over N values. Mean and CI are
// nil when N is 0 (nothing was calculated).
type Stat struct {
	N    int       `json:"n"`
	Mean *float64  `json:"mean"`
	CI   *Interval `json:"ci"`
}

// Bootstrap returns the mean of values and the 2.5th and 97.5th percentiles
// of the means of resamples drawn with replacement. The random stream is
// derived from seed and label only, so equal inputs give equal intervals.
func Bootstrap(values []float64, resamples int, seed uint64, label string) Stat {
	st := Stat{N: len(values)}
	if len(values) == 0 {
		return st
	}
	if resamples <= 0 {
		resamples = DefaultResamples
	}
	m := stats.Mean(values)
	st.Mean = &m
	if constant(values) {
		// A resample of n equal values adds n copies of the value in the
		// order mean adds them and divides by n, so every resample mean
		// is m, bit for bit: the interval is [m, m] without the resamples
		// x n draws (5 million per interval at 5,000 cases).
		st.CI = &Interval{Low: m, High: m}
		return st
	}
	h := fnv.New64a()
	h.Write([]byte(label))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	means := make([]float64, resamples)
	for i := range means {
		var sum float64
		for range values {
			sum += values[rng.IntN(len(values))]
		}
		means[i] = sum / float64(len(values))
	}
	slices.Sort(means)
	lo := means[int(0.025*float64(resamples))]
	hi := means[min(int(0.975*float64(resamples)), resamples-1)]
	st.CI = &Interval{Low: lo, High: hi}
	return st
}

// constant reports whether every value equals the first (NaN equals
// nothing, and +0 and -0 add up alike).
func constant(values []float64) bool {
	for _, v := range values {
		if v != values[0] {
			return false
		}
	}
	return true
}

// CaseStatus returns the case's persisted status when it is one of the four
// known statuses, and otherwise derives it from the rows (docs/architecture.md, Semantics); see
// models.CaseResult.EffectiveStatus.
func CaseStatus(c *models.CaseResult) string { return c.EffectiveStatus() }

// Totals are the counts and rates of a set of cases, computed from rows by
// models.TotalsOf, with a confidence interval around the quality.
type Totals struct {
	Cases        int `json:"cases"`
	Passed       int `json:"passed"`
	Failed       int `json:"failed"`
	Errored      int `json:"errored"`
	NotEvaluated int `json:"not_evaluated"`
	// Evaluated counts every case that is not "not_evaluated".
	Evaluated int `json:"evaluated"`
	// Quality is the mean case quality of evaluated cases with its interval.
	Quality Stat `json:"quality"`
	// PassRate is Passed/Evaluated; nil when nothing was evaluated.
	PassRate *float64 `json:"pass_rate"`
	// Token and cost totals of agent usage; nil when no case reported any.
	InputTokens  *int64   `json:"input_tokens"`
	OutputTokens *int64   `json:"output_tokens"`
	Cost         *float64 `json:"cost"`
}

// TotalsOf computes the totals of cases (models.TotalsOf); opts supply the
// bootstrap settings of the quality interval.
func TotalsOf(cases []*models.CaseResult, opts Options) Totals {
	opts = opts.withDefaults()
	m := models.TotalsOf(cases)
	t := Totals{Cases: m.Cases, Passed: m.Passed, Failed: m.Failed, Errored: m.Errored,
		NotEvaluated: m.NotEvaluated, Evaluated: m.Evaluated, PassRate: m.PassRate,
		InputTokens: m.InputTokens, OutputTokens: m.OutputTokens}
	if m.Cost != nil {
		c := m.Cost.Float64() // for display; the rows keep the exact decimals
		t.Cost = &c
	}
	t.Quality = Bootstrap(m.Qualities, opts.Resamples, opts.Seed, "quality")
	return t
}

// MetricStat is the mean of one metric over the cases that calculated it.
type MetricStat struct {
	Name string `json:"name"`
	Stat
	Passed  int `json:"passed"`
	Failed  int `json:"failed"`
	Errored int `json:"errored"`
	// NotCalculated counts rows of this metric without a score or error.
	NotCalculated int `json:"not_calculated"`
}

// MetricStats returns per-metric statistics in first-seen order.
func MetricStats(cases []*models.CaseResult, opts Options) []MetricStat {
	opts = opts.withDefaults()
	var order []string
	vals := map[string][]float64{}
	stats := map[string]*MetricStat{}
	for _, c := range cases {
		for _, m := range c.Metrics {
			st, ok := stats[m.Name]
			if !ok {
				st = &MetricStat{Name: m.Name}
				stats[m.Name] = st
				order = append(order, m.Name)
			}
			v, calculated := m.Value()
			switch {
			case !calculated:
				st.NotCalculated++
				continue
			case m.Errored():
				st.Errored++
			case m.Passed:
				st.Passed++
			default:
				st.Failed++
			}
			vals[m.Name] = append(vals[m.Name], v)
		}
	}
	out := make([]MetricStat, 0, len(order))
	for _, name := range order {
		st := stats[name]
		st.Stat = Bootstrap(vals[name], opts.Resamples, opts.Seed, "metric:"+name)
		out = append(out, *st)
	}
	return out
}
