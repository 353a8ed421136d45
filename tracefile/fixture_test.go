package tracefile

import (
	"bytes"
	"compress/gzip"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"sync"
	"testing"
	"time"

	"github.com/klauspost/compress/zstd"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// collector is a local OTLP/HTTP endpoint on loopback that keeps each
// export request the Go SDK posts, as a collector's receiver does before
// its file exporter writes them.
type collector struct {
	mu       sync.Mutex
	requests []ptrace.Traces
}

func (c *collector) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	body, err := io.ReadAll(r.Body)
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	req := ptraceotlp.NewExportRequest()
	if err := req.UnmarshalProto(body); err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	c.mu.Lock()
	c.requests = append(c.requests, req.Traces())
	c.mu.Unlock()
	out, _ := ptraceotlp.NewExportResponse().MarshalProto()
	w.Header().Set("Content-Type", "application/x-protobuf")
	_, _ = w.Write(out)
}

// sdkRequests runs agent with a tracer of the real Go SDK, batching at
// most batch spans per OTLP/HTTP request (so traces interleave across
// requests), and returns the requests the collector received.
func sdkRequests(t testing.TB, batch int, agent func(trace.Tracer)) []ptrace.Traces {
	t.Helper()
	col := &collector{}
	srv := httptest.NewServer(col)
	defer srv.Close()
	exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(srv.URL+"/v1/traces"), otlptracehttp.WithInsecure())
	if err != nil {
		t.Fatal(err)
	}
	res := resource.NewSchemaless(attribute.String("service.name", "support-agent"))
	tp := sdktrace.NewTracerProvider(sdktrace.WithResource(res),
		sdktrace.WithBatcher(exp, sdktrace.WithMaxExportBatchSize(batch), sdktrace.WithBatchTimeout(time.Hour)))
	agent(tp.Tracer("support-agent"))
	if err := tp.Shutdown(context.Background()); err != nil {
		t.Fatal(err)
	}
	col.mu.Lock()
	defer col.mu.Unlock()
	if len(col.requests) == 0 {
		t.Fatal("the SDK exported nothing")
	}
	return col.requests
}

// base is when the simulated traffic starts.
var base = time.Date(2026, 11, 3, 9, 0, 0, 0, time.UTC)

func at(ms int) trace.SpanEventOption {
	return trace.WithTimestamp(base.Add(time.Duration(ms) * time.Millisecond))
}

func msgs(role, text string) string {
	b, _ := json.Marshal([]map[string]any{{"role": role, "parts": []map[string]string{{"type": "text", "content": text}}}})
	return string(b)
}

// genaiTrace is one invocation of an agent instrumented with the GenAI
// conventions: a model call asking for a tool, the tool, a model call
// answering. history holds earlier user messages of the conversation.
func genaiTrace(tr trace.Tracer, startMS int, conv, question, answer string, history ...string) {
	attrs := []attribute.KeyValue{attribute.String("gen_ai.operation.name", "invoke_agent"), attribute.String("gen_ai.agent.name", "support")}
	if conv != "" {
		attrs = append(attrs, attribute.String("gen_ai.conversation.id", conv))
	}
	ctx, root := tr.Start(context.Background(), "invoke_agent support", trace.WithAttributes(attrs...), at(startMS))
	var input []map[string]any
	for _, h := range append(history, question) {
		input = append(input, map[string]any{"role": "user", "parts": []map[string]string{{"type": "text", "content": h}}})
	}
	in, _ := json.Marshal(input)
	_, chat := tr.Start(ctx, "chat gpt-4o", at(startMS+10), trace.WithAttributes(attribute.String("gen_ai.operation.name", "chat"),
		attribute.String("gen_ai.input.messages", string(in)), attribute.Int("gen_ai.usage.input_tokens", 120), attribute.Int("gen_ai.usage.output_tokens", 30)))
	chat.End(at(startMS + 400))
	_, tool := tr.Start(ctx, "execute_tool lookup_order", at(startMS+410), trace.WithAttributes(attribute.String("gen_ai.operation.name", "execute_tool"),
		attribute.String("gen_ai.tool.name", "lookup_order"), attribute.String("gen_ai.tool.call.arguments", `{"id":42}`),
		attribute.String("gen_ai.tool.call.result", `{"status":"shipped"}`)))
	tool.End(at(startMS + 450))
	_, chat2 := tr.Start(ctx, "chat gpt-4o", at(startMS+460), trace.WithAttributes(attribute.String("gen_ai.operation.name", "chat"),
		attribute.String("gen_ai.input.messages", string(in)), attribute.String("gen_ai.output.messages", msgs("assistant", answer)),
		attribute.Int("gen_ai.usage.input_tokens", 200), attribute.Int("gen_ai.usage.output_tokens", 12)))
	chat2.End(at(startMS + 900))
	root.End(at(startMS + 910))
}

// openInferenceTrace is an OpenInference-instrumented agent: the root
// AGENT span holds the input and output values.
func openInferenceTrace(tr trace.Tracer, startMS int, session, question, answer string, failTool bool) {
	attrs := []attribute.KeyValue{attribute.String("openinference.span.kind", "AGENT"), attribute.String("input.value", question), attribute.String("output.value", answer)}
	if session != "" {
		attrs = append(attrs, attribute.String("session.id", session))
	}
	ctx, root := tr.Start(context.Background(), "agent", trace.WithAttributes(attrs...), at(startMS))
	_, llm := tr.Start(ctx, "llm", at(startMS+5), trace.WithAttributes(attribute.String("openinference.span.kind", "LLM"),
		attribute.String("llm.input_messages.0.message.role", "system"), attribute.String("llm.input_messages.0.message.content", "be brief"),
		attribute.String("llm.input_messages.1.message.role", "user"), attribute.String("llm.input_messages.1.message.content", question),
		attribute.Int("llm.token_count.prompt", 50), attribute.Int("llm.token_count.completion", 9)))
	llm.End(at(startMS + 100))
	_, tool := tr.Start(ctx, "search_docs", at(startMS+110), trace.WithAttributes(attribute.String("openinference.span.kind", "TOOL"),
		attribute.String("tool.name", "search_docs"), attribute.String("input.value", `{"q":"refund"}`), attribute.String("output.value", "3 hits")))
	if failTool {
		tool.SetStatus(codes.Error, "index offline")
	}
	tool.End(at(startMS + 150))
	root.End(at(startMS + 200))
}

// vercelTrace is the Vercel AI SDK's generateText with telemetry on.
func vercelTrace(tr trace.Tracer, startMS int, question, answer string) {
	prompt, _ := json.Marshal(map[string]string{"prompt": question})
	ctx, root := tr.Start(context.Background(), "ai.generateText", at(startMS), trace.WithAttributes(attribute.String("ai.operationId", "ai.generateText"),
		attribute.String("ai.prompt", string(prompt)), attribute.String("ai.response.text", answer)))
	pm, _ := json.Marshal([]map[string]any{{"role": "user", "content": []map[string]string{{"type": "text", "text": question}}}})
	_, gen := tr.Start(ctx, "ai.generateText.doGenerate", at(startMS+5), trace.WithAttributes(attribute.String("ai.operationId", "ai.generateText.doGenerate"),
		attribute.String("ai.prompt.messages", string(pm)), attribute.Int("ai.usage.promptTokens", 40), attribute.Int("ai.usage.completionTokens", 7)))
	gen.End(at(startMS + 80))
	_, tool := tr.Start(ctx, "ai.toolCall", at(startMS+90), trace.WithAttributes(attribute.String("ai.toolCall.name", "weather"),
		attribute.String("ai.toolCall.args", `{"city":"Oslo"}`), attribute.String("ai.toolCall.result", `{"c":4}`)))
	tool.End(at(startMS + 95))
	root.End(at(startMS + 120))
}

// traffic is the fixture: three single GenAI traces, a three-turn GenAI
// conversation whose turns the SDK exports out of order, an
// OpenInference session of two turns and a Vercel trace, batched 5
// spans to a request.
func traffic(t testing.TB) []ptrace.Traces {
	return sdkRequests(t, 5, func(tr trace.Tracer) {
		genaiTrace(tr, 0, "", "Where is order 42?", "Order 42 shipped.")
		genaiTrace(tr, 2000, "conv-7", "Can I change the address?", "Yes, until it ships.", "Hi", "Where is order 7?")
		genaiTrace(tr, 1000, "conv-7", "Where is order 7?", "It is packed.", "Hi")
		genaiTrace(tr, 500, "conv-7", "Hi", "Hello! How can I help?")
		openInferenceTrace(tr, 3000, "sess-1", "How do refunds work?", "Within 30 days.", false)
		openInferenceTrace(tr, 4000, "sess-1", "And for sale items?", "Store credit only.", true)
		vercelTrace(tr, 5000, "Weather in Oslo?", "4 degrees.")
		genaiTrace(tr, 6000, "", "Cancel order 9", "Order 9 cancelled.")
		genaiTrace(tr, 7000, "", "Track order 11", "Order 11 is in transit.")
	})
}

// Writers of the shapes a collector's file exporter writes.
func jsonLines(t testing.TB, reqs []ptrace.Traces) []byte {
	var b bytes.Buffer
	for _, td := range reqs {
		line, err := (&ptrace.JSONMarshaler{}).MarshalTraces(td)
		if err != nil {
			t.Fatal(err)
		}
		b.Write(line)
		b.WriteByte('\n')
	}
	return b.Bytes()
}

// prefixed writes each request 4-byte big-endian length-prefixed, as the
// file exporter does for format proto, or for any format with per-record
// compression (then each record is a zstd frame of its own).
func prefixed(t testing.TB, reqs []ptrace.Traces, asJSON, zstdEach bool) []byte {
	var b bytes.Buffer
	enc, _ := zstd.NewWriter(nil)
	for _, td := range reqs {
		var msg []byte
		var err error
		if asJSON {
			msg, err = (&ptrace.JSONMarshaler{}).MarshalTraces(td)
		} else {
			msg, err = (&ptrace.ProtoMarshaler{}).MarshalTraces(td)
		}
		if err != nil {
			t.Fatal(err)
		}
		if zstdEach {
			msg = enc.EncodeAll(msg, nil)
		}
		_ = binary.Write(&b, binary.BigEndian, uint32(len(msg)))
		b.Write(msg)
	}
	return b.Bytes()
}

func gzipped(data []byte) []byte {
	var b bytes.Buffer
	zw := gzip.NewWriter(&b)
	_, _ = zw.Write(data)
	_ = zw.Close()
	return b.Bytes()
}

func zstded(data []byte) []byte {
	enc, _ := zstd.NewWriter(nil)
	return enc.EncodeAll(data, nil)
}

func writeFile(t testing.TB, name string, data []byte) string {
	t.Helper()
	p := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(p, data, 0o600); err != nil {
		t.Fatal(err)
	}
	return p
}

// readAll reads every case of path.
func readAll(t testing.TB, path string, opts Options) ([]*Case, Stats, error) {
	t.Helper()
	r, err := Open(path, opts)
	if err != nil {
		return nil, Stats{}, err
	}
	defer r.Close()
	var out []*Case
	for {
		c, err := r.Next()
		if err == io.EOF {
			return out, r.Stats(), nil
		}
		if err != nil {
			return out, r.Stats(), err
		}
		out = append(out, c)
	}
}

// summary is a case in one line, for comparing readings.
func summary(c *Case) string {
	s := fmt.Sprintf("%s part=%d q=%q out=%q turns=%d", c.ID, c.Part, c.Question, c.Output, len(c.Turns))
	for _, tr := range c.Turns {
		ev := tr.Evidence
		s += fmt.Sprintf(" [%q→%q actions=%d", tr.Message, tr.Answer, len(ev.Actions))
		if ev.InputTokens != nil {
			s += fmt.Sprintf(" in=%d out=%d", *ev.InputTokens, *ev.OutputTokens)
		}
		s += "]"
	}
	return s
}
