package score

import (
	"context"
	"encoding/json"
	"fmt"
)

// contextualMetric is a judge metric over the passages the agent reports
// as retrieved (reply metadata.contexts): they replace the question's own
// context in the prompt, so the judge grades the retrieval, not the
// golden set.
type contextualMetric struct {
	inner *LLMMetric
}

var _ Scorer = (*contextualMetric)(nil)

// contextualSpecs are the rubrics of the retrieval judges. Each separates
// a retrieval problem from a generation problem: they grade what was
// retrieved, never the answer's wording.
func contextualSpecs() []metricSpec {
	return []metricSpec{
		{name: "contextual_precision", needs: needs{expected: true, context: true}, rubric: `CONTEXTUAL PRECISION: are the retrieved passages that help answer the question ranked above those that do not?
The context lists the retrieved passages in rank order (first is rank 1).
Steps:
1. For each passage, in order, decide RELEVANT (it contains information needed for the expected answer) or IRRELEVANT.
2. For each relevant passage at rank r, compute the share of relevant passages among ranks 1..r.
Score: the mean of those shares over the relevant passages; 0 when no passage is relevant. Judge the passages only, not the answer.`},
		{name: "contextual_recall", needs: needs{expected: true, context: true}, rubric: `CONTEXTUAL RECALL: do the retrieved passages contain everything the expected answer states?
Steps:
1. List the facts in the expected answer.
2. For each fact decide SUPPORTED (some retrieved passage states or clearly implies it) or MISSING.
Score: supported facts divided by all facts. Judge the passages only, not the answer.`},
		{name: "contextual_relevancy", needs: needs{context: true}, rubric: `CONTEXTUAL RELEVANCY: how much of what was retrieved is relevant to the question?
Steps:
1. Split the retrieved passages into statements.
2. Mark each statement RELEVANT (it helps answer the question) or IRRELEVANT.
Score: relevant statements divided by all statements; 0 when nothing is relevant. Judge the passages only, not the answer.`},
	}
}

// addContextual registers the retrieval judges.
func addContextual(r Registry) {
	for _, spec := range contextualSpecs() {
		def := Definition{NeedsJudge: true, Doc: Doc{Summary: contextualSummary(spec.name), Params: []Param{positionSwap()}, Example: json.RawMessage(`{"position_swap": false}`)},
			New: func(params json.RawMessage, judge Judge) (Scorer, error) {
				var p struct {
					PositionSwap bool `json:"position_swap"`
				}
				if err := decodeParams(params, &p, false); err != nil {
					return nil, fmt.Errorf(`%w: %s takes only {"position_swap": true|false}`, ErrInvalidParams, spec.name)
				}
				m, err := newLLMMetric(spec, judge, p.PositionSwap)
				if err != nil {
					return nil, err
				}
				return &contextualMetric{inner: m}, nil
			}}
		if spec.needs.expected {
			def.Needs = []string{NeedExpectedAnswer}
		}
		r[spec.name] = def
	}
}

func contextualSummary(name string) string {
	return map[string]string{
		"contextual_precision": "Judge: the passages the agent retrieved (reply metadata.contexts) that help reach the expected answer are ranked first.",
		"contextual_recall":    "Judge: the passages the agent retrieved (reply metadata.contexts) hold every fact of the expected answer.",
		"contextual_relevancy": "Judge: the share of what the agent retrieved (reply metadata.contexts) that is relevant to the question.",
	}[name]
}

// Score grades the retrieved passages; a reply without them is a
// missing_input error, never a verdict on the golden context.
func (m *contextualMetric) Score(ctx context.Context, s Sample) (Assessment, error) {
	name := m.inner.spec.name
	ctxs, ok, err := RetrievedContexts(s)
	switch {
	case err != nil:
		return Assessment{}, &Error{Kind: KindInvalidReply, Message: err.Error()}
	case !ok:
		return Assessment{}, &Error{Kind: KindMissingInput, Message: fmt.Sprintf("%s needs the retrieved passages: the agent's reply metadata has no %q list", name, ContextsKey)}
	case len(ctxs) == 0:
		return Assessment{}, &Error{Kind: KindMissingInput, Message: fmt.Sprintf("%s: the agent retrieved no passage, so there is nothing to grade", name)}
	}
	s.Context = make([]string, len(ctxs))
	for i, c := range ctxs {
		s.Context[i] = fmt.Sprintf("[rank %d, id %s] %s", i+1, c.ID, c.Text)
	}
	return m.inner.Score(ctx, s)
}
