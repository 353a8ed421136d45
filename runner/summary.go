package runner

import (
	"encoding/json"
	"time"

	"agentevals/models"
)

// Writer is the summary's "writer" value: it marks a run as written by this
// implementation. Runs that carry the same marker have comparable
// suite_digest values, so reports links them only when their digests are
// equal; the persisted-definition fallback (DESIGN §5) is for runs written
// by another implementation, such as the Ruby gem.
const Writer = "agentevals-go"

// Summarize computes the run summary written to the runs' summary column.
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
//	judge_usage    {input_tokens, output_tokens, cost} summed over every
//	               judge-backed metric (cost null when no price was known);
//	               null when no judge was used
//	metrics        {name: {mean, count, passed, errors, not_calculated}}: mean is
//	               the mean calculated score (errors count 0), null when count is 0
//	duration_ms    wall time of the execution
//	concurrency    cases run at once
//
// ExecOptions.ExtraSummary may add keys (e.g. judge cache statistics) but
// never replaces writer.
func Summarize(run *models.Run, concurrency int, wall time.Duration) map[string]any {
	var passed, failed, errs, notEval int
	var qualitySum float64
	var evaluated int
	var in, out int64
	var cost float64
	var haveIn, haveOut, haveCost bool
	var jIn, jOut int64
	var jCost float64
	var haveJudge, haveJudgeCost bool
	type metricAgg struct {
		sum                               float64
		count, passed, errors, notCounted int
	}
	metrics := map[string]*metricAgg{}
	var order []string
	for _, c := range run.Cases {
		switch c.Status {
		case models.StatusPassed:
			passed++
		case models.StatusFailed:
			failed++
		case models.StatusError:
			errs++
		case models.StatusNotEvaluated:
			notEval++
		}
		if c.Status != models.StatusNotEvaluated {
			evaluated++
			if q := c.Quality(); q != nil {
				qualitySum += *q
			}
		}
		if c.InputTokens != nil {
			in += *c.InputTokens
			haveIn = true
		}
		if c.OutputTokens != nil {
			out += *c.OutputTokens
			haveOut = true
		}
		if c.Cost != nil {
			cost += *c.Cost
			haveCost = true
		}
		for _, u := range judgeUsage(c) {
			haveJudge = true
			jIn += u.InputTokens
			jOut += u.OutputTokens
			if u.Cost != nil {
				jCost += *u.Cost
				haveJudgeCost = true
			}
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
	var judge any
	if haveJudge {
		judge = map[string]any{"input_tokens": jIn, "output_tokens": jOut, "cost": orNull(jCost, haveJudgeCost)}
	}
	return map[string]any{
		"writer":        Writer,
		"cases":         len(run.Cases),
		"passed":        passed,
		"failed":        failed,
		"errors":        errs,
		"not_evaluated": notEval,
		"quality":       ratio(qualitySum, evaluated),
		"pass_rate":     ratio(float64(passed), evaluated),
		"input_tokens":  orNull(in, haveIn),
		"output_tokens": orNull(out, haveOut),
		"cost":          orNull(cost, haveCost),
		"judge_usage":   judge,
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

func orNull[T any](v T, ok bool) any {
	if !ok {
		return nil
	}
	return v
}

// usage mirrors judges.Usage for reading response_metadata back.
type usage struct {
	InputTokens  int64    `json:"input_tokens"`
	OutputTokens int64    `json:"output_tokens"`
	Cost         *float64 `json:"cost"`
}

// judgeUsage reads response_metadata.judge_usage of a case.
func judgeUsage(c *models.CaseResult) map[string]usage {
	if c.ResponseMetadata.IsNull() {
		return nil
	}
	var meta struct {
		JudgeUsage map[string]usage `json:"judge_usage"`
	}
	if json.Unmarshal(c.ResponseMetadata, &meta) != nil {
		return nil
	}
	return meta.JudgeUsage
}
