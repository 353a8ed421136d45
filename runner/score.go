package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"strings"

	"agentevals/agent"
	"agentevals/llm"
	"agentevals/models"
	"agentevals/score"
	"agentevals/suite"
)

// storeReply keeps the agent's reply on the case: output, observed actions,
// usage, and the response metadata it returns for the caller to complete
// and save (setResponseMetadata).
func storeReply(rec *models.CaseResult, resp agent.Response) map[string]any {
	rec.Output = models.JSON(resp.Output) // nil (no output) is saved as SQL NULL, as Rails saves nil
	if resp.Actions != nil {
		rec.Actions = models.MustJSON(resp.Actions)
	}
	rec.InputTokens, rec.OutputTokens, rec.Cost = resp.InputTokens, resp.OutputTokens, resp.SavedCost()
	var respMeta map[string]any // nil: the agent returned no metadata
	if resp.Metadata != nil {
		respMeta = make(map[string]any, len(resp.Metadata))
	}
	for k, v := range resp.Metadata {
		if k == "judge_usage" || k == "metric_details" { // reserved for the runner's evidence
			k = "agent_" + k
		}
		respMeta[k] = v
	}
	return respMeta
}

// setResponseMetadata saves the response metadata of the case: SQL NULL
// when the agent returned none (nil), {} when it returned an empty object.
func setResponseMetadata(rec *models.CaseResult, respMeta map[string]any) {
	if respMeta == nil {
		return
	}
	j, err := models.NewJSON(respMeta)
	if err != nil {
		j = models.MustJSON(map[string]any{"unencodable_metadata": err.Error()})
	}
	rec.ResponseMetadata = j
}

// record stores the agent's reply on the case and scores every metric.
func (e *executor) record(ctx context.Context, c *suite.Case, rec *models.CaseResult, resp agent.Response) {
	respMeta := storeReply(rec, resp)
	sample := SampleOf(c)
	sample.Output, sample.Actions, sample.ResponseMetadata = resp.Output, resp.Actions, resp.Metadata
	sample.DurationMS, sample.InputTokens, sample.OutputTokens, sample.Cost = rec.DurationMS, resp.InputTokens, resp.OutputTokens, resp.Cost
	judgeUsage := map[string]any{}
	details := map[string]any{}
	for pos, m := range c.Metrics {
		sc, ok := e.scorers.Scorer(c, m.Name)
		if !ok {
			reason := reasonNoJudge
			if e.opts.JudgeDisabled {
				reason = reasonJudgeDisabled
			}
			rec.Metrics = append(rec.Metrics, notCalculated(pos, m, reason))
			continue
		}
		sample.Metadata = DecodeObject(c.Metadata) // a fresh copy per scorer
		var used llm.UsageRecorder
		a, err := Assess(llm.WithUsageRecorder(ctx, &used), sc, sample)
		mr := &models.MetricResult{Position: pos, Name: m.Name, Threshold: m.Threshold}
		if err != nil {
			mr.ErrorDetails = metricErrorJSON(err)
			reason := "error: " + err.Error()
			mr.Reason = &reason
		} else {
			score, reason := a.Score, a.Reason
			mr.Score, mr.Reason = &score, &reason
			mr.Passed = score >= m.Threshold
			if len(a.Details) > 0 {
				details[m.Name] = a.Details
			}
		}
		if acc, ok := metricJudgeUsage(&used, a); ok {
			judgeUsage[m.Name] = acc
		}
		rec.Metrics = append(rec.Metrics, mr)
	}
	if (len(judgeUsage) > 0 || len(details) > 0) && respMeta == nil {
		respMeta = map[string]any{}
	}
	if len(judgeUsage) > 0 {
		respMeta["judge_usage"] = judgeUsage
	}
	if len(details) > 0 {
		respMeta["metric_details"] = details
	}
	setResponseMetadata(rec, respMeta)
	rec.Status = rec.DeriveStatus()
}

// sampleOf is the suite's side of a scorer's input for the case: its
// definition, without an answer.
func SampleOf(c *suite.Case) score.Sample {
	return score.Sample{CaseID: c.ID, Name: c.Name, Question: c.Question, ExpectedAnswer: c.ExpectedAnswer,
		ExpectedActions: c.ExpectedActionList, Context: c.Context}
}

// metricJudgeUsage is one metric's judge account: what the judge recorded
// under the scorer's context (every call, failed ones and retries, and cache
// hits), or, for a Judge that records nothing, one call with the usage its
// assessment reported.
func metricJudgeUsage(used *llm.UsageRecorder, a score.Assessment) (models.CallAccount, bool) {
	if acc, ok := used.Account(); ok {
		return acc, true
	}
	if a.Usage == nil {
		return models.CallAccount{}, false
	}
	return models.CallAccount{Calls: 1, Attempts: 1, InputTokens: a.Usage.InputTokens, OutputTokens: a.Usage.OutputTokens,
		Cost: a.Usage.Cost}, true
}

func DecodeObject(raw json.RawMessage) map[string]any {
	m := map[string]any{}
	_ = json.Unmarshal(raw, &m) // loaded metadata is always an object
	return m
}

// assess calls the scorer, turning panics and invalid assessments into errors.
func Assess(ctx context.Context, sc score.Scorer, s score.Sample) (a score.Assessment, err error) {
	defer func() {
		if r := recover(); r != nil {
			err = &score.Error{Kind: "panic", Message: fmt.Sprint(r), Details: map[string]any{"stack": string(debug.Stack())}}
		}
	}()
	a, err = sc.Score(ctx, s)
	if err != nil {
		return a, err
	}
	if math.IsNaN(a.Score) || math.IsInf(a.Score, 0) || a.Score < 0 || a.Score > 1 {
		return a, &score.Error{Kind: "invalid_assessment", Message: fmt.Sprintf("score %v is not a finite number in [0,1]", a.Score)}
	}
	if strings.TrimSpace(a.Reason) == "" {
		return a, &score.Error{Kind: "invalid_assessment", Message: "the assessment has no reason"}
	}
	return a, nil
}

// metricErrorJSON is a metric's error_details: {"kind","message","details"}.
func metricErrorJSON(err error) models.JSON {
	kind, msg, details := "scorer_error", err.Error(), map[string]any(nil)
	var je *score.Error
	if errors.As(err, &je) {
		kind, msg, details = je.Kind, je.Message, je.Details
	}
	j, jerr := models.NewJSON(map[string]any{"kind": kind, "message": msg, "details": details})
	if jerr != nil {
		return models.MustJSON(map[string]any{"kind": kind, "message": msg, "details": nil})
	}
	return j
}
