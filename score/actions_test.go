package score

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"testing"
)

// act builds an action; args is JSON text ("" for none).
func act(group, name, args string) Action {
	a := Action{Group: group, Name: name}
	if args != "" {
		a.Arguments = json.RawMessage(args)
	}
	return a
}

func trace(expected, observed []Action) Sample {
	return Sample{ExpectedActions: expected, Actions: observed}
}

func TestActionGroup_Score(t *testing.T) {
	returns := act("support", "lookup_policy", `{"topic": "returns"}`)
	shipping := act("support", "lookup_policy", `{"topic": "shipping"}`)
	order := act("orders", "lookup_order", `{"id": 42}`)
	refund := act("orders", "refund", `{"id": 42, "amount": 10.5}`)
	note := act("crm", "add_note", `{"text": "called"}`)
	none := []Action{}

	runChecks(t, "action_group", []checkCase{
		{name: "exact single call", sample: trace([]Action{returns}, []Action{returns}),
			score: 1, reason: `observed the expected call support/lookup_policy {"topic":"returns"}`},
		{name: "exact sequence", sample: trace([]Action{order, refund, note}, []Action{order, refund, note}),
			score: 1, reason: "observed the 3 expected calls in order"},
		{name: "support example: wrong lookup", sample: trace([]Action{returns}, []Action{shipping}),
			score: 0, reason: `wrong: expected #1 support/lookup_policy {"topic":"returns"}, observed #1 support/lookup_policy {"topic":"shipping"} (arguments differ)`},
		{name: "nothing expected, none observed", sample: trace(nil, none), score: 1, reason: "no calls expected and none observed"},
		{name: "expected, none observed", sample: trace([]Action{order}, none),
			score: 0, reason: `0 of 1 expected calls matched in order among 0 observed (score 0/1); missing: #1 orders/lookup_order {"id":42}`},
		{name: "nothing expected, one observed", sample: trace(nil, []Action{order}), score: 0, reason: `extra: #1 orders/lookup_order`},
		{name: "missing call", sample: trace([]Action{order, refund}, []Action{order}), score: 0.5, reason: "missing: #2 orders/refund"},
		{name: "extra call", sample: trace([]Action{order}, []Action{order, note}), score: 0.5, reason: "extra: #2 crm/add_note"},
		{name: "extra and missing", sample: trace([]Action{order, refund, note}, []Action{order, shipping, refund, note, note}),
			score: 3.0 / 5, reason: "extra: #2 support/lookup_policy"},
		{name: "out of order", sample: trace([]Action{order, refund}, []Action{refund, order}),
			score: 0.5, reason: "out of order: orders/lookup_order"},
		{name: "arguments typed: string is not number", sample: trace([]Action{order}, []Action{act("orders", "lookup_order", `{"id": "42"}`)}),
			score: 0, reason: "(arguments differ)"},
		{name: "arguments key order irrelevant", sample: trace([]Action{refund}, []Action{act("orders", "refund", `{"amount": 10.50, "id": 42}`)}),
			score: 1},
		{name: "no arguments equal empty object and null", sample: trace(
			[]Action{act("a", "ping", ""), act("a", "ping", `{}`), act("a", "ping", `null`)},
			[]Action{act("a", "ping", `{}`), act("a", "ping", `null`), act("a", "ping", "")}), score: 1},
		{name: "group must match", sample: trace([]Action{order}, []Action{act("billing", "lookup_order", `{"id": 42}`)}),
			score: 0, reason: "(group differs)"},
		{name: "observed call without a group matches on name and arguments", sample: trace([]Action{order}, []Action{act("", "lookup_order", `{"id": 42}`)}),
			score: 1},
		{name: "observed call without a group, other arguments", sample: trace([]Action{order}, []Action{act("", "lookup_order", `{"id": 7}`)}),
			score: 0, reason: `observed #1 lookup_order {"id":7} (arguments differ)`},
		{name: "expected call without a group", sample: trace([]Action{act("", "lookup_order", `{"id": 42}`)}, []Action{order}),
			score: 1},
		{name: "name must match", sample: trace([]Action{order}, []Action{act("orders", "find_order", `{"id": 42}`)}),
			score: 0, reason: "(name differs)"},
		{name: "several differences", sample: trace([]Action{order}, []Action{act("crm", "find", `{}`)}),
			score: 0, reason: "(group and name and arguments differ)"},
		{name: "invalid observed arguments never match", sample: trace([]Action{order}, []Action{act("orders", "lookup_order", `{"id": 42`)}),
			score: 0},
		{name: "unicode arguments", sample: trace([]Action{act("geo", "find", `{"city": "東京"}`)}, []Action{act("geo", "find", `{"city": "\u6771\u4eac"}`)}),
			score: 1},
		{name: "untrusted names clipped and escaped", sample: trace([]Action{order}, []Action{act("orders", "x\n"+strings.Repeat("y", 200), "")}),
			score: 0, reason: `x\ny`},
		{name: "not instrumented", sample: trace([]Action{order}, nil), errKind: "not_instrumented"},
		{name: "not instrumented with nothing expected", sample: trace(nil, nil), errKind: "not_instrumented"},
		{name: "expected action without name or group", sample: trace([]Action{act("", "", "")}, none), errKind: "invalid_expected_actions"},
		{name: "expected action without name", sample: trace([]Action{act("orders", "", "")}, none), errKind: "invalid_expected_actions"},
		{name: "expected arguments not JSON", sample: trace([]Action{act("orders", "x", `{`)}, none), errKind: "invalid_expected_actions"},
	})
}

func TestActionGroup_Score_details(t *testing.T) {
	a := act("g", "a", "")
	b := act("g", "b", "")
	c := act("g", "c", "")
	got, err := (&ActionGroup{}).Score(context.Background(), trace([]Action{a, b, c}, []Action{a, c, c, b}))
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]any{"expected": 3, "observed": 4, "matched": 2, "wrong": 0, "missing": 0, "extra": 1, "out_of_order": 1}
	if got, want := fmt.Sprint(got.Details), fmt.Sprint(want); got != want {
		t.Errorf("Details = %s, want %s", got, want)
	}
	if got, want := got.Score, 0.5; got != want {
		t.Errorf("score = %v, want %v", got, want)
	}
}

func TestActionGroup_Score_longLists(t *testing.T) {
	var expected, observed []Action
	for i := range 12 {
		expected = append(expected, act("g", "call", fmt.Sprintf(`{"n": %d}`, i)))
	}
	got, err := (&ActionGroup{}).Score(context.Background(), trace(expected, []Action{}))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(got.Reason, "and 7 more") {
		t.Errorf("reason = %q, want at most five calls listed", got.Reason)
	}
	expected = make([]Action, 1000)
	for i := range expected {
		expected[i] = act("g", "call", "")
	}
	observed = make([]Action, 5000)
	_, err = (&ActionGroup{}).Score(context.Background(), trace(expected, observed))
	var e *Error
	if !errors.As(err, &e) || e.Kind != "trace_too_long" {
		t.Errorf("Score() error = %v, want kind trace_too_long", err)
	}
}

func TestDiffCalls(t *testing.T) {
	// Letters stand for calls; the string is the reason's shape.
	for _, tc := range []struct {
		expected, observed string
		matched            int
		wrong, miss, extra int
		moved              int
	}{
		{"", "", 0, 0, 0, 0, 0},
		{"abc", "abc", 3, 0, 0, 0, 0},
		{"abc", "axc", 2, 1, 0, 0, 0},
		{"abc", "ac", 2, 0, 1, 0, 0},
		{"ac", "abc", 2, 0, 0, 1, 0},
		{"ab", "ba", 1, 0, 0, 0, 1},
		{"abcd", "xy", 0, 2, 2, 0, 0},
		{"a", "xyz", 0, 1, 0, 2, 0},
		{"aaa", "aa", 2, 0, 1, 0, 0},
		{"abc", "baz", 1, 1, 0, 0, 1},
		{"abcd", "dcba", 1, 0, 0, 0, 3},
		{"ab", "bxa", 1, 0, 0, 1, 1},
	} {
		t.Run(tc.expected+"/"+tc.observed, func(t *testing.T) {
			toCalls := func(s string) []call {
				out := []call{}
				for _, r := range s {
					out = append(out, newCall(act("g", string(r), "")))
				}
				return out
			}
			d := diffCalls(toCalls(tc.expected), toCalls(tc.observed))
			got := fmt.Sprint(d.matched, len(d.wrong), len(d.missing), len(d.extra), len(d.moved))
			want := fmt.Sprint(tc.matched, tc.wrong, tc.miss, tc.extra, tc.moved)
			if got != want {
				t.Errorf("matched, wrong, missing, extra, moved = %s, want %s", got, want)
			}
		})
	}
}

func TestCallsMatch(t *testing.T) {
	for _, tc := range []struct {
		name, a, b string
		partial    bool
		want       bool
	}{
		{name: "same call", a: `{"group": "g", "name": "n", "arguments": {"id": 1}}`, b: `{"name": "n", "group": "g", "arguments": {"id": 1}}`, want: true},
		{name: "numbers by exact value", a: `{"group": "g", "name": "n", "arguments": {"id": 1.0}}`, b: `{"group": "g", "name": "n", "arguments": {"id": 1}}`, want: true},
		{name: "no float64 rounding", a: `{"group": "g", "name": "n", "arguments": {"id": 12345678901234567890}}`, b: `{"group": "g", "name": "n", "arguments": {"id": 12345678901234567891}}`},
		{name: "absent, null and {} arguments", a: `{"group": "g", "name": "n"}`, b: `{"group": "g", "name": "n", "arguments": {}}`, want: true},
		{name: "null arguments", a: `{"group": "g", "name": "n", "arguments": null}`, b: `{"group": "g", "name": "n"}`, want: true},
		{name: "other name", a: `{"group": "g", "name": "n"}`, b: `{"group": "g", "name": "m"}`},
		{name: "other group", a: `{"group": "g", "name": "n"}`, b: `{"group": "h", "name": "n"}`},
		{name: "expected without group", a: `{"name": "n"}`, b: `{"group": "h", "name": "n"}`, want: true},
		{name: "observed without group", a: `{"group": "g", "name": "n"}`, b: `{"group": "", "name": "n", "status": "ok"}`, want: true},
		{name: "numeric names", a: `{"group": 1, "name": 2.0}`, b: `{"group": 1.0, "name": 2}`, want: true},
		{name: "partial arguments", a: `{"name": "n", "arguments": {"q": "x"}}`, b: `{"name": "n", "arguments": {"q": "x", "k": 1}}`, partial: true, want: true},
		{name: "exact arguments", a: `{"name": "n", "arguments": {"q": "x"}}`, b: `{"name": "n", "arguments": {"q": "x", "k": 1}}`},
		{name: "invalid arguments", a: `{"group": "g", "name": "n", "arguments": "x"}`, b: `not json`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := CallsMatch(json.RawMessage(tc.a), json.RawMessage(tc.b), tc.partial); got != tc.want {
				t.Errorf("CallsMatch(%s, %s, %v) = %v, want %v", tc.a, tc.b, tc.partial, got, tc.want)
			}
		})
	}
}
