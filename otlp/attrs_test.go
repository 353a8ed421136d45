package otlp

import (
	"fmt"
	"math"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Every mapped key is found by its id, across the arena's blocks, for
// spans that each keep all of them.
func TestMappedArena_acrossBlocks(t *testing.T) {
	keys := map[string]keyID{}
	for _, k := range []string{attrOperation, attrToolName, attrToolCallID, attrToolArgs, attrToolResult, attrInputTok, attrOutputTok,
		attrErrorType, attrGroup, attrAIOperation, attrAIToolName, "ai.toolCall.args", "ai.toolCall.input", "ai.toolCall.result",
		"ai.toolCall.output", "ai.usage.inputTokens", "ai.usage.outputTokens", "ai.usage.promptTokens", "ai.usage.completionTokens",
		attrOIKind, "tool.name", "input.value", "output.value", "llm.token_count.prompt", "llm.token_count.completion", attrMastraType} {
		keys[k] = idOf(k)
	}
	ids := map[keyID]bool{}
	for k, id := range keys {
		if id == noKey || ids[id] {
			t.Fatalf("%s: id %d repeated or none", k, id)
		}
		ids[id] = true
	}
	s := NewSpans(pcommon.TraceID{1}, Limits{MaxAttributes: 1, MaxTraceBytes: 1 << 30})
	const n = 300
	for i := range n {
		sp := ptrace.NewSpan()
		for k := range keys {
			sp.Attributes().PutStr(k, fmt.Sprintf("%s=%d", k, i))
		}
		sp.Attributes().PutStr(attrOperation, fmt.Sprintf("op=%d", i)) // set twice: the last counts
		sp.Attributes().PutStr("unmapped", "x")
		s.Add(sp, "")
	}
	if len(s.c.spans) != n {
		t.Fatalf("%d spans kept", len(s.c.spans))
	}
	col := s.Collected()
	for i := range col.spans {
		sp := col.kept(i)
		for k, id := range keys {
			want := fmt.Sprintf("%s=%d", k, i)
			if id == keyOperation {
				want = fmt.Sprintf("op=%d", i)
			}
			if got := sp.attrs.get(id); got != want || sp.attrs.list.Value(k) != want {
				t.Fatalf("span %d %s = %q (list %q), want %q", i, k, got, sp.attrs.list.Value(k), want)
			}
		}
		if _, ok := sp.attrs.list.Get("unmapped"); ok || sp.droppedAttrs != 1 {
			t.Fatalf("span %d: the unmapped attribute kept past the cap of 1 (dropped %d)", i, sp.droppedAttrs)
		}
	}
}

// A key repeated in a request (as a JSON export may write it) is kept
// once, with its last value; the cap is checked before the key is known
// to repeat.
func TestSpans_repeatedKey(t *testing.T) {
	td, err := (&ptrace.JSONUnmarshaler{}).UnmarshalTraces([]byte(`{"resourceSpans":[{"scopeSpans":[{"spans":[{
		"traceId":"01000000000000000000000000000000","spanId":"0000000000000001","name":"s",
		"attributes":[
			{"key":"gen_ai.operation.name","value":{"stringValue":"chat"}},
			{"key":"a","value":{"stringValue":"1"}},
			{"key":"a","value":{"stringValue":"2"}},
			{"key":"gen_ai.operation.name","value":{"stringValue":"execute_tool"}},
			{"key":"gen_ai.tool.name","value":{"stringValue":"lookup"}},
			{"key":"b","value":{"stringValue":"3"}}]}]}]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	s := NewSpans(pcommon.TraceID{1}, Limits{MaxAttributes: 3})
	EachSpan(td, s.Add)
	ev := s.Collected().Evidence()
	attrs := ev.Record.Spans[0].Attributes
	if _, b := attrs.Get("b"); len(attrs.Unique()) != 3 || attrs.Value("a") != "2" || b || attrs.Value(attrOperation) != "execute_tool" {
		t.Errorf("attributes %v; want a=2, b past the cap, the operation's last value", attrs)
	}
	if len(ev.Actions) != 1 || ev.Actions[0].Name != "lookup" || ev.Record.ModelCalls != 0 {
		t.Errorf("actions %+v, model calls %d; want the one tool call the last operation names", ev.Actions, ev.Record.ModelCalls)
	}
}

// Numbers are written as pdata writes them, from one buffer.
func TestNumbers_asPdata(t *testing.T) {
	var n numbers
	vals := []pcommon.Value{pcommon.NewValueBool(true)}
	for _, i := range []int64{0, 7, 42, 99, 100, 812, -1, -100, math.MaxInt64, math.MinInt64} {
		vals = append(vals, pcommon.NewValueInt(i))
	}
	for _, f := range []float64{0, 1.5, -2.25, 1e21, 1e-7, math.Inf(1), math.NaN()} {
		vals = append(vals, pcommon.NewValueDouble(f))
	}
	var got []string
	for range 100 { // past the buffer's first block
		for _, v := range vals {
			got = append(got, n.text(v))
		}
	}
	for i, s := range got {
		if want := vals[i%len(vals)].AsString(); s != want {
			t.Errorf("%d: %q, pdata writes %q", i, s, want)
		}
	}
}
