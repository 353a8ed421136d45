package score

import (
	"strings"
	"testing"
)

// ok and failed mark a call's outcome, as calls taken from spans carry it.
func withStatus(a Action, status string) Action {
	a.Status = status
	return a
}

func TestActionGroup_modes(t *testing.T) {
	search := act("kb", "search", `{"q": "returns", "limit": 5}`)
	searchNoGroup := act("", "search", `{"q": "returns", "limit": 5}`)
	searchOther := act("kb", "search", `{"q": "shipping"}`)
	fetch := act("kb", "fetch", `{"id": 7}`)
	email := act("mail", "send", `{"to": "a@b.c"}`)
	none := []Action{}
	e := func(a ...Action) []Action { return a }

	runChecks(t, "action_group", []checkCase{
		// strict
		{name: "strict exact", params: `{"mode": "strict"}`, sample: trace(e(search, fetch), e(search, fetch)), score: 1, reason: "2 of 2 expected"},
		{name: "strict swapped", params: `{"mode": "strict"}`, sample: trace(e(search, fetch), e(fetch, search)), score: 0, reason: "missing: #1"},
		{name: "strict extra at end", params: `{"mode": "strict"}`, sample: trace(e(search), e(search, email)), score: 0.5, reason: "extra: #2 mail/send"},
		{name: "strict empty both", params: `{"mode": "strict"}`, sample: trace(nil, none), score: 1, reason: "0 of 0"},
		{name: "strict nil actions", params: `{"mode": "strict"}`, sample: trace(e(search), nil), errKind: "not_instrumented"},
		{name: "strict empty observed", params: `{"mode": "strict"}`, sample: trace(e(search), none), score: 0, reason: "missing"},
		{name: "unknown group matches by name", params: `{"mode": "strict"}`, sample: trace(e(search), e(searchNoGroup)), score: 1},
		{name: "other group does not match", params: `{"mode": "strict"}`, sample: trace(e(search), e(act("web", "search", `{"q": "returns", "limit": 5}`))), score: 0},
		// in_order
		{name: "in_order with calls between", params: `{"mode": "in_order"}`, sample: trace(e(search, fetch), e(search, email, fetch)), score: 1},
		{name: "in_order reversed", params: `{"mode": "in_order"}`, sample: trace(e(search, fetch), e(fetch, search)), score: 0.5},
		{name: "in_order nothing expected", params: `{"mode": "in_order"}`, sample: trace(nil, e(email)), score: 1},
		{name: "in_order duplicate expected needs two calls", params: `{"mode": "in_order"}`, sample: trace(e(search, search), e(search)), score: 0.5},
		// unordered
		{name: "unordered swapped", params: `{"mode": "unordered"}`, sample: trace(e(search, fetch), e(fetch, search)), score: 1},
		{name: "unordered extra", params: `{"mode": "unordered"}`, sample: trace(e(search, fetch), e(fetch, search, email)), score: 2.0 / 3, reason: "extra: #3"},
		{name: "unordered duplicates count", params: `{"mode": "unordered"}`, sample: trace(e(search, search), e(search)), score: 0.5},
		{name: "unordered empty both", params: `{"mode": "unordered"}`, sample: trace(e(), none), score: 1},
		// subset / superset
		{name: "subset fewer calls", params: `{"mode": "subset"}`, sample: trace(e(search, fetch), e(fetch)), score: 1},
		{name: "subset extra call", params: `{"mode": "subset"}`, sample: trace(e(search), e(search, email)), score: 0.5, reason: "extra: #2"},
		{name: "subset no calls", params: `{"mode": "subset"}`, sample: trace(e(search), none), score: 1},
		{name: "superset extra ok", params: `{"mode": "superset"}`, sample: trace(e(search), e(email, search)), score: 1},
		{name: "superset missing", params: `{"mode": "superset"}`, sample: trace(e(search, fetch), e(search)), score: 0.5, reason: "missing: #2 kb/fetch"},
		{name: "superset nothing expected", params: `{"mode": "superset"}`, sample: trace(nil, none), score: 1},
		// arguments
		{name: "exact args differ", params: `{"mode": "unordered"}`, sample: trace(e(act("kb", "search", `{"q": "returns"}`)), e(search)), score: 0},
		{name: "partial args subset", params: `{"mode": "unordered", "arguments": "partial"}`, sample: trace(e(act("kb", "search", `{"q": "returns"}`)), e(search)), score: 1},
		{name: "partial args wrong value", params: `{"mode": "unordered", "arguments": "partial"}`, sample: trace(e(act("kb", "search", `{"q": "returns"}`)), e(searchOther)), score: 0},
		{name: "partial nested", params: `{"arguments": "partial"}`, sample: trace(e(act("kb", "q", `{"f": {"a": 1}}`)), e(act("kb", "q", `{"f": {"a": 1, "b": 2}, "x": 3}`))), score: 1},
		{name: "partial array length differs", params: `{"arguments": "partial"}`, sample: trace(e(act("kb", "q", `{"ids": [1]}`)), e(act("kb", "q", `{"ids": [1, 2]}`))), score: 0},
		{name: "partial types must agree", params: `{"arguments": "partial"}`, sample: trace(e(act("kb", "q", `{"id": "7"}`)), e(act("kb", "q", `{"id": 7}`))), score: 0},
		{name: "ignore path", params: `{"ignore_paths": ["limit"]}`, sample: trace(e(act("kb", "search", `{"q": "returns", "limit": 1}`)), e(search)), score: 1},
		{name: "ignore nested wildcard path", params: `{"ignore_paths": ["$.items[*].ts"]}`,
			sample: trace(e(act("kb", "put", `{"items": [{"id": 1, "ts": 1}]}`)), e(act("kb", "put", `{"items": [{"id": 1, "ts": 99}]}`))), score: 1},
		{name: "ignore path leaves others", params: `{"ignore_paths": ["items.0.ts"]}`,
			sample: trace(e(act("kb", "put", `{"items": [{"id": 1, "ts": 1}]}`)), e(act("kb", "put", `{"items": [{"id": 2, "ts": 99}]}`))), score: 0},
		{name: "ignored everything equals no arguments", params: `{"ignore_paths": ["q", "limit"]}`, sample: trace(e(act("kb", "search", "")), e(search)), score: 1},
		{name: "null and {} arguments are none", params: `{"mode": "strict"}`, sample: trace(e(act("kb", "f", "null")), e(act("kb", "f", "{}"))), score: 1},
		{name: "observed non-JSON arguments never match", params: `{"mode": "unordered"}`, sample: trace(e(fetch), e(act("kb", "fetch", `{bad`))), score: 0},
		{name: "invalid expected action", params: `{"mode": "unordered"}`, sample: trace(e(act("g", "", "")), none), errKind: "invalid_expected_actions"},
	})
}

// A strict expected call must not lose its only match to a looser one.
func TestActionGroup_unorderedMaximumMatching(t *testing.T) {
	loose := act("kb", "search", `{}`)
	strict := act("kb", "search", `{"q": "a"}`)
	runChecks(t, "action_group", []checkCase{
		{name: "augmenting path", params: `{"mode": "unordered", "arguments": "partial"}`,
			sample: trace([]Action{loose, strict}, []Action{act("", "search", `{"q": "a"}`), act("", "search", `{"q": "b"}`)}), score: 1},
	})
}

// Absent mode params keep the original rule: the same score and reason.
func TestActionGroup_noParamsKeepsOriginalRule(t *testing.T) {
	a, b := act("g", "a", ""), act("g", "b", "")
	for _, params := range []string{"", "null", "{}"} {
		runChecks(t, "action_group", []checkCase{
			{name: "swapped " + params, params: params, sample: trace([]Action{a, b}, []Action{b, a}), score: 0.5, reason: "1 of 2 expected calls matched in order among 2 observed"},
		})
	}
}

func TestTrajectoryChecks(t *testing.T) {
	search := act("", "search", `{"q": 1}`)
	search2 := act("", "search", `{"q": 2}`)
	del := act("", "delete", "")
	none := []Action{}
	obs := func(a ...Action) Sample { return Sample{Actions: a} }
	emptySample := Sample{Actions: none}

	runChecks(t, "tool_used", []checkCase{
		{name: "used once", params: `{"tools": ["search"]}`, sample: obs(search), score: 1},
		{name: "not used", params: `{"tools": ["search", "delete"]}`, sample: obs(search), score: 0.5, reason: "delete called 0 times"},
		{name: "too many", params: `{"tools": ["search"], "max": 1}`, sample: obs(search, search2), score: 0, reason: "search called 2 times"},
		{name: "min zero max zero is forbidden", params: `{"tools": ["delete"], "min": 0, "max": 0}`, sample: obs(search), score: 1},
		{name: "empty trace", params: `{"tools": ["search"]}`, sample: emptySample, score: 0},
		{name: "nil trace", params: `{"tools": ["search"]}`, sample: Sample{}, errKind: "not_instrumented"},
	})
	runChecks(t, "tool_not_used", []checkCase{
		{name: "clean", params: `{"tools": ["delete"]}`, sample: obs(search), score: 1},
		{name: "forbidden used", params: `{"tools": ["delete"]}`, sample: obs(search, del), score: 0, reason: "delete (1 times)"},
		{name: "empty trace", params: `{"tools": ["delete"]}`, sample: emptySample, score: 1},
		{name: "nil trace", params: `{"tools": ["delete"]}`, sample: Sample{}, errKind: "not_instrumented"},
	})
	runChecks(t, "step_budget", []checkCase{
		{name: "within", params: `{"max": 2}`, sample: obs(search, del), score: 1},
		{name: "over", params: `{"max": 1}`, sample: obs(search, del), score: 0, reason: "2 calls exceed the budget of 1"},
		{name: "zero budget empty", params: `{"max": 0}`, sample: emptySample, score: 1},
		{name: "nil trace", params: `{"max": 0}`, sample: Sample{}, errKind: "not_instrumented"},
	})
	runChecks(t, "tool_loop", []checkCase{
		{name: "no repeat", sample: obs(search, search2, search), score: 1, reason: "longest run 1"},
		{name: "two in a row allowed", sample: obs(search, search), score: 1},
		{name: "three in a row", sample: obs(del, search, search, search), score: 0, reason: "called 3 times in a row from call #2"},
		{name: "different arguments are not a loop", sample: obs(search, search2, search, search2), score: 1},
		{name: "strict max", params: `{"max_repeats": 1}`, sample: obs(del, del), score: 0},
		{name: "empty", sample: emptySample, score: 1},
		{name: "nil trace", sample: Sample{}, errKind: "not_instrumented"},
	})
	runChecks(t, "tool_success", []checkCase{
		{name: "all ok", sample: obs(withStatus(search, StatusOK), withStatus(del, StatusOK)), score: 1, reason: "all 2 calls succeeded"},
		{name: "one failed", sample: obs(withStatus(search, StatusOK), withStatus(del, StatusError)), score: 0.5, reason: "#2 delete"},
		{name: "status unknown", sample: obs(search), errKind: KindMissingInput},
		{name: "empty", sample: emptySample, score: 1},
		{name: "nil trace", sample: Sample{}, errKind: "not_instrumented"},
	})
}

func TestTraceChecks(t *testing.T) {
	tr := func(spans ...Span) Sample { return Sample{Trace: &Trace{Spans: spans}} }
	chat := Span{Name: "chat gpt-4o", DurationMS: 100}
	slowChat := Span{Name: "chat gpt-4o", DurationMS: 900}
	tool := Span{Name: "execute_tool search", DurationMS: 10}
	failed := Span{Name: "execute_tool delete", DurationMS: 5, Error: true}

	runChecks(t, "span_count", []checkCase{
		{name: "default min 1", params: `{"pattern": "chat *"}`, sample: tr(chat), score: 1},
		{name: "none match", params: `{"pattern": "chat *"}`, sample: tr(tool), score: 0, reason: "0 spans match"},
		{name: "too many", params: `{"pattern": "execute_tool *", "max": 1}`, sample: tr(tool, failed), score: 0},
		{name: "? matches one", params: `{"pattern": "chat gpt-?"}`, sample: tr(chat), score: 0},
		{name: "regexp characters are literal", params: `{"pattern": "chat gpt.4o"}`, sample: tr(chat), score: 0},
		{name: "empty trace zero min", params: `{"min": 0, "max": 0}`, sample: tr(), score: 1},
		{name: "not traced", params: `{}`, sample: Sample{}, errKind: "not_traced"},
	})
	runChecks(t, "span_duration", []checkCase{
		{name: "max within", params: `{"pattern": "chat*", "max_ms": 1000}`, sample: tr(chat, slowChat), score: 1},
		{name: "max over", params: `{"pattern": "chat*", "max_ms": 500}`, sample: tr(chat, slowChat), score: 0, reason: "900.0 ms, over"},
		{name: "p50 within", params: `{"pattern": "chat*", "max_ms": 500, "percentile": 50}`, sample: tr(chat, slowChat), score: 1, reason: "p50 of 2 spans"},
		{name: "no match", params: `{"pattern": "nope", "max_ms": 1}`, sample: tr(chat), errKind: KindMissingInput},
		{name: "not traced", params: `{"max_ms": 1}`, sample: Sample{}, errKind: "not_traced"},
	})
	runChecks(t, "error_spans", []checkCase{
		{name: "none allowed, none", sample: tr(chat, tool), score: 1},
		{name: "none allowed, one", sample: tr(chat, failed), score: 0, reason: "1 of 2 spans"},
		{name: "count allowed", params: `{"max_count": 1}`, sample: tr(failed), score: 1},
		{name: "share over", params: `{"pattern": "execute_tool *", "max_share": 0.4}`, sample: tr(chat, tool, failed), score: 0, reason: "share 0.5"},
		{name: "share within", params: `{"max_share": 0.5}`, sample: tr(chat, tool, failed), score: 1},
		{name: "share of no spans", params: `{"max_share": 0}`, sample: tr(), score: 1},
		{name: "not traced", sample: Sample{}, errKind: "not_traced"},
	})
}

// TestObservedCalls_hint: with tracing on, a missing action trace says why
// (no span arrived, or none was a tool call) instead of "run with --traces".
func TestObservedCalls_hint(t *testing.T) {
	for _, tc := range []struct {
		name      string
		trace     *Trace
		want, not string
	}{
		{name: "tracing off", want: "run with --traces"},
		{name: "tracing on, no span", trace: &Trace{}, want: "no span of this case's trace arrived", not: "run with --traces"},
		{name: "tracing on, no tool span", trace: &Trace{Spans: []Span{{Name: "chat"}}}, want: "none of its spans is a tool call", not: "run with --traces"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := observedCalls("tool_used", Sample{Trace: tc.trace})
			if err == nil || !strings.Contains(err.Error(), tc.want) || (tc.not != "" && strings.Contains(err.Error(), tc.not)) {
				t.Errorf("error = %v, want %q", err, tc.want)
			}
		})
	}
}
