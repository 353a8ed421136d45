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
//   - Every expected action names a name (a group is optional); one that
//     does not makes the metric an error of kind "invalid_expected_actions".
//   - Observed actions of nil (the agent was not instrumented) make the
//     metric an error of kind "not_instrumented"; an empty list honestly
//     means no call was observed.
//   - Two calls are the same call when name and arguments are equal, and
//     their groups are equal when both give one: an expected call without a
//     group, or an observed call without one (as read from spans), matches
//     on name and arguments. Arguments compare as JSON values, like equals: types must agree
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
	case c.Name == "" && c.Group == "":
		return "has no name"
	case c.Name == "":
		return fmt.Sprintf("in group %s has no name", quote(c.Group))
	case !c.valid:
		return fmt.Sprintf("%s has arguments that are not JSON", clip(c.describeName()))
	}
	return ""
}

// same reports whether two calls are the same call.
func same(a, b call) bool {
	return a.valid && b.valid && sameGroup(a.Group, b.Group) && a.Name == b.Name && jsonvalue.Same(a.args, b.args)
}

// sameGroup reports whether two groups agree: equal, or either one unknown.
func sameGroup(a, b string) bool {
	return a == "" || b == "" || a == b
}

// describeName is group/name, or the name alone without a group.
func (c call) describeName() string {
	if c.Group == "" {
		return c.Name
	}
	return c.Group + "/" + c.Name
}

// describe renders a call for a reason: group/name (the name alone without
// a group) and compact arguments, clipped.
func (c call) describe() string {
	text := c.describeName()
	if !isNull(c.Arguments) {
		text += " " + compactJSON(bytes.TrimSpace(c.Arguments))
	}
	return clip(text)
}

// differences names what differs between two calls.
func differences(a, b call) string {
	var parts []string
	if !sameGroup(a.Group, b.Group) {
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

// CallsMatch reports whether an observed call satisfies an expected one,
// both given as stored JSON objects, under action_group's rules: names
// equal, groups equal when both give one, and arguments equal as JSON
// values or, when partial, holding every expected key with a matching
// value. Stored names and groups may be any JSON value (compared by
// meaning); anything that is not a call never matches.
func CallsMatch(expected, observed json.RawMessage, partial bool) bool {
	e, ok1 := storedCall(expected)
	o, ok2 := storedCall(observed)
	if !ok1 || !ok2 || e.name == nil || !jsonvalue.Same(e.name, o.name) {
		return false
	}
	if e.group != nil && o.group != nil && !jsonvalue.Same(e.group, o.group) {
		return false
	}
	return trajectoryRule{partial: partial}.matches(e.call, o.call)
}

// stored is a call read back from evidence: group and name as JSON values.
type stored struct {
	call
	group, name any // nil: absent, null or "" (a group that is unknown)
}

func storedCall(raw json.RawMessage) (stored, bool) {
	var c struct {
		Group, Name json.RawMessage
		Arguments   json.RawMessage
	}
	if json.Unmarshal(raw, &c) != nil {
		return stored{}, false
	}
	s := stored{call: newCall(Action{Arguments: c.Arguments})}
	for _, f := range []struct {
		raw json.RawMessage
		to  *any
	}{{c.Group, &s.group}, {c.Name, &s.name}} {
		if isNull(f.raw) {
			continue
		}
		v, err := jsonvalue.Decode(f.raw)
		if err != nil {
			return stored{}, false
		}
		if v != "" {
			*f.to = v
		}
	}
	return s, true
}
