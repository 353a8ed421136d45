package models

import "time"

// SummaryOf computes the summary of a finished run from its rows: the case
// totals as TotalsOf computes them for every reader, the judge usage
// summed over the cases' accounts, each metric's counts and mean, the wall
// time and the concurrency. The runner adds RepeatSummaryOf for a run
// answered K > 1 times and the infrastructure failure it observed.
func SummaryOf(run *Run, concurrency int, wall time.Duration) RunSummary {
	t := TotalsOf(run.Cases)
	var judge CallAccount
	type metricAgg struct {
		sum                               float64
		count, passed, errors, notCounted int
	}
	metrics := map[string]*metricAgg{}
	for _, c := range run.Cases {
		if meta, err := FactsOf(c); err == nil {
			for _, name := range meta.JudgeUsage.Names() {
				judge = judge.Add(meta.JudgeUsage[name])
			}
		}
		for _, m := range c.Metrics {
			agg, ok := metrics[m.Name]
			if !ok {
				agg = &metricAgg{}
				metrics[m.Name] = agg
			}
			switch {
			case !m.Calculated():
				agg.notCounted++
			case m.Errored():
				agg.count++
				agg.errors++
			default:
				agg.count++
				agg.sum += *m.Score
				if m.Passed {
					agg.passed++
				}
			}
		}
	}
	perMetric := make(map[string]MetricSummary, len(metrics))
	for name, a := range metrics {
		perMetric[name] = MetricSummary{Count: a.count, Errors: a.errors, Mean: ratio(a.sum, a.count),
			NotCalculated: a.notCounted, Passed: a.passed}
	}
	s := RunSummary{
		Cases: &t.Cases, Passed: &t.Passed, Failed: &t.Failed, Errors: &t.Errored, NotEvaluated: &t.NotEvaluated,
		Quality: t.Quality, PassRate: t.PassRate, InputTokens: t.InputTokens, OutputTokens: t.OutputTokens, Cost: t.Cost,
		Metrics: perMetric, DurationMS: float64(wall.Microseconds()) / 1000, Concurrency: concurrency, Writer: GoWriter,
	}
	if !judge.Empty() {
		s.JudgeUsage = &judge
	}
	return s
}

// RepeatSummaryOf is the summary's repeat keys for a run made with k
// repeats: K and the pass_at_k and pass_hat_k rates over the cases where
// both are known (nil when none is). Merging shards uses it to recompute
// them over the whole run.
func RepeatSummaryOf(run *Run, k int) *RepeatSummary {
	var at, hat, n int
	for _, c := range run.Cases {
		meta, err := FactsOf(c)
		if err != nil || meta.CaseRepeats == nil || meta.PassAtK == nil || meta.PassHatK == nil {
			continue
		}
		n++
		if *meta.PassAtK {
			at++
		}
		if *meta.PassHatK {
			hat++
		}
	}
	return &RepeatSummary{Repeats: k, PassAtK: ratio(float64(at), n), PassHatK: ratio(float64(hat), n)}
}

// ratio is sum/n, or nil when n is 0.
func ratio(sum float64, n int) *float64 {
	if n == 0 {
		return nil
	}
	r := sum / float64(n)
	return &r
}
