package otlp

import (
	"bytes"
	"fmt"
	"net/http"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/models"
)

// BenchmarkReceiver_throughput posts batches of 512 GenAI tool spans (the
// SDKs' default batch) over loopback HTTP and reports spans per second,
// decoding and filing included.
func BenchmarkReceiver_throughput(b *testing.B) {
	r, err := Start(Limits{MaxSpans: 1 << 30, Quiet: time.Millisecond})
	if err != nil {
		b.Fatal(err)
	}
	defer r.Close()
	c := r.Begin()
	const batch = 512
	body, err := requestFor(c, batch, func(m pcommon.Map) {
		m.PutStr("gen_ai.operation.name", "execute_tool")
		m.PutStr("gen_ai.tool.name", "search")
		m.PutStr("gen_ai.tool.call.arguments", `{"q": "returns policy", "limit": 5}`)
		m.PutStr("gen_ai.tool.call.result", `{"hits": 3}`)
	}).MarshalProto()
	if err != nil {
		b.Fatal(err)
	}
	client := &http.Client{}
	b.SetBytes(int64(len(body)))
	b.ResetTimer()
	for b.Loop() {
		res, err := client.Post(r.Endpoint()+TracesPath, "application/x-protobuf", bytes.NewReader(body))
		if err != nil {
			b.Fatal(err)
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			b.Fatalf("status %d", res.StatusCode)
		}
	}
	b.StopTimer()
	b.ReportMetric(float64(b.N*batch)/b.Elapsed().Seconds(), "spans/s")
}

// BenchmarkActions_1000Spans reads one agent trace of 1,000 spans (an
// invoke_agent root, then model calls and tool calls in turn, with the
// GenAI attributes the SDKs write) from an OTLP protobuf request into
// actions and usage, against decoding the same request with pdata alone,
// and against the floor any reading has (see floor):
//
//	go test ./otlp/ -run '^$' -bench Actions_1000Spans -cpu 1 -benchmem
func BenchmarkActions_1000Spans(b *testing.B) {
	body, err := (&ptrace.ProtoMarshaler{}).MarshalTraces(agentTrace(1000))
	if err != nil {
		b.Fatal(err)
	}
	// each times read on the decoded request, decoding included.
	each := func(name string, read func(b *testing.B, td ptrace.Traces)) {
		b.Run(name, func(b *testing.B) {
			b.SetBytes(int64(len(body)))
			defer reportCPU(b, cpuTime())
			for b.Loop() {
				td, err := (&ptrace.ProtoUnmarshaler{}).UnmarshalTraces(body)
				if err != nil || td.SpanCount() != 1000 {
					b.Fatalf("decoded %d spans, %v", td.SpanCount(), err)
				}
				read(b, td)
			}
		})
	}
	each("pdata", func(*testing.B, ptrace.Traces) {})
	// floor reads no more than any reading must: each attribute's key is
	// matched against the mapping's, and each tool call's arguments and
	// result are checked as JSON; nothing is kept.
	each("floor", func(b *testing.B, td ptrace.Traces) {
		valid := 0
		EachSpan(td, func(sp ptrace.Span, _ string) {
			sp.Attributes().Range(func(k string, v pcommon.Value) bool {
				if id := idOf(k); (id == keyToolArgs || id == keyToolResult) && models.ValidJSON(v.Str()) {
					valid++
				}
				return true
			})
		})
		if valid != 998 {
			b.Fatalf("%d valid tool texts; want 998", valid)
		}
	})
	each("actions", func(b *testing.B, td ptrace.Traces) {
		s := NewSpans(benchTraceID, Limits{})
		EachSpan(td, s.Add)
		ev := s.Collected().Evidence()
		if len(ev.Actions) != 499 || ev.Record.ModelCalls != 500 {
			b.Fatalf("%d actions, %d model calls; want 499 and 500", len(ev.Actions), ev.Record.ModelCalls)
		}
	})
}

// cpuTime is the process's CPU time: on a shared machine the CPU time per
// reading, not the wall time, is what compares.
func cpuTime() time.Duration {
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// reportCPU reports the CPU time per operation since cpu0.
func reportCPU(b *testing.B, cpu0 time.Duration) {
	b.ReportMetric(float64(cpuTime()-cpu0)/float64(b.N), "cpu-ns/op")
}

var benchTraceID = pcommon.TraceID{0x4b, 0xf9, 0x2f, 0x35, 0x77, 0xb3, 0x4d, 0xa6, 0xa3, 0xce, 0x92, 0x9d, 0x0e, 0x0e, 0x47, 0x36}

// agentTrace is one agent invocation of n spans as an export request.
func agentTrace(n int) ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "support-agent")
	rs.Resource().Attributes().PutStr("telemetry.sdk.language", "nodejs")
	ss := rs.ScopeSpans().AppendEmpty()
	ss.Scope().SetName("@ai-sdk/otel")
	spans := ss.Spans()
	spans.EnsureCapacity(n)
	start := time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)
	root := pcommon.SpanID{0xaa, 0, 0, 0, 0, 0, 0, 1}
	for i := range n {
		sp := spans.AppendEmpty()
		sp.SetTraceID(benchTraceID)
		sp.SetSpanID(pcommon.SpanID{0xbb, byte(i >> 16), byte(i >> 8), byte(i), 0x5e, 0x11, 0x7a, 0x03})
		at := start.Add(time.Duration(i) * 40 * time.Millisecond)
		sp.SetStartTimestamp(pcommon.NewTimestampFromTime(at))
		sp.SetEndTimestamp(pcommon.NewTimestampFromTime(at.Add(35 * time.Millisecond)))
		sp.Status().SetCode(ptrace.StatusCodeOk)
		a := sp.Attributes()
		switch {
		case i == 0:
			sp.SetSpanID(root)
			sp.SetName("invoke_agent support-agent")
			sp.SetKind(ptrace.SpanKindServer)
			sp.SetEndTimestamp(pcommon.NewTimestampFromTime(start.Add(time.Duration(n) * 40 * time.Millisecond)))
			a.PutStr("gen_ai.operation.name", "invoke_agent")
			a.PutStr("gen_ai.agent.name", "support-agent")
			a.PutStr("gen_ai.conversation.id", "conv-7f3a9c")
		case i%2 == 1:
			sp.SetParentSpanID(root)
			sp.SetName("chat gpt-4o-mini")
			sp.SetKind(ptrace.SpanKindClient)
			a.PutStr("gen_ai.operation.name", "chat")
			a.PutStr("gen_ai.provider.name", "openai")
			a.PutStr("gen_ai.request.model", "gpt-4o-mini")
			a.PutStr("gen_ai.response.model", "gpt-4o-mini-2024-07-18")
			a.PutStr("gen_ai.response.id", fmt.Sprintf("chatcmpl-%08d", i))
			a.PutInt("gen_ai.usage.input_tokens", int64(800+i))
			a.PutInt("gen_ai.usage.output_tokens", 42)
			a.PutStr("server.address", "api.openai.com")
			a.PutStr("gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"lookup_order","arguments":{"order_id":"A-1001"}}],"finish_reason":"tool_call"}]`)
		default:
			sp.SetParentSpanID(root)
			sp.SetName("execute_tool lookup_order")
			a.PutStr("gen_ai.operation.name", "execute_tool")
			a.PutStr("gen_ai.tool.name", "lookup_order")
			a.PutStr("gen_ai.tool.call.id", fmt.Sprintf("call_%06d", i))
			a.PutStr("gen_ai.tool.type", "function")
			a.PutStr("gen_ai.tool.call.arguments", `{"order_id":"A-1001","include":["items","shipping"]}`)
			a.PutStr("gen_ai.tool.call.result", `{"status":"shipped","carrier":"DHL","eta":"2026-11-05"}`)
		}
	}
	return td
}
