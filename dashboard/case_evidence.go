package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
)

// caseMetadata is a case's response_metadata cut into the parts the case
// page shows on their own: the API replay evidence, the judge usage per
// metric, the judges' details per metric, and the rest (the agent's own).
type caseMetadata struct {
	Replay        string
	JudgeUsage    []judgeUsageRow
	MetricDetails map[string]map[string]json.RawMessage
	Trace         *models.CaseTrace
	Rest          string
}

// judgeUsageRow is one metric's judge account as stored in
// response_metadata.judge_usage.
type judgeUsageRow struct {
	Metric string
	models.CallAccount
}

// splitCaseMetadata reads response_metadata; anything that is not an
// object is shown whole as the rest.
func splitCaseMetadata(j models.JSON) caseMetadata {
	var out caseMetadata
	if j.IsNull() {
		return out
	}
	meta, err := models.DecodeCaseMetadata(j)
	if err != nil {
		out.Rest = prettyJSON(j)
		return out
	}
	if meta.APIReplay != nil {
		b, _ := json.Marshal(meta.APIReplay)
		out.Replay = prettyJSON(models.JSON(b))
	}
	for _, name := range meta.JudgeUsage.Names() {
		out.JudgeUsage = append(out.JudgeUsage, judgeUsageRow{Metric: name, CallAccount: meta.JudgeUsage[name]})
	}
	out.MetricDetails, out.Trace = meta.MetricDetails, meta.Trace
	rest := meta
	rest.APIReplay, rest.JudgeUsage, rest.MetricDetails, rest.Trace = nil, nil, nil, nil
	if b, err := rest.Encode(); err == nil && string(b) != "{}" {
		out.Rest = prettyJSON(b)
	}
	return out
}

// judgeEvidence is what a metric's judge left: which model, whether the
// verdict came from the cache, the prompt when stored (or rebuilt, see
// rebuildPrompts) and the raw reply when stored.
type judgeEvidence struct {
	Model  string
	Notes  []string
	Prompt string
	Reply  string
	// ReplyAnswerFirst is the raw reply of a position-swapped metric's
	// second reading (the answer before the reference data).
	ReplyAnswerFirst string
	// MetricType is the judge metric's type ("semantic_accuracy") when the
	// evidence names it.
	MetricType string
	// Rebuilt are the prompts rebuilt from the stored case, one per reading.
	Rebuilt []rebuiltPrompt
	// readings are the orders the judge read the case in: "reference
	// first", "answer first", or both for a position-swapped metric.
	readings []string
}

// rebuiltPrompt is one judge call's messages rebuilt from the stored case.
type rebuiltPrompt struct {
	Reading string // "" unless the metric was judged in both orders
	score.Prompt
}

// newJudgeEvidence reads a metric's details (response_metadata.metric_details
// of its name) and error details; it returns nil when neither names a judge
// or holds a prompt or reply.
func newJudgeEvidence(details map[string]json.RawMessage, errorDetails models.JSON) *judgeEvidence {
	var ed map[string]json.RawMessage
	if !errorDetails.IsNull() {
		_ = json.Unmarshal(errorDetails, &ed)
	}
	ev := &judgeEvidence{}
	var judge struct {
		Provider string `json:"provider"`
		Model    string `json:"model"`
	}
	if raw, ok := details["judge"]; ok && json.Unmarshal(raw, &judge) == nil {
		ev.Model = strings.Trim(judge.Provider+" · "+judge.Model, " ·")
	} else if ed != nil {
		_ = json.Unmarshal(ed["provider"], &judge.Provider)
		_ = json.Unmarshal(ed["model"], &judge.Model)
		ev.Model = strings.Trim(judge.Provider+" · "+judge.Model, " ·")
	}
	var cache string
	if json.Unmarshal(details["judge_cache"], &cache) == nil && cache != "" {
		ev.Notes = append(ev.Notes, "cache "+cache)
	}
	var attempts []json.RawMessage
	if json.Unmarshal(details["attempts"], &attempts) == nil && len(attempts) > 1 {
		ev.Notes = append(ev.Notes, fmt.Sprintf("%d attempts", len(attempts)))
	}
	// The keys a judge's prompt or raw reply may be stored under, in the
	// metric's details or its error details (an unreadable reply is kept
	// there as "reply").
	for _, src := range []map[string]json.RawMessage{details, ed} {
		if ev.Prompt == "" {
			ev.Prompt = firstText(src, "prompt", "messages", "system_prompt", "user_prompt")
		}
		if ev.Reply == "" {
			ev.Reply = firstText(src, "reply", "raw_reply", "response", "raw")
		}
	}
	_ = json.Unmarshal(details["raw_reply_answer_first"], &ev.ReplyAnswerFirst)
	if _ = json.Unmarshal(details["metric_type"], &ev.MetricType); ev.MetricType == "" {
		_ = json.Unmarshal(ed["metric_type"], &ev.MetricType)
	}
	var position string
	_ = json.Unmarshal(ed["position"], &position)
	switch {
	case details["position_swap"] != nil:
		ev.readings = []string{"reference first", "answer first"}
	case position == "answer first":
		ev.readings = []string{position}
	default:
		ev.readings = []string{"reference first"}
	}
	if ev.Model == "" && ev.Prompt == "" && ev.Reply == "" && ev.MetricType == "" {
		return nil
	}
	return ev
}

// rebuildPrompts rebuilds, when no prompt was stored, the messages a
// built-in judge metric sent for the case with this version's prompt
// template (score.RebuildPrompt, the code the judge itself uses). The type
// is the stored metric_type, or, for rows saved before it was stored, the
// metric's name when a judge scored it.
func (ev *judgeEvidence) rebuildPrompts(metricName string, cr *models.CaseResult) {
	if ev == nil || ev.Prompt != "" {
		return
	}
	typ := ev.MetricType
	if typ == "" && ev.Model != "" {
		typ = metricName
	}
	stored := score.StoredCase{Question: json.RawMessage(cr.Question), ExpectedAnswer: json.RawMessage(cr.ExpectedAnswer),
		Output: json.RawMessage(cr.Output), Metadata: json.RawMessage(cr.Metadata)}
	for _, reading := range ev.readings {
		p, ok := score.RebuildPrompt(typ, stored, reading == "answer first")
		if !ok {
			return
		}
		rp := rebuiltPrompt{Prompt: p}
		for _, msg := range []*string{&rp.System, &rp.User} {
			if short, cut := shortenedTo(*msg, maxShownPromptBytes); cut {
				*msg = fmt.Sprintf("%s\n…[cut: the first %d of %d bytes are shown; the stored values are above]", short, len(short), len(*msg))
			}
		}
		if len(ev.readings) > 1 {
			rp.Reading = reading
		}
		ev.Rebuilt = append(ev.Rebuilt, rp)
	}
}

// firstText returns the first of keys in m as text (a JSON string as is,
// anything else indented).
func firstText(m map[string]json.RawMessage, keys ...string) string {
	for _, k := range keys {
		if raw, ok := m[k]; ok && string(raw) != "null" {
			return jsonText(models.JSON(raw))
		}
	}
	return ""
}

// baselineAnswer is the same question in the run's automatic baseline.
type baselineAnswer struct {
	Run    *models.Run
	Case   *models.CaseResult
	Link   string
	Status string
	Output string
	Diff   wordDiff
}

// findBaselineAnswer finds the run's baseline (as the run page does: the
// recorded decision's, else the automatic one) and the case with the same
// id in it; nil when there is none.
func (s *Server) findBaselineAnswer(ctx context.Context, b BasePage, run *models.Run, cr *models.CaseResult, output string) (*baselineAnswer, error) {
	baseline, err := s.baselineOf(ctx, run)
	if err != nil || baseline == nil {
		return nil, err
	}
	for _, bc := range baseline.Cases {
		if bc.CaseID != cr.CaseID {
			continue
		}
		out := jsonText(bc.Output)
		return &baselineAnswer{Run: baseline, Case: bc, Link: b.caseLink(baseline.ID.String(), bc.Position),
			Status: compare.CaseStatus(bc), Output: out, Diff: diffWords(out, output)}, nil
	}
	return nil, nil
}
