package otlp

import (
	"testing"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// mastraSpan is one span as Mastra's OTel exporter writes it.
type mastraSpan struct {
	id, parent byte
	name, op   string
	mastraType string
	in, out    int64 // usage; 0 for none
}

// Mastra's model calls read one per call whichever span carries them: the
// model inference spans of a current pairing, or the generation's steps
// when the generation is the "chat" span.
func TestEvidence_mastraModelCalls(t *testing.T) {
	steps := []mastraSpan{
		{id: 3, parent: 2, name: "agent_step support", op: "agent_step", mastraType: "model_step"},
		{id: 4, parent: 2, name: "agent_step support", op: "agent_step", mastraType: "model_step"},
		{id: 5, parent: 2, name: "agent_step support", op: "agent_step", mastraType: "model_step"},
	}
	agentRun := mastraSpan{id: 1, name: "invoke_agent support", op: "invoke_agent", mastraType: "agent_run"}
	for _, tc := range []struct {
		name      string
		spans     []mastraSpan
		wantCalls int
		wantIn    int64
	}{
		{name: "the generation is the chat span (an older pairing)", wantCalls: 3, wantIn: 150, spans: append([]mastraSpan{agentRun,
			{id: 2, parent: 1, name: "chat scripted-model", op: "chat", mastraType: "model_generation", in: 150, out: 30}}, steps...)},
		{name: "one chat span per model call", wantCalls: 3, wantIn: 150, spans: append([]mastraSpan{agentRun,
			{id: 2, parent: 1, name: "model_generation scripted-model", op: "model_generation", mastraType: "model_generation"},
			{id: 6, parent: 3, name: "chat scripted-model", op: "chat", mastraType: "model_inference", in: 50, out: 10},
			{id: 7, parent: 4, name: "chat scripted-model", op: "chat", mastraType: "model_inference", in: 50, out: 10},
			{id: 8, parent: 5, name: "chat scripted-model", op: "chat", mastraType: "model_inference", in: 50, out: 10}}, steps...)},
		{name: "a generation of one step", wantCalls: 1, wantIn: 50, spans: []mastraSpan{agentRun,
			{id: 2, parent: 1, name: "chat scripted-model", op: "chat", mastraType: "model_generation", in: 50, out: 10}, steps[0]}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			td := ptrace.NewTraces()
			spans := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans()
			tid := pcommon.TraceID{9}
			for i, m := range tc.spans {
				sp := spans.AppendEmpty()
				sp.SetTraceID(tid)
				sp.SetSpanID(pcommon.SpanID{m.id})
				if m.parent != 0 {
					sp.SetParentSpanID(pcommon.SpanID{m.parent})
				}
				sp.SetName(m.name)
				sp.SetStartTimestamp(pcommon.Timestamp(1000 + i))
				sp.SetEndTimestamp(pcommon.Timestamp(2000))
				sp.Attributes().PutStr("gen_ai.operation.name", m.op)
				sp.Attributes().PutStr("mastra.span.type", m.mastraType)
				if m.in > 0 {
					sp.Attributes().PutInt("gen_ai.usage.input_tokens", m.in)
					sp.Attributes().PutInt("gen_ai.usage.output_tokens", m.out)
				}
			}
			s := NewSpans(tid, Limits{})
			EachSpan(td, func(sp ptrace.Span, service string) { s.Add(sp, service) })
			ev := s.Collected().Evidence()
			if ev.Record.ModelCalls != tc.wantCalls || ev.InputTokens == nil || *ev.InputTokens != tc.wantIn {
				t.Errorf("model calls %d, input tokens %v; want %d and %d", ev.Record.ModelCalls, ev.InputTokens, tc.wantCalls, tc.wantIn)
			}
		})
	}
}
