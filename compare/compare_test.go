package compare

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
)

func findKinds(c *Comparison) map[Kind]int {
	out := map[Kind]int{}
	for _, f := range c.Findings {
		out[f.Kind]++
	}
	return out
}

func TestCompare_WorkedExample(t *testing.T) {
	previous, later := runfixture.WorkedExample()
	for _, run := range []*Comparison{Compare(previous, nil, Options{}), Compare(later, nil, Options{})} {
		if got, want := run.Totals.Passed, 1; got != want {
			t.Fatalf("passed = %d, want %d: both runs pass the 0.9 minimum", got, want)
		}
		if run.Regressed() || len(run.Findings) != 0 {
			t.Fatalf("a run without baseline has findings: %+v", run.Findings)
		}
	}
	cmp := Compare(later, previous, Options{Tolerance: 0.02})
	if !cmp.Regressed() {
		t.Fatal("0.98 -> 0.92 with tolerance 0.02 did not regress")
	}
	if cmp.ChecksFailed() {
		t.Fatal("the later run passes its minimum; checks must not fail")
	}
	regs := cmp.Regressions()
	if len(regs) != 1 || regs[0].Kind != ScoreDrop || regs[0].Metric != "semantic_accuracy" {
		t.Fatalf("regressions = %+v, want one semantic_accuracy score drop", regs)
	}
	if got, want := *regs[0].Before-*regs[0].After, 0.06; got < want-1e-9 || got > want+1e-9 {
		t.Fatalf("drop = %v, want %v", got, want)
	}
	// A tolerance of exactly the drop (or more) hides the score drop.
	for _, tol := range []float64{0.06, 0.1} {
		if c := Compare(later, previous, Options{Tolerance: tol}); c.Regressed() {
			t.Fatalf("tolerance %v: regressed with %+v", tol, c.Findings)
		}
	}
	// The reverse direction is an improvement, not a regression.
	back := Compare(previous, later, Options{Tolerance: 0.02})
	if back.Regressed() || findKinds(back)[Improvement] != 1 {
		t.Fatalf("0.92 -> 0.98: findings %+v, want one improvement", back.Findings)
	}
}

func TestCompare_NewErrorsAndFailuresIgnoreTolerance(t *testing.T) {
	base := runfixture.Build("01900000-0000-7000-8000-000000000010", 1, runfixture.T0,
		runfixture.Case{ID: "a", Output: "x", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 0.5, runfixture.Score(1))}},
		runfixture.Case{ID: "b", Output: "x", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 0.5, runfixture.Score(0.6))}},
		runfixture.Case{ID: "c", Output: "x", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 0.5, runfixture.Score(1))}},
	)
	now := runfixture.Build("01900000-0000-7000-8000-000000000011", 2, runfixture.T0.Add(time.Minute),
		runfixture.Case{ID: "a", AgentErr: "boom", Metrics: []runfixture.Metric{{Name: "exact", Threshold: 0.5}}},
		runfixture.Case{ID: "b", Output: "x", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 0.5, runfixture.Score(0.4))}},
		runfixture.Case{ID: "c", Output: "x", Metrics: []runfixture.Metric{{Name: "exact", Threshold: 0.5, Err: "judge reply was not JSON"}}},
	)
	for _, gate := range []string{GateStrict, GateCI} {
		for _, tol := range []float64{0, 0.5, 1} {
			cmp := Compare(now, base, Options{Tolerance: tol, Gate: gate})
			k := findKinds(cmp)
			if k[NewAgentError] != 1 || k[NewMetricError] != 1 || k[NewFailure] != 1 {
				t.Fatalf("gate %s tolerance %v: findings %+v", gate, tol, cmp.Findings)
			}
			if !cmp.Regressed() {
				t.Fatalf("gate %s tolerance %v: new errors and failures did not gate", gate, tol)
			}
		}
	}
	if cmp := Compare(now, base, Options{Tolerance: 1}); findKinds(cmp)[ScoreDrop] != 0 {
		t.Fatalf("tolerance 1 still reports score drops: %+v", cmp.Findings)
	}
}

func TestCompare_GateCI(t *testing.T) {
	var baseCases, smallDrop, bigDrop []runfixture.Case
	for i := range 30 {
		id := string(rune('a'+i%26)) + string(rune('0'+i/26))
		s := 0.95
		if i%2 == 0 {
			s = 0.97
		}
		baseCases = append(baseCases, runfixture.Case{ID: id, Metrics: []runfixture.Metric{runfixture.NewMetric("judge", 0.5, runfixture.Score(s))}})
		small := s
		if i == 0 {
			small = s - 0.1 // one noisy question
		}
		smallDrop = append(smallDrop, runfixture.Case{ID: id, Metrics: []runfixture.Metric{runfixture.NewMetric("judge", 0.5, runfixture.Score(small))}})
		bigDrop = append(bigDrop, runfixture.Case{ID: id, Metrics: []runfixture.Metric{runfixture.NewMetric("judge", 0.5, runfixture.Score(s-0.15))}})
	}
	base := runfixture.Build("01900000-0000-7000-8000-000000000020", 1, runfixture.T0, baseCases...)
	noisy := runfixture.Build("01900000-0000-7000-8000-000000000021", 2, runfixture.T0.Add(time.Minute), smallDrop...)
	worse := runfixture.Build("01900000-0000-7000-8000-000000000022", 3, runfixture.T0.Add(2*time.Minute), bigDrop...)

	strict := Compare(noisy, base, Options{Tolerance: 0.02, Gate: GateStrict})
	if !strict.Regressed() {
		t.Fatal("strict gate: a 0.1 drop on one question must gate")
	}
	ci := Compare(noisy, base, Options{Tolerance: 0.02, Gate: GateCI})
	if ci.Regressed() {
		t.Fatalf("ci gate: one noisy question gated: %+v", ci.Findings)
	}
	if findKinds(ci)[ScoreDrop] != 1 {
		t.Fatalf("ci gate must still report the per-question drop: %+v", ci.Findings)
	}
	ciWorse := Compare(worse, base, Options{Tolerance: 0.02, Gate: GateCI})
	if !ciWorse.Regressed() || findKinds(ciWorse)[MetricDrop] == 0 {
		t.Fatalf("ci gate: a drop of the whole interval did not gate: %+v", ciWorse.Findings)
	}
	if m := ciWorse.Metrics[0]; !m.BelowBaseline || m.CI.High >= *m.BaselineMean {
		t.Fatalf("metric %+v: interval not below the baseline mean", m)
	}
}

func TestSummarize_NullsAreNotZero(t *testing.T) {
	run := runfixture.Build("01900000-0000-7000-8000-000000000030", 1, runfixture.T0,
		runfixture.Case{ID: "judged", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 0.5, runfixture.Score(1)), {Name: "semantic_accuracy", Threshold: 0.9}}},
		runfixture.Case{ID: "skipped", Metrics: []runfixture.Metric{{Name: "semantic_accuracy", Threshold: 0.9}}},
		runfixture.Case{ID: "errored", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 0.5, runfixture.Score(1)), {Name: "judge", Threshold: 0.5, Err: "bad reply"}}},
	)
	tot := TotalsOf(run.Cases, Options{})
	if got, want := [4]int{tot.Passed, tot.Failed, tot.Errored, tot.NotEvaluated}, [4]int{1, 0, 1, 1}; got != want {
		t.Fatalf("passed/failed/errored/not evaluated = %v, want %v", got, want)
	}
	// judged: 1.0 (the null metric is not a 0); errored: (1+0)/2.
	if got, want := *tot.Quality.Mean, 0.75; got != want {
		t.Fatalf("quality = %v, want %v", got, want)
	}
	if got, want := *tot.PassRate, 0.5; got != want {
		t.Fatalf("pass rate = %v, want %v", got, want)
	}
	stats := MetricStats(run.Cases, Options{})
	for _, s := range stats {
		if s.Name == "semantic_accuracy" && (s.Mean != nil || s.CI != nil || s.NotCalculated != 2) {
			t.Fatalf("semantic_accuracy = %+v, want no mean and 2 not calculated", s)
		}
	}
	none := TotalsOf(run.Cases[1:2], Options{})
	if none.Quality.Mean != nil || none.PassRate != nil || none.Evaluated != 0 {
		t.Fatalf("nothing evaluated: totals %+v, want null quality and pass rate", none)
	}
}

func TestBootstrap_Reproducible(t *testing.T) {
	vals := []float64{0.2, 0.9, 0.4, 1, 0.7, 0.65, 0.3}
	a := Bootstrap(vals, 1000, DefaultSeed, "x")
	b := Bootstrap(vals, 1000, DefaultSeed, "x")
	if *a.CI != *b.CI {
		t.Fatalf("same input, different intervals: %v %v", *a.CI, *b.CI)
	}
	if !(a.CI.Low <= *a.Mean && *a.Mean <= a.CI.High) || a.CI.Low >= a.CI.High {
		t.Fatalf("interval %v does not bracket the mean %v", *a.CI, *a.Mean)
	}
	if c := Bootstrap(vals, 1000, DefaultSeed+1, "x"); *c.CI == *a.CI {
		t.Fatalf("another seed gave the very same interval %v", *c.CI)
	}
	if e := Bootstrap(nil, 1000, DefaultSeed, "x"); e.Mean != nil || e.CI != nil {
		t.Fatalf("empty input: %+v, want no mean", e)
	}
	if one := Bootstrap([]float64{0.4}, 1000, DefaultSeed, "x"); one.CI.Low != 0.4 || one.CI.High != 0.4 {
		t.Fatalf("single value interval = %v", *one.CI)
	}
}

// TestBootstrap_EqualValues: an interval of equal values is the one the
// resamples give, bit for bit (the mean of n copies of 0.1 is not 0.1).
func TestBootstrap_EqualValues(t *testing.T) {
	resampled := func(values []float64, resamples int, seed uint64, label string) Interval {
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
		return Interval{Low: means[int(0.025*float64(resamples))], High: means[min(int(0.975*float64(resamples)), resamples-1)]}
	}
	for _, tc := range []struct {
		v float64
		n int
	}{{0.1, 7}, {0.7, 5000}, {1, 3}, {0, 10}, {math.Copysign(0, -1), 4}, {1.0 / 3, 999}} {
		vals := make([]float64, tc.n)
		for i := range vals {
			vals[i] = tc.v
		}
		got := Bootstrap(vals, 1000, DefaultSeed, "x")
		want := resampled(vals, 1000, DefaultSeed, "x")
		if math.Float64bits(got.CI.Low) != math.Float64bits(want.Low) || math.Float64bits(got.CI.High) != math.Float64bits(want.High) ||
			math.Float64bits(*got.Mean) != math.Float64bits(want.Low) {
			t.Errorf("%d x %v: mean %v, interval %v, want %v from the resamples", tc.n, tc.v, *got.Mean, *got.CI, want)
		}
	}
	mixed := []float64{0.2, 0.9, 0.4, 1, 0.7, 0.65, 0.3}
	if got, want := Bootstrap(mixed, 1000, DefaultSeed, "x"), resampled(mixed, 1000, DefaultSeed, "x"); *got.CI != want {
		t.Errorf("mixed values: interval %v, want %v", *got.CI, want)
	}
}

func TestCompare_Slices(t *testing.T) {
	ref, bad := runfixture.SupportRuns()
	cmp := Compare(bad, ref, Options{})
	got := map[string]Slice{}
	for _, s := range cmp.Slices {
		got[s.Key+"="+s.Value] = s
	}
	pl, ok := got["failure_mode=policy_lookup"]
	if !ok || pl.Cases != 2 || pl.Failed != 1 || pl.Regressions == 0 || pl.Baseline == nil || pl.Baseline.Passed != 2 {
		t.Fatalf("policy_lookup slice = %+v", pl)
	}
	if s, ok := got["tag=hours"]; !ok || s.Cases != 1 || s.Regressions != 0 {
		t.Fatalf("tag=hours slice = %+v", s)
	}
	if cmp.Slices[0].Key != SliceFailureMode {
		t.Fatalf("failure modes must come first: %+v", cmp.Slices[0])
	}
}
