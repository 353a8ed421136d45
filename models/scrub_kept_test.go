package models

import (
	"bytes"
	"encoding/json"
	"reflect"
	"testing"

	"github.com/agentevals-go/agentevals/sanitize"
)

// TestScrub_KeptTraceAsJSONScrubs: a case whose metadata SetMetadata
// encoded (the trace record checked as typed strings) scrubs to the very
// bytes and report of the same column scrubbed as JSON, whatever holds a
// credential, and only a clean trace takes the typed check.
func TestScrub_KeptTraceAsJSONScrubs(t *testing.T) {
	const key = "sk-abcdefghijklmnop1234"
	span := func(name string, attrs map[string]string) TraceSpan {
		return TraceSpan{Name: name, SpanID: "00f067aa0ba902b7", Status: "ok", Attributes: SpanAttrsOf(attrs), DurationMS: 1.5}
	}
	base := func() *CaseTrace {
		in, out := int64(707), int64(42)
		return &CaseTrace{TraceID: "4bf92f3577b34da6a3ce929d0e0e4736", ModelCalls: 1, SpansReceived: 2, InputTokens: &in, OutputTokens: &out,
			SpanActions: JSON(`[{"name":"lookup_order","arguments":{"id":3},"result":"<b>shipped</b> & done"}]`),
			Spans: []TraceSpan{
				span("chat gpt-4o-mini", map[string]string{"gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": "707",
					"gen_ai.output.messages": `[{"role":"assistant","parts":[{"type":"text","content":"Order 42 ships <soon> \u2028"}]}]`}),
				span("execute_tool lookup_order", map[string]string{"gen_ai.tool.call.arguments": `{"id": 3}`}),
			}}
	}
	tests := []struct {
		name  string
		edit  func(m *CaseMetadata)
		pii   bool
		typed bool // the typed check alone decides
	}{
		{name: "clean", typed: true, edit: func(m *CaseMetadata) {}},
		{name: "clean with pii policy", pii: true, typed: true, edit: func(m *CaseMetadata) {}},
		{name: "key in an attribute", edit: func(m *CaseMetadata) { m.Trace.Spans[1].Attributes.Set("gen_ai.tool.call.result", "use "+key) }},
		{name: "value under a sensitive attribute", edit: func(m *CaseMetadata) { m.Trace.Spans[0].Attributes.Set("api_key", "abc") }},
		{name: "usage count as text", typed: true, edit: func(m *CaseMetadata) { m.Trace.Spans[0].Attributes.Set("llm.token_count.prompt", "12") }},
		{name: "key in a span name", edit: func(m *CaseMetadata) { m.Trace.Spans[0].Name = key }},
		{name: "key in a note", edit: func(m *CaseMetadata) { m.Trace.Notes = []string{"cut " + key} }},
		{name: "no span actions", typed: true, edit: func(m *CaseMetadata) { m.Trace.SpanActions = nil }},
		{name: "key in span actions", edit: func(m *CaseMetadata) {
			m.Trace.SpanActions = JSON(`[{"name":"login","arguments":{"password":"hunter2"}}]`)
		}},
		{name: "NUL in an attribute", edit: func(m *CaseMetadata) { m.Trace.Spans[0].Attributes.Set("x", "a\x00b") }},
		{name: "email with pii policy", pii: true, edit: func(m *CaseMetadata) { m.Trace.Spans[0].StatusMessage = "mail jane.doe@example.com" }},
		{name: "key beside the trace", edit: func(m *CaseMetadata) {
			m.Extra = map[string]json.RawMessage{"stderr": json.RawMessage(`"token=abc123def456"`)}
		}},
		{name: "lone surrogate beside the trace", edit: func(m *CaseMetadata) { m.Extra = map[string]json.RawMessage{"z": json.RawMessage(`"\ud800"`)} }},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			p := sanitize.Policy{PII: tt.pii}
			meta := CaseMetadata{JudgeUsage: JudgeUsage{}, Trace: base(), Extra: map[string]json.RawMessage{"agent": json.RawMessage(`"<ok>"`)}}
			tt.edit(&meta)
			var kept CaseResult
			if err := kept.SetMetadata(meta); err != nil {
				t.Fatal(err)
			}
			if want, err := meta.Encode(); err != nil || !bytes.Equal(kept.ResponseMetadata, want) {
				t.Fatalf("SetMetadata wrote %s, Encode %s (%v)", kept.ResponseMetadata, want, err)
			}
			if got := kept.keptMetadataClean(p); got != tt.typed {
				t.Errorf("typed check = %v, want %v", got, tt.typed)
			}
			kept.Actions = append(JSON(nil), meta.Trace.SpanActions...) // the actions read from spans
			plain := CaseResult{ResponseMetadata: append(JSON(nil), kept.ResponseMetadata...), Actions: append(JSON(nil), kept.Actions...)}
			gotRep, wantRep := kept.Scrub(p), plain.Scrub(p)
			if !bytes.Equal(kept.ResponseMetadata, plain.ResponseMetadata) || !bytes.Equal(kept.Actions, plain.Actions) || !reflect.DeepEqual(gotRep, wantRep) {
				t.Errorf("kept scrub: %s %s %+v\nJSON scrub: %s %s %+v", kept.ResponseMetadata, kept.Actions, gotRep, plain.ResponseMetadata, plain.Actions, wantRep)
			}
		})
	}
}

// TestCleaner_readsEveryTraceField: the typed check knows every field of
// the trace record (a field it cannot read turns the shortcut off).
func TestCleaner_readsEveryTraceField(t *testing.T) {
	c := &cleaner{}
	for _, typ := range []reflect.Type{reflect.TypeOf(CaseTrace{}), reflect.TypeOf(TraceSpan{})} {
		if !c.plan(typ).ok {
			t.Errorf("%s has a field the typed check cannot read", typ)
		}
	}
	for _, typ := range []reflect.Type{reflect.TypeOf(struct{ A any }{}), reflect.TypeOf(struct {
		N int `json:"n,string"`
	}{}), reflect.TypeOf(struct{ *CaseRepeats }{}), reflect.TypeOf(struct{ M map[string]int }{})} {
		if c.plan(typ).ok {
			t.Errorf("%s: the typed check claims to read it", typ)
		}
	}
}
