package score

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"strings"
)

// Needs lists what a judge metric requires from a sample; a missing input
// is a metric error (KindMissingInput), never a verdict on thin air.
type needs struct {
	expected bool // ExpectedAnswer
	context  bool // Context passages
}

// metricSpec is the fixed part of one judge metric.
type metricSpec struct {
	name   string
	rubric string
	needs  needs
}

// LLMMetric scores a sample by asking a Judge with a metric-specific rubric.
type LLMMetric struct {
	spec  metricSpec
	judge Judge
	// swap judges twice, with the answer before and after the reference
	// data, and averages: judges favour whichever text they read first.
	swap bool
}

var _ Scorer = (*LLMMetric)(nil)

// Name is the metric's type name (e.g. "semantic_accuracy").
func (m *LLMMetric) Name() string { return m.spec.name }

// AddLLMMetrics registers the judge-backed metrics. Each one needs a judge:
// without one the runner does not calculate it (null, no invented score).
func AddLLMMetrics(r Registry) {
	for _, spec := range builtinMetricSpecs() {
		r[spec.name] = Definition{NeedsJudge: true, New: func(params json.RawMessage, judge Judge) (Scorer, error) {
			var p struct {
				PositionSwap bool `json:"position_swap"`
			}
			if err := decodeParams(params, &p, false); err != nil {
				return nil, fmt.Errorf(`%w: %s takes only {"position_swap": true|false}`, ErrInvalidParams, spec.name)
			}
			return newLLMMetric(spec, judge, p.PositionSwap)
		}}
	}
	r["llm_judge"] = Definition{NeedsJudge: true, New: newRubricMetric}
}

// newRubricMetric builds llm_judge from {"rubric": "...", "position_swap":
// bool}; the rubric is required.
func newRubricMetric(params json.RawMessage, judge Judge) (Scorer, error) {
	var p struct {
		Rubric       string `json:"rubric"`
		PositionSwap bool   `json:"position_swap"`
		IgnoreLength bool   `json:"ignore_length"`
	}
	if err := decodeParams(params, &p, true); err != nil {
		return nil, fmt.Errorf(`%w: llm_judge wants {"rubric": "...", "ignore_length": true|false}`, ErrInvalidParams)
	}
	if strings.TrimSpace(p.Rubric) == "" {
		return nil, fmt.Errorf("%w: llm_judge needs a non-empty rubric", ErrInvalidParams)
	}
	rubric := customRubric(p.Rubric)
	if p.IgnoreLength {
		rubric += "\n\n" + ignoreLengthNote
	}
	return newLLMMetric(metricSpec{name: "llm_judge", rubric: rubric}, judge, p.PositionSwap)
}

// ignoreLengthNote is what llm_judge's ignore_length adds to the rubric:
// judges favour longer answers unless told not to.
const ignoreLengthNote = "Ignore length: do not reward an answer for being longer or more detailed, nor penalise it for being short. A short answer that fully meets the criterion scores as high as a long one; padding, repetition and restating the question add nothing."

func newLLMMetric(spec metricSpec, judge Judge, swap bool) (*LLMMetric, error) {
	if judge == nil {
		return nil, fmt.Errorf("%w: %s needs a judge", ErrInvalidParams, spec.name)
	}
	return &LLMMetric{spec: spec, judge: judge, swap: swap}, nil
}

// decodeParams reads a JSON object with no unknown keys; empty or null
// params are allowed unless required.
func decodeParams(params json.RawMessage, v any, required bool) error {
	s := strings.TrimSpace(string(params))
	if s == "" || s == "null" {
		if required {
			return errors.New("missing")
		}
		return nil
	}
	dec := json.NewDecoder(strings.NewReader(s))
	dec.DisallowUnknownFields()
	return dec.Decode(v)
}

// Score asks the judge for a verdict on s. The rubric goes in the system
// message; the sample's data goes in the user message as untrusted
// evaluation context.
func (m *LLMMetric) Score(ctx context.Context, s Sample) (Assessment, error) {
	if err := m.check(s); err != nil {
		return Assessment{}, err
	}
	a, err := m.assess(ctx, m.spec.prompt(s, false), "reference first")
	if err != nil || !m.swap {
		return a, err
	}
	b, err := m.assess(ctx, m.spec.prompt(s, true), "answer first")
	if err != nil {
		return Assessment{}, err
	}
	return combineSwapped(a, b), nil
}

func (m *LLMMetric) assess(ctx context.Context, p Prompt, order string) (Assessment, error) {
	a, err := m.judge.Assess(ctx, p.System, p.User)
	if err == nil {
		details := make(map[string]any, len(a.Details)+1) // a Judge may reuse its map
		for k, v := range a.Details {
			details[k] = v
		}
		details["metric_type"] = m.spec.name
		a.Details = details
		return a, nil
	}
	var je *Error
	if !errors.As(err, &je) {
		je = &Error{Kind: KindProviderError, Message: err.Error()}
	}
	if je.Details == nil {
		je.Details = map[string]any{}
	}
	je.Details["metric_type"] = m.spec.name
	if m.swap {
		je.Details["position"] = order
	}
	return Assessment{}, je
}

// combineSwapped averages the verdicts of both orders and keeps both
// rationales; a large spread tells the reader the judge is position-biased
// on this case.
func combineSwapped(a, b Assessment) Assessment {
	out := Assessment{
		Score:  (a.Score + b.Score) / 2,
		Reason: "Reference first: " + a.Reason + " | Answer first: " + b.Reason,
		Details: map[string]any{"position_swap": map[string]any{
			"scores": []float64{a.Score, b.Score}, "spread": math.Abs(a.Score - b.Score),
		}},
	}
	for k, v := range a.Details {
		if _, taken := out.Details[k]; !taken {
			out.Details[k] = v
		}
	}
	if r, ok := b.Details["raw_reply"]; ok {
		out.Details["raw_reply_answer_first"] = r
	}
	if a.Usage != nil || b.Usage != nil {
		var ua, ub Usage
		if a.Usage != nil {
			ua = *a.Usage
		}
		if b.Usage != nil {
			ub = *b.Usage
		}
		u := addUsage(ua, ub)
		out.Usage = &u
	}
	return out
}

func (m *LLMMetric) check(s Sample) error {
	missing := func(what string) error {
		return &Error{Kind: KindMissingInput, Message: fmt.Sprintf("%s needs %s", m.spec.name, what),
			Details: map[string]any{"metric": m.spec.name, "missing": what}}
	}
	if m.spec.needs.expected && strings.TrimSpace(s.ExpectedText()) == "" {
		return missing("an expected_answer")
	}
	if m.spec.needs.context && len(nonEmpty(s.Context)) == 0 {
		return missing("retrieval context (the question's context)")
	}
	return nil
}

func nonEmpty(xs []string) []string {
	var out []string
	for _, x := range xs {
		if strings.TrimSpace(x) != "" {
			out = append(out, x)
		}
	}
	return out
}
