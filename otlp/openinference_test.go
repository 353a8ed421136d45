package otlp

import (
	"cmp"
	"context"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
)

// TestEvidence_openInferenceLangChain: LangChain's tool span carries a
// single-field input as a bare string and its result as a serialized
// ToolMessage; the arguments come from the model span's tool call and the
// result is the message's content.
func TestEvidence_openInferenceLangChain(t *testing.T) {
	toolMessage := `{"lc":1,"type":"constructor","id":["langchain_core","messages","ToolMessage"],"kwargs":{"content":"{\"id\":42,\"status\":\"shipped\"}","tool_call_id":"call_1","name":"lookup_order"}}`
	for _, tc := range []struct {
		name, input, output string
		wantArgs, wantRes   string
		wantStatus          string
	}{
		{name: "bare string input, ToolMessage output", input: "42", output: toolMessage, wantArgs: `{"id":42}`, wantRes: `{"id":42,"status":"shipped"}`},
		{name: "object input kept", input: `{"id":7}`, output: `"plain"`, wantArgs: `{"id":7}`, wantRes: `"plain"`},
		{name: "text content", input: "42", output: `{"lc":1,"type":"constructor","id":["ToolMessage"],"kwargs":{"content":"shipped"}}`, wantArgs: `{"id":42}`, wantRes: `"shipped"`},
		// LangChain 1.x with its instrumentation wraps the message in "output".
		{name: "ToolMessage under output", input: `{"id":42}`, output: `{"output":` + toolMessage + `}`, wantArgs: `{"id":42}`, wantRes: `{"id":42,"status":"shipped"}`},
		{name: "ToolMessage with status error", input: `{"id":42}`, wantStatus: "error", wantArgs: `{"id":42}`, wantRes: `"Error: no such order"`,
			output: `{"output":{"lc":1,"type":"constructor","id":["ToolMessage"],"kwargs":{"status":"error","content":"Error: no such order"}}}`},
		{name: "an output object that is no message is kept", input: `{"id":42}`, output: `{"output":{"id":42}}`, wantArgs: `{"id":42}`, wantRes: `{"output":{"id":42}}`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := startReceiver(t, fast)
			c := r.Begin()
			td := ptrace.NewTraces()
			spans := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans()
			now := time.Now()
			for i, attrs := range []map[string]any{
				{"openinference.span.kind": "LLM", "llm.token_count.prompt": int64(5),
					"llm.output_messages.0.message.tool_calls.0.tool_call.function.name":      "lookup_order",
					"llm.output_messages.0.message.tool_calls.0.tool_call.function.arguments": `{"id":42}`},
				{"openinference.span.kind": "TOOL", "tool.name": "lookup_order", "input.value": tc.input, "output.value": tc.output},
			} {
				sp := spans.AppendEmpty()
				sp.SetTraceID(c.traceID)
				sp.SetSpanID(pcommon.SpanID{byte(i + 1)})
				sp.SetName("span")
				sp.SetStartTimestamp(pcommon.NewTimestampFromTime(now.Add(time.Duration(i) * time.Millisecond)))
				sp.SetEndTimestamp(pcommon.NewTimestampFromTime(now.Add(time.Duration(i+1) * time.Millisecond)))
				_ = sp.Attributes().FromRaw(attrs)
			}
			body, _ := ptraceotlp.NewExportRequestFromTraces(td).MarshalProto()
			if code := post(t, r, "application/x-protobuf", body); code != 200 {
				t.Fatalf("status %d", code)
			}
			ev := c.End(context.Background()).Evidence()
			if len(ev.Actions) != 1 {
				t.Fatalf("actions = %+v, want one", ev.Actions)
			}
			a := ev.Actions[0]
			if string(a.Arguments) != tc.wantArgs || string(a.Result) != tc.wantRes {
				t.Errorf("arguments %s result %s, want %s and %s", a.Arguments, a.Result, tc.wantArgs, tc.wantRes)
			}
			if want := cmp.Or(tc.wantStatus, "ok"); a.Status != want {
				t.Errorf("status %q, want %q", a.Status, want)
			}
			if ev.Record.ModelCalls != 1 {
				t.Errorf("model calls = %d", ev.Record.ModelCalls)
			}
		})
	}
}
