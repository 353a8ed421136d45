package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/stats"
	"github.com/agentevals-go/agentevals/suite"
)

// scoreEpsilon absorbs floating-point error when a mean of repeat scores is
// compared with its threshold: the mean of three 0.9 scores is 0.9 on paper.
const scoreEpsilon = 1e-9

// Storage of a question answered K > 1 times (ExecOptions.Repeat). The
// question keeps ONE case row, so the gem's models, every report and the
// dashboard read an ordinary run with one case per question:
//
//   - each metric row: score = the mean of the repeats' calculated scores;
//     passed = mean >= threshold and every repeat was scored. When the
//     metric errored in any repeat the row is an error (score NULL,
//     error_details = the first repeat's error with the count; the contract:
//     an errored row has no score) and the mean of the scored repeats is in
//     its reason and in repeat_scores. A repeat whose agent call failed
//     scores nothing: the row's mean covers the others and cannot pass;
//   - the case's error_details: the first failed agent call (with its
//     repeat number and how many failed), so an agent error in any repeat
//     makes the case an error, as it would in a single run;
//   - output, actions: the first repeat's; input_tokens, output_tokens,
//     cost: summed over the repeats (what was spent); duration_ms: the
//     mean per answer;
//   - response_metadata: the first repeat's own keys, judge_usage summed
//     over the repeats, plus the repeats' evidence (models.CaseRepeats).

// repeatCount is how many times each question is answered: asked (from
// ExecOptions), else the suite's key, else 1.
func repeatCount(asked, s int) (int, error) {
	k := asked
	if k <= 0 {
		k = max(s, 1)
	}
	if k > suite.MaxRepeat {
		return 0, fmt.Errorf("execute suite: repeat %d: want 1 to %d", k, suite.MaxRepeat)
	}
	return k, nil
}

// repeatKey is the context key of the repeat an agent call answers.
type repeatKey struct{}

// repeatAt is one call's place among the repeats of its question.
type repeatAt struct{ index, total int }

// withRepeat marks ctx as the call for repeat index (0-based) of total.
func withRepeat(ctx context.Context, index, total int) context.Context {
	return context.WithValue(ctx, repeatKey{}, repeatAt{index, total})
}

// RepeatOf says which repeat of its question an agent call answers: the
// 0-based index and K (ExecOptions.Repeat). A Go agent may read it from
// the ctx Execute passes to Answer, e.g. to seed a simulation; it is
// (0, 1) when the run does not repeat. It is the call's place in the run,
// not an order of arrival: the same repeat gets the same index whatever
// the scheduling.
func RepeatOf(ctx context.Context) (index, total int) {
	if r, ok := ctx.Value(repeatKey{}).(repeatAt); ok {
		return r.index, r.total
	}
	return 0, 1
}

// mergeRepeats fills rec, the planned row of case c, from the K repeats.
func mergeRepeats(rec *models.CaseResult, c *suite.Case, reps []*models.CaseResult) {
	first := reps[0]
	rec.Output, rec.Actions = first.Output, first.Actions
	var durSum float64
	for _, r := range reps {
		durSum += r.DurationMS
		rec.InputTokens = models.AddTokens(rec.InputTokens, r.InputTokens)
		rec.OutputTokens = models.AddTokens(rec.OutputTokens, r.OutputTokens)
		rec.Cost = models.AddCost(rec.Cost, r.Cost)
	}
	rec.DurationMS = durSum / float64(len(reps))
	rec.ErrorDetails = repeatAgentError(reps)
	scores := map[string][]*float64{}
	for pos, m := range c.Metrics {
		row, s := mergeMetric(pos, m, reps)
		rec.Metrics = append(rec.Metrics, row)
		scores[m.Name] = s
	}
	// The first repeat's keys, their numbers through float64 as they have
	// always been stored, with the runner's repeat evidence. Its judge_usage
	// gives way to the sum, which holds every metric it names.
	extra, err := rawValues(DecodeObject(json.RawMessage(first.ResponseMetadata)), keepKey)
	if err != nil {
		rec.ResponseMetadata = unencodable(err)
	} else {
		meta := models.CaseMetadata{JudgeUsage: sumJudgeUsage(reps), Extra: extra,
			CaseRepeats: &models.CaseRepeats{Repeats: repeatEvidence(reps), RepeatScores: scores}}
		meta.PassAtK, meta.PassHatK = passAtK(reps)
		saveMetadata(rec, meta)
	}
	rec.Status = rec.DeriveStatus()
}

// mergeMetric is the row of metric m (position pos) over the repeats, and
// the repeats' scores (nil where one calculated none).
func mergeMetric(pos int, m suite.Metric, reps []*models.CaseResult) (*models.MetricResult, []*float64) {
	row := &models.MetricResult{Position: pos, Name: m.Name, Threshold: m.Threshold}
	scores := make([]*float64, len(reps))
	var scored []float64
	var firstErr, firstFail, firstReason, notCalculated string
	var errDetails models.JSON
	errored, lost := 0, 0
	for r, rep := range reps {
		mr := rep.Metrics[pos]
		reason := ""
		if mr.Reason != nil {
			reason = *mr.Reason
		}
		switch {
		case mr.Errored():
			errored++
			if errDetails == nil {
				errDetails, firstErr = mr.ErrorDetails, fmt.Sprintf("repeat %d: %s", r+1, reason)
			}
		case mr.Score != nil:
			scores[r] = mr.Score
			scored = append(scored, *mr.Score)
			if firstReason == "" {
				firstReason = fmt.Sprintf("repeat %d: %s", r+1, reason)
			}
			if !mr.Passed && firstFail == "" {
				firstFail = fmt.Sprintf("first failing, repeat %d: %s", r+1, reason)
			}
		default:
			lost++
			if notCalculated == "" {
				notCalculated = reason
			}
		}
	}
	k := len(reps)
	summary := scoreList(scored, k)
	switch {
	case errored > 0:
		reason := fmt.Sprintf("error in %d of %d repeats (%s); %s", errored, k, firstErr, summary)
		row.Reason = &reason
		row.ErrorDetails = repeatErrorDetails(errDetails, errored, k)
	case len(scored) == 0:
		row.Reason = &notCalculated
	default:
		mean := stats.Mean(scored)
		row.Score = &mean
		row.Passed = lost == 0 && mean >= m.Threshold-scoreEpsilon
		parts := []string{summary}
		if lost > 0 {
			parts = append(parts, fmt.Sprintf("%d of %d repeats not scored (%s), so it cannot pass", lost, k, notCalculated))
		}
		if firstFail != "" {
			parts = append(parts, firstFail)
		} else {
			parts = append(parts, firstReason)
		}
		reason := strings.Join(parts, "; ")
		row.Reason = &reason
	}
	return row, scores
}

// scoreList is "mean of 3: 0.80, 0.75, 0.90" over the scored repeats.
func scoreList(scored []float64, k int) string {
	if len(scored) == 0 {
		return fmt.Sprintf("no score in %d repeats", k)
	}
	list := make([]string, len(scored))
	for i, s := range scored {
		list[i] = fmt.Sprintf("%.2f", s)
	}
	head := fmt.Sprintf("mean of %d", len(scored))
	if len(scored) < k {
		head = fmt.Sprintf("mean of %d scored of %d", len(scored), k)
	}
	return fmt.Sprintf("%s: %.3f (%s)", head, stats.Mean(scored), strings.Join(list, ", "))
}

// repeatErrorDetails is the first error of a metric over repeats, its kind
// kept (so infrastructure failures stay recognisable) and the count added.
func repeatErrorDetails(first models.JSON, errored, k int) models.JSON {
	var e map[string]any
	if first.Decode(&e) != nil || e == nil {
		e = map[string]any{"kind": "scorer_error"}
	}
	e["message"] = fmt.Sprintf("%d of %d repeats errored; the first: %v", errored, k, e["message"])
	e["errored_repeats"], e["repeats"] = errored, k
	return models.MustJSON(e)
}

// repeatAgentError is the case's error_details when the agent call of any
// repeat failed: the first failure, its kind kept, with its repeat and the
// count; nil when every call succeeded.
func repeatAgentError(reps []*models.CaseResult) models.JSON {
	var first map[string]any
	failed, at := 0, 0
	for r, rep := range reps {
		if !rep.AgentErrored() {
			continue
		}
		failed++
		if first == nil {
			at = r + 1
			if rep.ErrorDetails.Decode(&first) != nil || first == nil {
				first = map[string]any{"kind": "agent_error"}
			}
		}
	}
	if first == nil {
		return nil
	}
	first["message"] = fmt.Sprintf("repeat %d (%d of %d repeats failed): %v", at, failed, len(reps), first["message"])
	first["repeat"], first["errored_repeats"], first["repeats"] = at, failed, len(reps)
	return models.MustJSON(first)
}

// repeatEvidence is response_metadata.repeats: each repeat's answer,
// usage, status, agent error and metric results.
func repeatEvidence(reps []*models.CaseResult) []models.RepeatAnswer {
	out := make([]models.RepeatAnswer, len(reps))
	for r, rep := range reps {
		metrics := make([]models.RepeatMetric, len(rep.Metrics))
		for i, m := range rep.Metrics {
			metrics[i] = models.RepeatMetric{Name: m.Name, Score: m.Score, Passed: m.Passed, Reason: m.Reason, ErrorDetails: m.ErrorDetails}
		}
		out[r] = models.RepeatAnswer{
			Output: rep.Output, Actions: rep.Actions, DurationMS: rep.DurationMS,
			InputTokens: rep.InputTokens, OutputTokens: rep.OutputTokens, Cost: rep.Cost,
			Status: rep.Status, Error: rep.ErrorDetails, Metrics: metrics, ResponseMetadata: rep.ResponseMetadata,
		}
	}
	return out
}

// passAtK says whether some and whether every repeat passed; both are nil
// when no repeat was evaluated.
func passAtK(reps []*models.CaseResult) (at, hat *bool) {
	passed, evaluated := 0, 0
	for _, r := range reps {
		if r.Status != models.StatusNotEvaluated {
			evaluated++
		}
		if r.Status == models.StatusPassed {
			passed++
		}
	}
	if evaluated == 0 {
		return nil, nil
	}
	some, every := passed > 0, passed == len(reps)
	return &some, &every
}

// sumJudgeUsage adds the repeats' per-metric judge accounts.
func sumJudgeUsage(reps []*models.CaseResult) models.JudgeUsage {
	out := models.JudgeUsage{}
	for _, r := range reps {
		meta, err := models.DecodeCaseMetadata(r.ResponseMetadata)
		if err != nil {
			continue
		}
		for name, acc := range meta.JudgeUsage {
			out[name] = out[name].Add(acc)
		}
	}
	return out
}
