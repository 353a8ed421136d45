package score

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/internal/jsonvalue"
)

// addActionGroup registers the action_group scorer.
func addActionGroup(r Registry) {
	def := define(newActionGroup)
	def.Needs = []string{NeedExpectedActions}
	r["action_group"] = def
}

// ActionGroup ("action_group") compares the tool calls the agent reported
// (Sample.Actions) with the calls the question expects
// (Sample.ExpectedActions).
//
// Params: none for the original rule; "mode", "arguments" and
// "ignore_paths" choose a trajectory mode instead (see ModeStrict and
// score/trajectory.go). The rules below are the original rule's.
//
// Rules:
//   - The question must give expected_actions (Definition.Needs): the
//     runner refuses a suite whose question scored on action_group has
//     none; [] expects no call.
//   - Every expected action names a group and a name; one that does not
//     makes the metric an error of kind "invalid_expected_actions".
//   - Observed actions of nil (the agent was not instrumented) make the
//     metric an error of kind "not_instrumented"; an empty list honestly
//     means no call was observed.
//   - Two calls are the same call when group, name and arguments are equal.
//     Arguments compare as JSON values, like equals: types must agree
//     ("42" is not 42), key order does not matter; absent arguments, null
//     and {} all mean "no arguments". Observed arguments that are not JSON
//     never equal anything.
//   - Order matters: the matched calls are a longest common subsequence of
//     the expected and the observed sequence.
//
// Score: matched / max(len(expected), len(observed)), where matched is the
// length of that longest common subsequence; 1 when nothing was expected
// and nothing was observed. So an exact trace scores 1; one expected call
// replaced by a wrong one scores 0; every missing, wrong, extra or
// misplaced call lowers the score.
//
// The reason lists the calls that did not match, aligned between the
// matched ones: "wrong" (an expected call and an observed call in the same
// place that differ, saying whether group, name or arguments), "missing"
// (expected, not observed there), "extra" (observed, not expected there)
// and "out of order" (a missing call observed elsewhere as an extra one).
// Details hold the counts.
type ActionGroup struct {
	rule *trajectoryRule // nil: the original rule
}

var _ Scorer = (*ActionGroup)(nil)

func newActionGroup(raw json.RawMessage) (*ActionGroup, error) {
	p, err := parseParams(raw, "mode", "arguments", "ignore_paths")
	if err != nil {
		return nil, err
	}
	rule, ok, err := parseTrajectoryRule(p)
	if err != nil || !ok {
		return &ActionGroup{}, err
	}
	return &ActionGroup{rule: &rule}, nil
}

// call is an action with its arguments decoded for comparison.
type call struct {
	Action
	args  any  // decoded arguments; nil stands for "no arguments"
	valid bool // arguments are JSON
}

// Score compares the observed trace with the expected one.
func (c *ActionGroup) Score(_ context.Context, s Sample) (Assessment, error) {
	if s.Actions == nil {
		return Assessment{}, &Error{
			Kind:    "not_instrumented",
			Message: "action_group: the agent reported no action trace (actions is null); report the calls it made, or [] when it made none",
		}
	}
	expected := make([]call, len(s.ExpectedActions))
	for i, a := range s.ExpectedActions {
		ca := newCall(a)
		if problem := expectedProblem(ca); problem != "" {
			return Assessment{}, &Error{
				Kind:    "invalid_expected_actions",
				Message: fmt.Sprintf("action_group: expected action %d %s", i+1, problem),
				Details: map[string]any{"position": i + 1},
			}
		}
		expected[i] = ca
	}
	if c.rule != nil {
		observed := make([]call, len(s.Actions))
		for i, a := range s.Actions {
			observed[i] = newCall(a)
		}
		return c.rule.scoreTrajectory(expected, observed)
	}
	if cells := (len(expected) + 1) * (len(s.Actions) + 1); cells > maxAlignCells {
		return Assessment{}, &Error{
			Kind:    "trace_too_long",
			Message: fmt.Sprintf("action_group: %d expected and %d observed calls are too many to align", len(expected), len(s.Actions)),
		}
	}
	observed := make([]call, len(s.Actions))
	for i, a := range s.Actions {
		observed[i] = newCall(a)
	}
	d := diffCalls(expected, observed)
	denominator := max(len(expected), len(observed))
	score := 1.0
	if denominator > 0 {
		score = float64(d.matched) / float64(denominator)
	}
	return Assessment{Score: score, Reason: d.reason(expected, observed), Details: d.details(len(expected), len(observed))}, nil
}

func newCall(a Action) call {
	c := call{Action: a, valid: true}
	if isNull(a.Arguments) {
		return c
	}
	v, err := jsonvalue.Decode(a.Arguments)
	if err != nil {
		c.valid = false
		return c
	}
	if m, ok := v.(map[string]any); ok && len(m) == 0 {
		v = nil
	}
	c.args = v
	return c
}

func expectedProblem(c call) string {
	switch {
	case c.Group == "" && c.Name == "":
		return "has no group: expected actions need one"
	case c.Group == "":
		return fmt.Sprintf("(%s) has no group: expected actions need one", clip(c.Name))
	case c.Name == "":
		return fmt.Sprintf("in group %s has no name", quote(c.Group))
	case !c.valid:
		return fmt.Sprintf("%s has arguments that are not JSON", clip(c.Group+"/"+c.Name))
	}
	return ""
}

// same reports whether two calls are the same call.
func same(a, b call) bool {
	return a.valid && b.valid && a.Group == b.Group && a.Name == b.Name && jsonvalue.Same(a.args, b.args)
}

// describe renders a call for a reason: group/name and compact arguments,
// clipped ("(no group)" stands for an observed call without one).
func (c call) describe() string {
	group := c.Group
	if group == "" {
		group = "(no group)"
	}
	text := group + "/" + c.Name
	if !isNull(c.Arguments) {
		text += " " + compactJSON(bytes.TrimSpace(c.Arguments))
	}
	return clip(text)
}

// differences names what differs between two calls.
func differences(a, b call) string {
	var parts []string
	if a.Group != b.Group {
		parts = append(parts, "group")
	}
	if a.Name != b.Name {
		parts = append(parts, "name")
	}
	if !a.valid || !b.valid || !jsonvalue.Same(a.args, b.args) {
		parts = append(parts, "arguments")
	}
	if len(parts) == 1 && parts[0] != "arguments" {
		return parts[0] + " differs"
	}
	return strings.Join(parts, " and ") + " differ"
}
