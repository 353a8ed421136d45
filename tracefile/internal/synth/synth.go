// Package synth writes a collector-format file export of simulated agent traffic (GenAI spans through pdata's own marshaler) for the reader's benchmarks.
package synth

import (
	"bufio"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"math/rand/v2"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
)

// Spec says what to write.
type Spec struct {
	Traces int // agent invocations, 4 spans each
	// Concurrent is how many invocations run at once: their spans
	// interleave in the export as they end.
	Concurrent int
	// Batch is the spans per export request (a line, or a message).
	Batch int
	// Proto writes length-prefixed protobuf messages instead of JSON lines.
	Proto bool
	Seed  uint64
}

// span is one span waiting for its batch.
type span struct {
	trace, id, parent int
	name              string
	start, end        time.Duration
	attrs             [][2]string
	ints              []intAttr
}

// intAttr is an integer attribute.
type intAttr struct {
	key string
	v   int64
}

// Write writes the export to w and returns the number of spans.
func Write(w io.Writer, s Spec) (int, error) {
	bw := bufio.NewWriterSize(w, 1<<20)
	rng := rand.New(rand.NewPCG(s.Seed, 1))
	base := time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)
	var pending []span
	n := 0
	flush := func(batch []span) error {
		td := ptrace.NewTraces()
		rs := td.ResourceSpans().AppendEmpty()
		rs.Resource().Attributes().PutStr("service.name", "support-agent")
		rs.Resource().Attributes().PutStr("service.version", "2.4.1")
		rs.Resource().Attributes().PutStr("deployment.environment.name", "production")
		ss := rs.ScopeSpans().AppendEmpty()
		ss.Scope().SetName("support-agent")
		for _, sp := range batch {
			p := ss.Spans().AppendEmpty()
			p.SetTraceID(traceID(s.Seed, sp.trace))
			p.SetSpanID(spanID(sp.trace, sp.id))
			if sp.parent >= 0 {
				p.SetParentSpanID(spanID(sp.trace, sp.parent))
			}
			p.SetName(sp.name)
			p.SetKind(ptrace.SpanKindInternal)
			p.SetStartTimestamp(pcommon.NewTimestampFromTime(base.Add(sp.start)))
			p.SetEndTimestamp(pcommon.NewTimestampFromTime(base.Add(sp.end)))
			for _, a := range sp.attrs {
				p.Attributes().PutStr(a[0], a[1])
			}
			for _, a := range sp.ints {
				p.Attributes().PutInt(a.key, a.v)
			}
			p.Status().SetCode(ptrace.StatusCodeOk)
		}
		var data []byte
		var err error
		if s.Proto {
			data, err = (&ptrace.ProtoMarshaler{}).MarshalTraces(td)
			if err == nil {
				err = binary.Write(bw, binary.BigEndian, uint32(len(data)))
			}
		} else {
			data, err = (&ptrace.JSONMarshaler{}).MarshalTraces(td)
			data = append(data, '\n')
		}
		if err != nil {
			return err
		}
		_, err = bw.Write(data)
		return err
	}
	for g := 0; g < s.Traces; g += s.Concurrent {
		var group [4][]span // model calls, tools, answers, roots: the order they end
		for t := g; t < min(g+s.Concurrent, s.Traces); t++ {
			for i, sp := range invocation(rng, t) {
				group[i] = append(group[i], sp)
			}
		}
		for _, part := range group {
			pending = append(pending, part...)
		}
		for len(pending) >= s.Batch {
			if err := flush(pending[:s.Batch]); err != nil {
				return n, err
			}
			n += s.Batch
			pending = pending[s.Batch:]
		}
	}
	if len(pending) > 0 {
		if err := flush(pending); err != nil {
			return n, err
		}
		n += len(pending)
	}
	return n, bw.Flush()
}

var questions = []string{
	"Where is my order %d? It was supposed to arrive yesterday.",
	"Can I change the delivery address for order %d to my office?",
	"I was charged twice for order %d, please refund one of the charges.",
	"What is the return policy for sale items in order %d?",
}

// invocation is one agent call: a model call that asks for a tool, the
// tool, a model call that answers, and the root; each a realistic set of
// GenAI attributes.
func invocation(rng *rand.Rand, t int) [4]span {
	at := time.Duration(t) * 40 * time.Millisecond
	order := rng.IntN(100000)
	q := fmt.Sprintf(questions[rng.IntN(len(questions))], order)
	in := messages([][2]string{{"system", "You are the support agent of an online shop. Be brief and exact; use the tools to look orders up."}, {"user", q}})
	answer := fmt.Sprintf("Order %d shipped on Monday with tracking number 1Z%08d; it should arrive within two days.", order, rng.IntN(1e8))
	model := [][2]string{{"gen_ai.system", "openai"}, {"gen_ai.request.model", "gpt-4o-mini"}, {"gen_ai.response.model", "gpt-4o-mini-2024-07-18"},
		{"server.address", "api.openai.com"}, {"gen_ai.response.id", fmt.Sprintf("chatcmpl-%016x", rng.Uint64())}}
	chat := span{trace: t, id: 1, parent: 0, name: "chat gpt-4o-mini", start: at + 5*time.Millisecond, end: at + 700*time.Millisecond,
		attrs: append([][2]string{{"gen_ai.operation.name", "chat"}, {"gen_ai.input.messages", in},
			{"gen_ai.output.messages", `[{"role":"assistant","parts":[{"type":"tool_call","id":"call_1","name":"lookup_order","arguments":{"order":` + fmt.Sprint(order) + `}}],"finish_reason":"tool_call"}]`}}, model...),
		ints: []intAttr{{"gen_ai.usage.input_tokens", int64(180 + rng.IntN(40))}, {"gen_ai.usage.output_tokens", int64(20 + rng.IntN(10))}}}
	tool := span{trace: t, id: 2, parent: 0, name: "execute_tool lookup_order", start: at + 710*time.Millisecond, end: at + 760*time.Millisecond,
		attrs: [][2]string{{"gen_ai.operation.name", "execute_tool"}, {"gen_ai.tool.name", "lookup_order"}, {"gen_ai.tool.call.id", "call_1"},
			{"gen_ai.tool.call.arguments", fmt.Sprintf(`{"order":%d}`, order)}, {"gen_ai.tool.call.result", fmt.Sprintf(`{"order":%d,"status":"shipped","carrier":"UPS"}`, order)}}}
	final := span{trace: t, id: 3, parent: 0, name: "chat gpt-4o-mini", start: at + 770*time.Millisecond, end: at + 1500*time.Millisecond,
		attrs: append([][2]string{{"gen_ai.operation.name", "chat"}, {"gen_ai.input.messages", in}, {"gen_ai.output.messages", messages([][2]string{{"assistant", answer}})}}, model...),
		ints:  []intAttr{{"gen_ai.usage.input_tokens", int64(260 + rng.IntN(40))}, {"gen_ai.usage.output_tokens", int64(30 + rng.IntN(10))}}}
	root := span{trace: t, id: 0, parent: -1, name: "invoke_agent support", start: at, end: at + 1510*time.Millisecond,
		attrs: [][2]string{{"gen_ai.operation.name", "invoke_agent"}, {"gen_ai.agent.name", "support"}, {"gen_ai.agent.id", "agent-7"}}}
	return [4]span{chat, tool, final, root}
}

func messages(ms [][2]string) string {
	type part struct {
		Type    string `json:"type"`
		Content string `json:"content"`
	}
	type msg struct {
		Role  string `json:"role"`
		Parts []part `json:"parts"`
	}
	out := make([]msg, len(ms))
	for i, m := range ms {
		out[i] = msg{Role: m[0], Parts: []part{{Type: "text", Content: m[1]}}}
	}
	b, _ := json.Marshal(out)
	return string(b)
}

func traceID(seed uint64, t int) pcommon.TraceID {
	var id pcommon.TraceID
	binary.BigEndian.PutUint64(id[:8], seed+1)
	binary.BigEndian.PutUint64(id[8:], uint64(t)+1)
	return id
}

func spanID(t, i int) pcommon.SpanID {
	var id pcommon.SpanID
	binary.BigEndian.PutUint64(id[:], uint64(t)<<3|uint64(i)+1)
	return id
}
