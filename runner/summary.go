package runner

import (
	"encoding/json"
	"sort"
	"time"

	"agentevals/models"
	"agentevals/suite"
)

// SummaryOf computes the run summary written to the runs' summary column;
// the case totals come from models.TotalsOf, like every reader's.
// Keys (numbers are JSON numbers; "null" means not available):
//
//	writer         Writer: which implementation wrote the run
//	cases          number of cases
//	passed         cases with status passed
//	failed         cases with status failed
//	errors         cases with status error (agent error or an errored metric)
//	not_evaluated  cases where no metric was calculated
//	quality        mean case quality over evaluated cases (not not_evaluated);
//	               null when none was evaluated
//	pass_rate      passed / evaluated cases; null when none was evaluated
//	input_tokens   sum of the agent's reported input tokens; null when no case reported any
//	output_tokens  same for output tokens
//	cost           sum of the agent's reported cost in USD; null when none reported
//	               (agent usage only: judge usage is never counted here)
//	judge_usage    the one account of judge usage, never counted in the agent
//	               totals above: {calls, errors, attempts, cached,
//	               input_tokens, output_tokens, cost} summed over the
//	               per-metric accounts in each case's
//	               response_metadata.judge_usage (models.CallAccount). calls
//	               are verdicts asked of the model, failed ones included with
//	               the usage the provider reported; errors are the calls
//	               that ended without a verdict; attempts include retries;
//	               cached are verdicts served from --judge-cache, which are
//	               not calls and add no tokens and cost 0 (nothing was spent
//	               on them in this run). cost is null when the price of any
//	               counted call is unknown (custom endpoint, unlisted
//	               model), never 0 for unknown. null when no judge was used.
//	               (evalrun adds judge {provider, model} and judge_cache
//	               {hits, misses}; the numbers are here only.)
//	metrics        {name: {mean, count, passed, errors, not_calculated}}: mean is
//	               the mean calculated score (errors count 0), null when count is 0
//	duration_ms    wall time of the execution
//	concurrency    cases run at once
//	repeats        K, only when every question was answered K > 1 times
//	               (absent means 1); see runner/repeat.go for the rows
//	pass_at_k      with repeats: the share of cases where some repeat
//	               passed, over the cases with an evaluated repeat
//	pass_hat_k     with repeats: the share where every repeat passed
//	infrastructure_failure
//	               only when every agent call, or every judge call, failed
//	               from infrastructure: {"agent"|"judge": "what (n of n
//	               calls)"} (runner/infra.go); such a run is never an
//	               automatic baseline
//
// ExecOptions.ExtraSummary may add keys (e.g. judge cache statistics) but
// never replaces writer.
func SummaryOf(run *models.Run, concurrency int, wall time.Duration) map[string]any {
	t := models.TotalsOf(run.Cases)
	var judge models.CallAccount
	type metricAgg struct {
		sum                               float64
		count, passed, errors, notCounted int
	}
	metrics := map[string]*metricAgg{}
	var order []string
	for _, c := range run.Cases {
		for _, u := range judgeUsage(c) {
			judge = judge.Add(u)
		}
		for _, m := range c.Metrics {
			agg, ok := metrics[m.Name]
			if !ok {
				agg = &metricAgg{}
				metrics[m.Name] = agg
				order = append(order, m.Name)
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
	perMetric := map[string]any{}
	for _, name := range order {
		a := metrics[name]
		perMetric[name] = map[string]any{
			"mean": ratio(a.sum, a.count), "count": a.count, "passed": a.passed,
			"errors": a.errors, "not_calculated": a.notCounted,
		}
	}
	var judgeTotal any
	if !judge.Empty() {
		judgeTotal = judge
	}
	return map[string]any{
		"writer":        suite.GoWriter,
		"cases":         t.Cases,
		"passed":        t.Passed,
		"failed":        t.Failed,
		"errors":        t.Errored,
		"not_evaluated": t.NotEvaluated,
		"quality":       orNull(t.Quality),
		"pass_rate":     orNull(t.PassRate),
		"input_tokens":  orNull(t.InputTokens),
		"output_tokens": orNull(t.OutputTokens),
		"cost":          orNull(t.Cost),
		"judge_usage":   judgeTotal,
		"metrics":       perMetric,
		"duration_ms":   float64(wall.Microseconds()) / 1000,
		"concurrency":   concurrency,
	}
}

func ratio(sum float64, n int) any {
	if n == 0 {
		return nil
	}
	return sum / float64(n)
}

// orNull is *v, or nil (JSON null) for a nil pointer.
func orNull[T any](v *T) any {
	if v == nil {
		return nil
	}
	return *v
}

// judgeUsage reads the per-metric accounts in response_metadata.judge_usage
// of a case, in metric-name order.
func judgeUsage(c *models.CaseResult) []models.CallAccount {
	byName := judgeUsageByMetric(c)
	names := make([]string, 0, len(byName))
	for name := range byName {
		names = append(names, name)
	}
	sort.Strings(names) // a fixed order keeps the cost sum reproducible
	out := make([]models.CallAccount, 0, len(names))
	for _, name := range names {
		out = append(out, byName[name])
	}
	return out
}

// judgeUsageByMetric reads response_metadata.judge_usage of a case by
// metric name. Entries written before calls were counted ({input_tokens,
// output_tokens, cost} of one verdict) count as one call.
func judgeUsageByMetric(c *models.CaseResult) map[string]models.CallAccount {
	if c.ResponseMetadata.IsNull() {
		return nil
	}
	var meta struct {
		JudgeUsage map[string]struct {
			models.CallAccount
			Calls *int64 `json:"calls"`
		} `json:"judge_usage"`
	}
	if json.Unmarshal(c.ResponseMetadata, &meta) != nil {
		return nil
	}
	out := make(map[string]models.CallAccount, len(meta.JudgeUsage))
	for name, u := range meta.JudgeUsage {
		acc := u.CallAccount
		acc.Calls = 1
		if u.Calls != nil {
			acc.Calls = *u.Calls
		}
		out[name] = acc
	}
	return out
}
