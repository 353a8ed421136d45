package judges

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
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
}

var _ Scorer = (*LLMMetric)(nil)

// Name is the metric's type name (e.g. "semantic_accuracy").
func (m *LLMMetric) Name() string { return m.spec.name }

// addLLMMetrics registers the judge-backed metrics. Each one needs a judge:
// without one the runner does not calculate it (null, no invented score).
func addLLMMetrics(r Registry) {
	for _, spec := range builtinMetricSpecs() {
		r[spec.name] = Definition{NeedsJudge: true, New: func(params json.RawMessage, judge Judge) (Scorer, error) {
			if err := noParams(params); err != nil {
				return nil, err
			}
			return newLLMMetric(spec, judge)
		}}
	}
	r["llm_judge"] = Definition{NeedsJudge: true, New: newRubricMetric}
}

// newRubricMetric builds llm_judge from {"rubric": "..."} (required).
func newRubricMetric(params json.RawMessage, judge Judge) (Scorer, error) {
	var p struct {
		Rubric string `json:"rubric"`
	}
	dec := json.NewDecoder(strings.NewReader(string(params)))
	dec.DisallowUnknownFields()
	if len(params) == 0 || dec.Decode(&p) != nil {
		return nil, fmt.Errorf(`%w: llm_judge wants {"rubric": "..."}`, ErrInvalidParams)
	}
	if strings.TrimSpace(p.Rubric) == "" {
		return nil, fmt.Errorf("%w: llm_judge needs a non-empty rubric", ErrInvalidParams)
	}
	return newLLMMetric(metricSpec{name: "llm_judge", rubric: customRubric(p.Rubric)}, judge)
}

func newLLMMetric(spec metricSpec, judge Judge) (*LLMMetric, error) {
	if judge == nil {
		return nil, fmt.Errorf("%w: %s needs a judge", ErrInvalidParams, spec.name)
	}
	return &LLMMetric{spec: spec, judge: judge}, nil
}

func noParams(params json.RawMessage) error {
	s := strings.TrimSpace(string(params))
	if s == "" || s == "null" || s == "{}" {
		return nil
	}
	return fmt.Errorf("%w: this metric takes no parameters", ErrInvalidParams)
}

// Score asks the judge for a verdict on s. The rubric goes in the system
// message; the sample's data goes in the user message as untrusted
// evaluation context.
func (m *LLMMetric) Score(ctx context.Context, s Sample) (Assessment, error) {
	if err := m.check(s); err != nil {
		return Assessment{}, err
	}
	a, err := m.judge.Assess(ctx, systemPrompt(m.spec.rubric), userPrompt(m.spec, s))
	if err != nil {
		var je *Error
		if errors.As(err, &je) {
			return Assessment{}, err
		}
		return Assessment{}, &Error{Kind: KindProviderError, Message: err.Error(),
			Details: map[string]any{"metric": m.spec.name}}
	}
	return a, nil
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
