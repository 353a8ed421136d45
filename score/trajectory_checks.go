package score

import (
	"context"
	"encoding/json"
	"fmt"
)

// The trajectory checks read the observed actions (Sample.Actions): the
// calls the agent reported, or the calls taken from its spans. Observed
// actions of nil (nothing instrumented) make each of them an error of kind
// "not_instrumented", never a pass; [] is an honest empty trace.
//
//	tool_used      ToolUsed      each named tool called between min and max times
//	tool_not_used  ToolNotUsed   none of the forbidden tools called
//	step_budget    StepBudget    at most max calls in all
//	tool_loop      ToolLoop      no call repeated (same name and arguments) more than max_repeats times in a row
//	tool_success   ToolSuccess   every call succeeded
func addTrajectoryChecks(r Registry) {
	r["tool_used"] = define(newToolUsed)
	r["tool_not_used"] = define(newToolNotUsed)
	r["step_budget"] = define(newStepBudget)
	r["tool_loop"] = define(newToolLoop)
	r["tool_success"] = define(newToolSuccess)
}

// observedCalls returns the observed actions, or the not_instrumented
// error that names the check.
func observedCalls(check string, s Sample) ([]Action, error) {
	switch {
	case s.Actions == nil && s.Trace != nil && len(s.Trace.Spans) == 0:
		return nil, &Error{Kind: "not_instrumented",
			Message: check + ": no action trace: tracing is on but no span of this case's trace arrived; the agent must export its spans to OTEL_EXPORTER_OTLP_ENDPOINT (a service started apart: the --traces-listen address) inside the trace it is given (TRACEPARENT, or the traceparent header of an http agent); an llm agent is not traced"}
	case s.Actions == nil && s.Trace != nil:
		return nil, &Error{Kind: "not_instrumented",
			Message: check + ": no action trace: the agent reported no calls and none of its spans is a tool call its framework's conventions name (see docs/traces.md)"}
	case s.Actions == nil:
		return nil, &Error{Kind: "not_instrumented",
			Message: check + ": no action trace (actions is null): have the agent report its calls, or run with --traces so its spans are read"}
	}
	return s.Actions, nil
}

// countRange reads the optional "min" (default 1) and "max" (absent: no
// limit) of a count check; max may not be below min.
func (p params) countRange() (lo, hi int, hasMax bool, err error) {
	lo = 1
	if n, ok, err := p.optionalCount("min"); err != nil {
		return 0, 0, false, err
	} else if ok {
		lo = n
	}
	if hi, hasMax, err = p.optionalCount("max"); err != nil {
		return 0, 0, false, err
	}
	if hasMax && hi < lo {
		return 0, 0, false, fmt.Errorf("%w: param \"max\" (%d) is below \"min\" (%d)", ErrInvalidParams, hi, lo)
	}
	return lo, hi, hasMax, nil
}

// optionalCount reads an optional non-negative integer.
func (p params) optionalCount(name string) (int, bool, error) {
	if !p.has(name) {
		return 0, false, nil
	}
	n, err := p.count(name)
	return n, err == nil, err
}

// ToolUsed ("tool_used") passes when each of "tools" was called at least
// "min" (default 1) and at most "max" (default: no limit) times. Score:
// the fraction of tools within bounds. Group is ignored: tools are named.
type ToolUsed struct {
	tools    []string
	min, max int
	hasMax   bool
}

func newToolUsed(raw json.RawMessage) (*ToolUsed, error) {
	p, err := parseParams(raw, "tools", "min", "max")
	if err != nil {
		return nil, err
	}
	t := &ToolUsed{}
	var ok bool
	if t.tools, ok, err = p.texts("tools"); err != nil {
		return nil, err
	} else if !ok {
		return nil, missingParam("tools", "a non-empty array of tool names")
	}
	if t.min, t.max, t.hasMax, err = p.countRange(); err != nil {
		return nil, err
	}
	return t, nil
}

func countCalls(actions []Action) map[string]int {
	n := map[string]int{}
	for _, a := range actions {
		n[a.Name]++
	}
	return n
}

// Score counts the calls of each tool.
func (t *ToolUsed) Score(_ context.Context, s Sample) (Assessment, error) {
	actions, err := observedCalls("tool_used", s)
	if err != nil {
		return Assessment{}, err
	}
	counts := countCalls(actions)
	var bad []string
	for _, name := range t.tools {
		c := counts[name]
		if c < t.min || (t.hasMax && c > t.max) {
			bad = append(bad, fmt.Sprintf("%s called %d times", clip(name), c))
		}
	}
	want := fmt.Sprintf("at least %d", t.min)
	if t.hasMax {
		want = fmt.Sprintf("%d to %d", t.min, t.max)
	}
	ok := len(t.tools) - len(bad)
	a := Assessment{Score: float64(ok) / float64(len(t.tools)), Details: map[string]any{"counts": namedCounts(counts, t.tools)}}
	if len(bad) == 0 {
		a.Reason = fmt.Sprintf("each of %d tools called %s times", len(t.tools), want)
	} else {
		a.Reason = fmt.Sprintf("%d of %d tools called %s times; %s", ok, len(t.tools), want, listCalls(bad, func(s string) string { return s }))
	}
	return a, nil
}

// namedCounts keeps the counts of the named tools (0 included).
func namedCounts(counts map[string]int, names []string) map[string]int {
	out := make(map[string]int, len(names))
	for _, n := range names {
		out[n] = counts[n]
	}
	return out
}

// ToolNotUsed ("tool_not_used") passes when none of the forbidden "tools"
// was called: 1 or 0.
type ToolNotUsed struct{ tools []string }

func newToolNotUsed(raw json.RawMessage) (*ToolNotUsed, error) {
	p, err := parseParams(raw, "tools")
	if err != nil {
		return nil, err
	}
	tools, ok, err := p.texts("tools")
	if err != nil {
		return nil, err
	}
	if !ok {
		return nil, missingParam("tools", "a non-empty array of tool names")
	}
	return &ToolNotUsed{tools: tools}, nil
}

// Score looks for a forbidden call.
func (t *ToolNotUsed) Score(_ context.Context, s Sample) (Assessment, error) {
	actions, err := observedCalls("tool_not_used", s)
	if err != nil {
		return Assessment{}, err
	}
	counts := countCalls(actions)
	var used []string
	for _, name := range t.tools {
		if counts[name] > 0 {
			used = append(used, fmt.Sprintf("%s (%d times)", clip(name), counts[name]))
		}
	}
	if len(used) > 0 {
		return Assessment{Score: 0, Reason: "forbidden tools called: " + listCalls(used, func(s string) string { return s })}, nil
	}
	return Assessment{Score: 1, Reason: fmt.Sprintf("none of %d forbidden tools called (%d calls observed)", len(t.tools), len(actions))}, nil
}

// StepBudget ("step_budget") passes when the trace has at most "max"
// calls: 1 or 0.
type StepBudget struct{ max int }

func newStepBudget(raw json.RawMessage) (*StepBudget, error) {
	p, err := parseParams(raw, "max")
	if err != nil {
		return nil, err
	}
	n, err := p.count("max")
	if err != nil {
		return nil, err
	}
	return &StepBudget{max: n}, nil
}

// Score counts the calls.
func (b *StepBudget) Score(_ context.Context, s Sample) (Assessment, error) {
	actions, err := observedCalls("step_budget", s)
	if err != nil {
		return Assessment{}, err
	}
	d := map[string]any{"steps": len(actions), "max": b.max}
	if len(actions) > b.max {
		return Assessment{Score: 0, Reason: fmt.Sprintf("%d calls exceed the budget of %d", len(actions), b.max), Details: d}, nil
	}
	return Assessment{Score: 1, Reason: fmt.Sprintf("%d calls within the budget of %d", len(actions), b.max), Details: d}, nil
}

// ToolLoop ("tool_loop") fails when one call (same group, name and
// arguments as JSON values) comes more than "max_repeats" (default 2)
// times in a row: the agent is looping. 1 or 0.
type ToolLoop struct{ maxRepeats int }

func newToolLoop(raw json.RawMessage) (*ToolLoop, error) {
	p, err := parseParams(raw, "max_repeats")
	if err != nil {
		return nil, err
	}
	l := &ToolLoop{maxRepeats: 2}
	if n, ok, err := p.optionalCount("max_repeats"); err != nil {
		return nil, err
	} else if ok {
		if n < 1 {
			return nil, paramError("max_repeats", "an integer >= 1", p["max_repeats"])
		}
		l.maxRepeats = n
	}
	return l, nil
}

// Score finds the longest run of one call.
func (l *ToolLoop) Score(_ context.Context, s Sample) (Assessment, error) {
	actions, err := observedCalls("tool_loop", s)
	if err != nil {
		return Assessment{}, err
	}
	longest, at, run := 0, 0, 0
	var prev call
	for i, a := range actions {
		c := newCall(a)
		if i > 0 && same(prev, c) {
			run++
		} else {
			run = 1
		}
		if run > longest {
			longest, at = run, i-run+1
		}
		prev = c
	}
	d := map[string]any{"longest_repeat": longest, "max_repeats": l.maxRepeats}
	if longest > l.maxRepeats {
		return Assessment{Score: 0, Details: d, Reason: fmt.Sprintf("loop: %s called %d times in a row from call #%d (at most %d allowed)",
			newCall(actions[at]).describe(), longest, at+1, l.maxRepeats)}, nil
	}
	return Assessment{Score: 1, Details: d, Reason: fmt.Sprintf("no call repeated more than %d times in a row (longest run %d)", l.maxRepeats, longest)}, nil
}

// ToolSuccess ("tool_success") scores the fraction of calls that
// succeeded. A call's status comes from its span ("ok" or "error"); a
// call without one (the agent reported it without a status) cannot be
// judged, so a trace with such a call is an error of kind
// "missing_input". An empty trace scores 1.
type ToolSuccess struct{}

func newToolSuccess(raw json.RawMessage) (*ToolSuccess, error) {
	if _, err := parseParams(raw); err != nil {
		return nil, err
	}
	return &ToolSuccess{}, nil
}

// Score counts failed calls.
func (ToolSuccess) Score(_ context.Context, s Sample) (Assessment, error) {
	actions, err := observedCalls("tool_success", s)
	if err != nil {
		return Assessment{}, err
	}
	var failed []string
	unknown := 0
	for i, a := range actions {
		switch a.Status {
		case StatusOK:
		case StatusError:
			failed = append(failed, fmt.Sprintf("#%d %s", i+1, newCall(a).describe()))
		default:
			unknown++
		}
	}
	if unknown > 0 {
		return Assessment{}, &Error{Kind: KindMissingInput,
			Message: fmt.Sprintf("tool_success: %d of %d calls have no status (%s)", unknown, len(actions), statusHint(s))}
	}
	if len(actions) == 0 {
		return Assessment{Score: 1, Reason: "no calls observed"}, nil
	}
	ok := len(actions) - len(failed)
	a := Assessment{Score: float64(ok) / float64(len(actions)), Details: map[string]any{"calls": len(actions), "failed": len(failed)}}
	if len(failed) == 0 {
		a.Reason = fmt.Sprintf("all %d calls succeeded", len(actions))
	} else {
		a.Reason = fmt.Sprintf("%d of %d calls failed: %s", len(failed), len(actions), listCalls(failed, func(s string) string { return s }))
	}
	return a, nil
}

// statusHint says where calls get a status from, for a run with or without
// tracing.
func statusHint(s Sample) string {
	if s.Trace != nil {
		return `the agent reported its calls without one: report "status" with each call, or leave the calls to its spans`
	}
	return `report "status" with each call, or run with --traces so calls are taken from spans`
}
