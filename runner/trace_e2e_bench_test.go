package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"path/filepath"
	"strings"
	"syscall"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/otlp"
	"github.com/agentevals-go/agentevals/schema"
)

// BenchmarkTraced512_endToEnd is evalrun's side of a traced case of 512
// spans, end to end: a Go function agent posts the case's spans (model
// and tool spans with usage, messages, tool arguments and results) to the
// run's receiver as one OTLP/HTTP protobuf request and answers; the
// receiver decodes them, the runner joins them to the case, maps them to
// actions, repairs and redacts the stored trace record, and the run is
// saved to SQLite. The request body is built once (the case's trace id
// patched in), so the agent costs next to nothing: spans/s is what
// evalrun sustains, and spans/cpu-s the same per second of CPU time (the
// figure to read on a busy machine). Run it with -cpu 1 for one core:
//
//	go test -run '^$' -bench 'Traced512_endToEnd' -cpu 1 ./runner/
func BenchmarkTraced512_endToEnd(b *testing.B) {
	const spans, questions = 512, 4
	ctx := context.Background()
	recv, err := otlp.Start(otlp.Limits{})
	if err != nil {
		b.Fatal(err)
	}
	defer recv.Close()
	placeholderTrace := pcommon.TraceID{0xfe, 0xed, 0xfa, 0xce, 1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12}
	placeholderParent := pcommon.SpanID{0xde, 0xad, 0xbe, 0xef, 1, 2, 3, 4}
	body, err := (&ptrace.ProtoMarshaler{}).MarshalTraces(traced512(placeholderTrace, placeholderParent, spans))
	if err != nil {
		b.Fatal(err)
	}
	client := &http.Client{}
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		sc := agent.SpanContext(ctx)
		tid, sid := sc.TraceID(), sc.SpanID()
		req := bytes.ReplaceAll(body, placeholderTrace[:], tid[:])
		req = bytes.ReplaceAll(req, placeholderParent[:], sid[:])
		res, err := client.Post(recv.Endpoint()+otlp.TracesPath, "application/x-protobuf", bytes.NewReader(req))
		if err != nil {
			return agent.Response{}, err
		}
		res.Body.Close()
		if res.StatusCode != http.StatusOK {
			return agent.Response{}, fmt.Errorf("receiver status %d", res.StatusCode)
		}
		return agent.Response{Output: json.RawMessage(`"ok"`)}, nil
	})
	var qs []string
	for i := range questions {
		qs = append(qs, fmt.Sprintf(`{"id": "q%d", "question": "Where is order %d?", "expected_answer": "ok"}`, i, i))
	}
	s := mustLoad(b, `{"suite": "Bench", "agent": {"name": "A"}, "evaluators": {"exact": {"type": "exact_match"}}, "questions": [`+strings.Join(qs, ",")+`]}`)
	db, err := models.Open(ctx, "sqlite:"+filepath.Join(b.TempDir(), "runs.sqlite3"), models.OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	if err := schema.Migrate(ctx, db); err != nil {
		b.Fatal(err)
	}
	var last *models.Run
	cpu0 := processCPU()
	for b.Loop() {
		run, err := Execute(ctx, s, a, ExecOptions{Traces: recv})
		if err != nil {
			b.Fatal(err)
		}
		if err := db.InsertRun(ctx, run); err != nil {
			b.Fatal(err)
		}
		last = run
	}
	cpu := processCPU() - cpu0
	b.StopTimer()
	meta, err := models.DecodeCaseMetadata(last.Cases[0].ResponseMetadata)
	if err != nil || meta.Trace == nil || len(meta.Trace.Spans) != spans {
		b.Fatalf("case q0 stored no trace of %d spans (err %v)", spans, err)
	}
	n := float64(b.N * questions * spans)
	b.ReportMetric(n/b.Elapsed().Seconds(), "spans/s")
	b.ReportMetric(n/cpu.Seconds(), "spans/cpu-s")
}

// processCPU is this process's user and system time so far: on a shared
// machine, spans per CPU second moves much less than spans per second.
func processCPU() time.Duration {
	var ru syscall.Rusage
	if syscall.Getrusage(syscall.RUSAGE_SELF, &ru) != nil {
		return 0
	}
	return time.Duration(ru.Utime.Nano() + ru.Stime.Nano())
}

// traced512 is one case's spans under trace tid: a root span (a child of
// parent) and n-1 children, alternately model calls and tool calls.
func traced512(tid pcommon.TraceID, parent pcommon.SpanID, n int) ptrace.Traces {
	td := ptrace.NewTraces()
	rs := td.ResourceSpans().AppendEmpty()
	rs.Resource().Attributes().PutStr("service.name", "bench-agent")
	ss := rs.ScopeSpans().AppendEmpty()
	root := pcommon.SpanID{0, 0, 0, 0, 0, 0, 0, 1}
	for i := range n {
		sp := ss.Spans().AppendEmpty()
		sp.SetTraceID(tid)
		sp.SetSpanID(pcommon.SpanID{0, 0, 0, 0, 0, 0, byte((i + 1) >> 8), byte(i + 1)})
		sp.SetStartTimestamp(pcommon.Timestamp(1_700_000_000_000_000_000 + int64(i)*1000))
		sp.SetEndTimestamp(pcommon.Timestamp(1_700_000_000_000_000_000 + int64(i)*1000 + 500))
		m := sp.Attributes()
		switch {
		case i == 0:
			sp.SetParentSpanID(parent)
			sp.SetName("invoke_agent")
			m.PutStr("gen_ai.operation.name", "invoke_agent")
		case i%2 == 1:
			sp.SetParentSpanID(root)
			sp.SetName("chat gpt-4o-mini")
			m.PutStr("gen_ai.operation.name", "chat")
			m.PutStr("gen_ai.request.model", "gpt-4o-mini")
			m.PutInt("gen_ai.usage.input_tokens", int64(700+i))
			m.PutInt("gen_ai.usage.output_tokens", 42)
			m.PutStr("gen_ai.output.messages", `[{"role": "assistant", "parts": [{"type": "text", "content": "Order 42 ships on Tuesday."}]}]`)
		default:
			sp.SetParentSpanID(root)
			sp.SetName("execute_tool lookup_order")
			m.PutStr("gen_ai.operation.name", "execute_tool")
			m.PutStr("gen_ai.tool.name", "lookup_order")
			m.PutStr("gen_ai.tool.call.arguments", fmt.Sprintf(`{"id": %d, "fields": ["status", "eta"]}`, i))
			m.PutStr("gen_ai.tool.call.result", `{"status": "shipped", "eta": "2026-12-08", "note": "left the depot at 09:12"}`)
		}
	}
	return td
}
