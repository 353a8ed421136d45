package monitor

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/tracefile"
)

// benchRequests are export requests of traces of four spans each (a root,
// two model calls and a tool call), 64 traces a request.
func benchRequests(n int) []ptrace.Traces {
	out := make([]ptrace.Traces, n)
	start := time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)
	for r := range n {
		td := ptrace.NewTraces()
		rs := td.ResourceSpans().AppendEmpty()
		rs.Resource().Attributes().PutStr("service.name", "shop")
		spans := rs.ScopeSpans().AppendEmpty().Spans()
		for k := range 64 {
			i := r*64 + k
			tid := pcommon.TraceID{byte(i), byte(i >> 8), byte(i >> 16), 9}
			at := start.Add(time.Duration(i) * 100 * time.Millisecond)
			for s, name := range []string{"invoke_agent shop", "chat m", "execute_tool lookup_order", "chat m"} {
				sp := spans.AppendEmpty()
				sp.SetTraceID(tid)
				sp.SetSpanID(pcommon.SpanID{byte(i), byte(i >> 8), byte(i >> 16), byte(s + 1)})
				if s > 0 {
					sp.SetParentSpanID(pcommon.SpanID{byte(i), byte(i >> 8), byte(i >> 16), 1})
				}
				sp.SetName(name)
				sp.SetStartTimestamp(pcommon.NewTimestampFromTime(at.Add(time.Duration(s) * 10 * time.Millisecond)))
				sp.SetEndTimestamp(pcommon.NewTimestampFromTime(at.Add(50 * time.Millisecond)))
				switch s {
				case 0:
					sp.Attributes().PutStr("gen_ai.operation.name", "invoke_agent")
					sp.Attributes().PutStr("gen_ai.input.messages", `[{"role":"user","parts":[{"type":"text","content":"Where is my order 1234?"}]}]`)
				case 2:
					sp.Attributes().PutStr("gen_ai.operation.name", "execute_tool")
					sp.Attributes().PutStr("gen_ai.tool.name", "lookup_order")
					sp.Attributes().PutStr("gen_ai.tool.call.arguments", `{"order":1234}`)
				default:
					sp.Attributes().PutStr("gen_ai.operation.name", "chat")
					sp.Attributes().PutInt("gen_ai.usage.input_tokens", 120)
				}
			}
		}
		out[r] = td
	}
	return out
}

// BenchmarkWindow reads the same 100 requests (25,600 spans, 6,400 traces)
// into a window, as a live window (handed over as the receiver hands them)
// and as a file export of JSON lines. Each is the whole read: decoding,
// grouping and building the window's suite of 6,400 questions, which
// costs more than the decoding; compare the two in one run.
func BenchmarkWindow(b *testing.B) {
	m, err := Load(write(b, `{"monitor":"shop","agent":"shop","checks":[{"type":"error_spans"}]}`))
	if err != nil {
		b.Fatal(err)
	}
	reqs := benchRequests(100)
	spans := 0
	for _, td := range reqs {
		spans += td.SpanCount()
	}
	file := filepath.Join(b.TempDir(), "window.jsonl")
	var data []byte
	for _, td := range reqs {
		line, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
		if err != nil {
			b.Fatal(err)
		}
		data = append(append(data, line...), '\n')
	}
	if err := os.WriteFile(file, data, 0o644); err != nil {
		b.Fatal(err)
	}
	report := func(b *testing.B) {
		b.ReportMetric(float64(spans*b.N)/b.Elapsed().Seconds(), "spans/s")
	}
	b.Run("file", func(b *testing.B) {
		for b.Loop() {
			if _, err := m.Read([]string{file}, tracefile.Limits{}); err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
	b.Run("live", func(b *testing.B) {
		for b.Loop() {
			live := NewLive()
			done := make(chan error, 1)
			go func() {
				_, err := m.ReadFrom([]Source{live.Source("live")}, tracefile.Limits{})
				live.Stop()
				done <- err
			}()
			for _, td := range reqs {
				live.Take(td)
			}
			live.Close()
			if err := <-done; err != nil {
				b.Fatal(err)
			}
		}
		report(b)
	})
}
