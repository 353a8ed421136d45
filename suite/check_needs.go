package suite

import (
	"fmt"
	"slices"

	"github.com/agentevals-go/agentevals/score"
)

// needSource says where a case and its metrics come from, for checkNeeds.
type needSource struct {
	// path is the question's JSON path ("$.questions[3]"; "$" for a
	// golden-set line).
	path string
	// explicit is set when the metrics come from minimum_scores, not the
	// defaults.
	explicit bool
	// golden marks a golden-set line, whose fields are named "expected" and
	// "context" and which cannot give expected actions.
	golden bool
}

// checkNeeds refuses every metric of c whose evaluator needs a question
// field c lacks (score.Definition.Needs, unless the evaluator's params
// supply it): without it the metric could only be an error in this case at
// run time. Unknown metrics are reported by parseScores.
func (s *Suite) checkNeeds(p Problems, c *Case, src needSource) {
	sample := score.Sample{ExpectedAnswer: c.ExpectedAnswer, ExpectedActions: c.ExpectedActionList, Context: c.Context}
	if c.Conversation != nil {
		sample.Conversation = &score.Conversation{}
	}
	for _, m := range c.Metrics {
		if _, turn := c.Conversation.TurnOf(m.Name); turn {
			continue // checkTurnNeeds
		}
		typ, params, ok := s.definitionFor(c, m.Name)
		if !ok {
			continue
		}
		_, inline := c.Check(m.Name)
		def := s.Registry[typ]
		for _, need := range def.Required(params) {
			if sample.Has(need) {
				continue
			}
			msg := "needs " + needText(need, src.golden, c, def.NeedsUnless)
			switch {
			case inline:
				p.add(child(src.path, "checks"), "check %q %s", m.Name, msg)
			case src.explicit && !slices.Contains(c.defaulted, m.Name):
				p.add(child(child(src.path, "minimum_scores"), m.Name), "%s", msg)
			case src.golden:
				p.add(src.path, "default metric %q %s", m.Name, msg)
			default:
				p.add(src.path, "default metric %q %s; give it, or list the metrics in minimum_scores", m.Name, msg)
			}
		}
	}
}

// needText names a missing field and why it counts as missing:
// "the question's context (none given)".
func needText(need string, golden bool, c *Case, unless string) string {
	owner, field := "the question's ", need
	if golden {
		owner = "the line's "
		switch need {
		case score.NeedExpectedAnswer:
			field = "expected"
		case score.NeedExpectedActions:
			return "expected_actions, which golden-set lines cannot give (use an inline question)"
		}
	}
	why := "none given"
	switch {
	case need == score.NeedContext && len(c.Context) > 0:
		why = "only blank passages given"
	case need == score.NeedExpectedActions:
		why = "none given: write \"expected_actions\": " + actionsExample + "; [] expects no call"
	}
	if unless != "" {
		why += fmt.Sprintf(", and no %q param", unless)
	}
	return owner + field + " (" + why + ")"
}
