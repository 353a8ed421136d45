package runner

import (
	"cmp"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"runtime/debug"
	"sort"
	"strings"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/otlp"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// storeReply keeps the agent's reply on the case: output, observed actions
// and usage. It returns the metadata the agent returned (nil when none) for
// the caller to save with the runner's evidence (setResponseMetadata).
func storeReply(rec *models.CaseResult, resp agent.Response) map[string]any {
	rec.Output = models.JSON(resp.Output) // nil (no output) is saved as SQL NULL, as Rails saves nil
	if resp.Actions != nil {
		rec.Actions = models.MustJSON(resp.Actions)
	}
	rec.InputTokens, rec.OutputTokens, rec.Cost = resp.InputTokens, resp.OutputTokens, resp.SavedCost()
	return resp.Metadata
}

// setResponseMetadata saves the response metadata of the case: the agent's
// own keys (see models.AgentKey) with the runner's evidence in meta. It is
// SQL NULL when the agent returned none (agentMeta nil) and {} when it
// returned an empty object. Metadata that cannot be encoded is replaced by
// why.
func setResponseMetadata(rec *models.CaseResult, agentMeta map[string]any, meta models.CaseMetadata) {
	if agentMeta == nil {
		return
	}
	extra, err := rawValues(agentMeta, models.AgentKey)
	if err != nil {
		rec.ResponseMetadata = unencodable(err)
		return
	}
	meta.Extra = extra
	saveMetadata(rec, meta)
}

// saveMetadata encodes meta into the case's response metadata.
func saveMetadata(rec *models.CaseResult, meta models.CaseMetadata) {
	if err := rec.SetMetadata(meta); err != nil {
		rec.ResponseMetadata = unencodable(err)
	}
}

// unencodable is the response metadata that replaces metadata which could
// not be encoded: why.
func unencodable(err error) models.JSON {
	j, _ := models.CaseMetadata{Unencodable: err.Error()}.Encode()
	return j
}

// keepKey is the rawValues key of a map that keeps its keys.
func keepKey(k string) string { return k }

// rawValues encodes the values of m, in key order, under key(k).
func rawValues(m map[string]any, key func(string) string) (map[string]json.RawMessage, error) {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	sort.Strings(names)
	out := make(map[string]json.RawMessage, len(m))
	for _, k := range names {
		j, err := models.NewJSON(m[k])
		if err != nil {
			return nil, err
		}
		out[key(k)] = json.RawMessage(j)
	}
	return out, nil
}

// record stores the agent's reply on the case and scores every metric;
// ev is the case's API replay evidence (nil without replay), cv the
// conversation when the case is one (nil otherwise), tr what its spans
// said (nil without tracing).
func (e *executor) record(ctx context.Context, c *suite.Case, rec *models.CaseResult, resp agent.Response, ev *models.APIReplay, cv *conversationRun, tr *otlp.Evidence) {
	applyTrace(&resp, tr) // runner/trace.go
	agentMeta := storeReply(rec, resp)
	if (tr != nil && tr.Record.ActionsFrom == "spans") || (cv != nil && cv.anySpanActions) {
		rec.Actions = otlp.StoredActions(resp.Actions) // the gem's shape: group null when unknown
	}
	sample := SampleOf(c)
	if e.outcome != nil {
		sample.RunID = e.run.ID.String()
	}
	sample.Output, sample.Actions, sample.ResponseMetadata = resp.Output, resp.Actions, resp.Metadata
	sample.DurationMS, sample.InputTokens, sample.OutputTokens, sample.Cost = rec.DurationMS, resp.InputTokens, resp.OutputTokens, resp.Cost
	meta := models.CaseMetadata{APIReplay: ev, JudgeUsage: models.JudgeUsage{}, MetricDetails: map[string]map[string]json.RawMessage{}}
	if tr != nil {
		sample.Trace, meta.Trace = tr.Trace, tr.Record
	}
	var detailsErr error
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
		if e.judgeMetrics[m.Name] && e.opts.JudgeSpend != nil && !e.opts.JudgeSpend.Allow() {
			rec.Metrics = append(rec.Metrics, notCalculated(pos, m, reasonSpendCap))
			continue
		}
		s := sample
		if cv != nil {
			s = cv.sample(m.Name, sample)
		}
		s.Metadata = DecodeObject(c.Metadata) // a fresh copy per scorer
		s.Metric = m.Name
		var used models.UsageRecorder
		a, err := Assess(models.WithUsageRecorder(ctx, &used), sc, s)
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
				d, err := rawValues(a.Details, keepKey)
				meta.MetricDetails[m.Name] = d
				detailsErr = cmp.Or(detailsErr, err)
			}
		}
		if acc, ok := metricJudgeUsage(&used, a); ok {
			meta.JudgeUsage[m.Name] = acc
			e.spent(acc)
		}
		rec.Metrics = append(rec.Metrics, mr)
		if cv != nil {
			cv.noteCheck(mr)
		}
	}
	if cv != nil {
		meta.Transcript = cv.transcript()
	}
	if agentMeta == nil && (ev != nil || len(meta.JudgeUsage) > 0 || len(meta.MetricDetails) > 0 || meta.Transcript != nil || meta.Trace != nil) {
		agentMeta = map[string]any{}
	}
	if detailsErr != nil {
		rec.ResponseMetadata = unencodable(detailsErr)
	} else {
		setResponseMetadata(rec, agentMeta, meta)
	}
	rec.Status = rec.DeriveStatus()
}

// SampleOf is the suite's side of a scorer's input for the case: its
// definition, without an answer.
func SampleOf(c *suite.Case) score.Sample {
	return score.Sample{CaseID: c.ID, Name: c.Name, Question: c.Question, ExpectedAnswer: c.ExpectedAnswer,
		ExpectedActions: c.ExpectedActionList, Context: c.Context}
}

// metricJudgeUsage is one metric's judge account: what the judge recorded
// under the scorer's context (every call, failed ones and retries, and cache
// hits), or, for a Judge that records nothing, one call with the usage its
// assessment reported.
func metricJudgeUsage(used *models.UsageRecorder, a score.Assessment) (models.CallAccount, bool) {
	if acc, ok := used.Account(); ok {
		return acc, true
	}
	if a.Usage == nil {
		return models.CallAccount{}, false
	}
	return models.CallAccount{Calls: 1, Attempts: 1, InputTokens: a.Usage.InputTokens, OutputTokens: a.Usage.OutputTokens,
		Cost: a.Usage.Cost}, true
}

// DecodeObject decodes a JSON object into a map, numbers as float64; {}
// when raw is not an object.
func DecodeObject(raw json.RawMessage) map[string]any {
	m := map[string]any{}
	_ = json.Unmarshal(raw, &m) // loaded metadata is always an object
	return m
}

// Assess calls the scorer, turning panics and invalid assessments into errors.
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

// agentErrorJSON is the case's error_details: {"kind","message","details"}.
func agentErrorJSON(err error) models.JSON {
	kind, msg, details := "agent_error", err.Error(), map[string]any(nil)
	var ae *adapter.Error
	if errors.As(err, &ae) {
		kind, msg, details = ae.Kind, ae.Message, ae.Details
	}
	j, jerr := models.NewJSON(map[string]any{"kind": kind, "message": msg, "details": details})
	if jerr != nil {
		return models.MustJSON(map[string]any{"kind": kind, "message": msg, "details": nil})
	}
	return j
}

func notCalculated(pos int, m suite.Metric, reason string) *models.MetricResult {
	r := reason
	return &models.MetricResult{Position: pos, Name: m.Name, Threshold: m.Threshold, Reason: &r}
}
