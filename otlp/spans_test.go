package otlp

import (
	"strings"
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Spans read from a file are kept within the receiver's limits, noted
// alike, ordered by start and mapped by the same Evidence.
func TestSpans_limitsAndMapping(t *testing.T) {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "agent")
	spans := rs.ScopeSpans().AppendEmpty().Spans()
	tid := pcommon.TraceID{1}
	for i, name := range []string{"execute_tool lookup", "chat", "execute_tool late"} {
		sp := spans.AppendEmpty()
		sp.SetTraceID(tid)
		sp.SetSpanID(pcommon.SpanID{byte(i + 1)})
		sp.SetName(name)
		sp.SetStartTimestamp(pcommon.Timestamp(1000 - i*10)) // arrive in reverse start order
		sp.SetEndTimestamp(pcommon.Timestamp(2000))
		if strings.HasPrefix(name, "execute_tool") {
			sp.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
			sp.Attributes().PutStr("gen_ai.tool.call.arguments", "{\"id\":\xff1}")
		} else {
			sp.Attributes().PutStr("gen_ai.operation.name", "chat")
			sp.Attributes().PutInt("gen_ai.usage.input_tokens", 7)
		}
	}
	var services []string
	s := NewSpans(tid, Limits{MaxSpans: 2})
	EachSpan(td, func(sp ptrace.Span, service string) {
		services = append(services, service)
		s.Add(sp, service)
	})
	if len(services) != 3 || services[0] != "agent" || s.Received() != 3 || s.Bytes() <= 0 {
		t.Fatalf("services %q, received %d, bytes %d", services, s.Received(), s.Bytes())
	}
	col := s.Collected()
	if col.Dropped != 1 || len(col.Notes) != 1 || !strings.Contains(col.Notes[0], "kept the first 2 of 3 spans") {
		t.Errorf("dropped %d, notes %q", col.Dropped, col.Notes)
	}
	ev := col.Evidence()
	if len(ev.Record.Spans) != 2 || ev.Record.Spans[0].Name != "chat" || ev.Record.TraceID != "01000000000000000000000000000000" {
		t.Errorf("record = %+v; want chat first (it started first)", ev.Record)
	}
	// The repaired arguments are not a JSON object: the action stores {}
	// as the gem would, and the span's repaired text stays in the record.
	if len(ev.Actions) != 1 || ev.Actions[0].Name != "lookup" || string(ev.Actions[0].Arguments) != "{}" {
		t.Errorf("actions = %+v; want lookup with {} arguments", ev.Actions)
	}
	if !strings.Contains(string(ev.Record.SpanActions), "raw_arguments") || !strings.Contains(string(ev.Record.SpanActions), "\ufffd") {
		t.Errorf("span actions = %s; want the repaired raw arguments kept", ev.Record.SpanActions)
	}
	if ev.InputTokens == nil || *ev.InputTokens != 7 {
		t.Errorf("input tokens = %v; want 7", ev.InputTokens)
	}
}
