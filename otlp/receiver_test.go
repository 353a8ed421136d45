package otlp

import (
	"bytes"
	"context"
	"encoding/json"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"
	"go.opentelemetry.io/collector/pdata/ptrace/ptraceotlp"
	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentevals-go/agentevals/score"
)

// fast are limits that keep the tests quick.
var fast = Limits{Quiet: 50 * time.Millisecond, MaxWait: time.Second}

func startReceiver(t *testing.T, l Limits) *Receiver {
	t.Helper()
	r, err := Start(l)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// goSDK is a tracer provider exporting synchronously with the real Go
// SDK's OTLP/HTTP protobuf exporter to the receiver.
func goSDK(t *testing.T, r *Receiver, opts ...otlptracehttp.Option) trace.Tracer {
	t.Helper()
	exp, err := otlptracehttp.New(context.Background(), append([]otlptracehttp.Option{otlptracehttp.WithEndpointURL(r.Endpoint() + TracesPath)}, opts...)...)
	if err != nil {
		t.Fatal(err)
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
	return tp.Tracer("agent")
}

// caseContext is what an agent does with TRACEPARENT: continue the trace.
func caseContext(c *Case) context.Context {
	return propagation.TraceContext{}.Extract(context.Background(), propagation.MapCarrier{"traceparent": c.Traceparent()})
}

// agentTurn emits what a GenAI-instrumented agent emits for one question.
func agentTurn(ctx context.Context, tr trace.Tracer, fail bool) {
	ctx, root := tr.Start(ctx, "invoke_agent support", trace.WithAttributes(attribute.String("gen_ai.operation.name", "invoke_agent")))
	defer root.End()
	_, chat := tr.Start(ctx, "chat gpt-4o", trace.WithAttributes(attribute.String("gen_ai.operation.name", "chat"),
		attribute.Int("gen_ai.usage.input_tokens", 120), attribute.Int("gen_ai.usage.output_tokens", 30)))
	chat.End()
	_, tool := tr.Start(ctx, "execute_tool lookup_order", trace.WithAttributes(attribute.String("gen_ai.operation.name", "execute_tool"),
		attribute.String("gen_ai.tool.name", "lookup_order"), attribute.String("gen_ai.tool.call.id", "call_1"),
		attribute.String("gen_ai.tool.call.arguments", `{"id": 42}`), attribute.String("gen_ai.tool.call.result", `{"status": "shipped"}`)))
	if fail {
		tool.SetStatus(codes.Error, "order service down")
	}
	tool.End()
	_, chat2 := tr.Start(ctx, "chat gpt-4o", trace.WithAttributes(attribute.String("gen_ai.operation.name", "chat"),
		attribute.Int("gen_ai.usage.input_tokens", 200), attribute.Int("gen_ai.usage.output_tokens", 12)))
	chat2.End()
}

func TestReceiver_goSDK(t *testing.T) {
	r := startReceiver(t, fast)
	if u, _ := url.Parse(r.Endpoint()); u.Hostname() != "127.0.0.1" {
		t.Fatalf("endpoint %s is not on loopback", r.Endpoint())
	}
	tr := goSDK(t, r)
	c := r.Begin()
	other := r.Begin()
	agentTurn(caseContext(c), tr, false)
	agentTurn(caseContext(other), tr, true)
	agentTurn(context.Background(), tr, false) // a trace nobody expects
	ev := c.End(context.Background()).Evidence()

	if got, want := ev.Record.SpansReceived, 4; got != want {
		t.Fatalf("spans received = %d, want %d", got, want)
	}
	if len(ev.Actions) != 1 {
		t.Fatalf("actions = %+v, want the one tool call", ev.Actions)
	}
	a := ev.Actions[0]
	if a.Name != "lookup_order" || string(a.Arguments) != `{"id": 42}` || string(a.Result) != `{"status": "shipped"}` || a.Status != score.StatusOK || a.DurationMS == nil {
		t.Errorf("action = %+v", a)
	}
	if ev.Record.ModelCalls != 2 || ev.InputTokens == nil || *ev.InputTokens != 320 || *ev.OutputTokens != 42 {
		t.Errorf("model calls %d, tokens %v/%v; want 2 calls, 320 in, 42 out", ev.Record.ModelCalls, ev.InputTokens, ev.OutputTokens)
	}
	if ev.Record.TraceID != c.TraceID() || ev.Record.Spans[0].Name != "invoke_agent support" {
		t.Errorf("trace %s first span %q", ev.Record.TraceID, ev.Record.Spans[0].Name)
	}
	if ev.Record.Spans[1].ParentID != ev.Record.Spans[0].SpanID {
		t.Errorf("chat span's parent = %q, want the root %q", ev.Record.Spans[1].ParentID, ev.Record.Spans[0].SpanID)
	}
	if got := ev.Record.Spans[0].ParentID; got != c.Traceparent()[36:52] {
		t.Errorf("root's parent = %q, want the traceparent's span id", got)
	}
	oev := other.End(context.Background()).Evidence()
	if len(oev.Actions) != 1 || oev.Actions[0].Status != score.StatusError {
		t.Errorf("other case's actions = %+v, want one failed call", oev.Actions)
	}
	if r.Unknown() != 4 {
		t.Errorf("unknown spans = %d, want 4", r.Unknown())
	}
}

// The Go SDK's exporter with gzip compression.
func TestReceiver_gzip(t *testing.T) {
	r := startReceiver(t, fast)
	tr := goSDK(t, r, otlptracehttp.WithCompression(otlptracehttp.GzipCompression))
	c := r.Begin()
	agentTurn(caseContext(c), tr, false)
	if ev := c.End(context.Background()).Evidence(); len(ev.Actions) != 1 {
		t.Fatalf("actions = %+v", ev.Actions)
	}
}

// requestFor builds an export request of n spans in the case's trace.
func requestFor(c *Case, n int, attrs func(pcommon.Map)) ptraceotlp.ExportRequest {
	td := ptrace.NewTraces()
	spans := td.ResourceSpans().AppendEmpty().ScopeSpans().AppendEmpty().Spans()
	spans.EnsureCapacity(n)
	now := time.Now()
	for i := range n {
		sp := spans.AppendEmpty()
		sp.SetTraceID(c.traceID)
		sp.SetSpanID(pcommon.SpanID{byte(i >> 24), byte(i >> 16), byte(i >> 8), byte(i), 1})
		sp.SetName("execute_tool search")
		sp.SetStartTimestamp(pcommon.NewTimestampFromTime(now))
		sp.SetEndTimestamp(pcommon.NewTimestampFromTime(now.Add(time.Millisecond)))
		if attrs != nil {
			attrs(sp.Attributes())
		}
	}
	return ptraceotlp.NewExportRequestFromTraces(td)
}

func post(t *testing.T, r *Receiver, ctype string, body []byte) int {
	t.Helper()
	res, err := http.Post(r.Endpoint()+TracesPath, ctype, bytes.NewReader(body))
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	return res.StatusCode
}

// OTLP/JSON (hex ids), encoded by the collector's own library.
func TestReceiver_JSON(t *testing.T) {
	r := startReceiver(t, fast)
	c := r.Begin()
	body, err := requestFor(c, 2, func(m pcommon.Map) {
		m.PutStr("gen_ai.operation.name", "execute_tool")
		m.PutStr("gen_ai.tool.call.arguments", `{"q": "returns"}`)
	}).MarshalJSON()
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(body, []byte(c.TraceID())) {
		t.Fatalf("OTLP/JSON should carry the hex trace id: %.200s", body)
	}
	if code := post(t, r, "application/json", body); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	ev := c.End(context.Background()).Evidence()
	if len(ev.Actions) != 2 || ev.Actions[0].Name != "search" || string(ev.Actions[1].Arguments) != `{"q": "returns"}` {
		t.Fatalf("actions = %+v", ev.Actions)
	}
}

func TestEvidence_dialects(t *testing.T) {
	for _, tc := range []struct {
		name   string
		attrs  map[string]any
		action *score.Action // nil: not a tool call
		raw    string        // the argument text kept beside a call whose arguments were not an object
		model  bool
		in     int64
	}{
		{name: "genai tool", attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t", "gen_ai.tool.call.arguments": `{"a":1}`},
			action: &score.Action{Name: "t", Arguments: json.RawMessage(`{"a":1}`), Status: "ok"}},
		{name: "genai tool error.type", attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t", "error.type": "timeout"},
			action: &score.Action{Name: "t", Arguments: json.RawMessage(`{}`), Status: "error"}},
		{name: "text arguments: an object, the text kept beside", attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t", "gen_ai.tool.call.arguments": "not json"},
			action: &score.Action{Name: "t", Arguments: json.RawMessage(`{}`), Status: "ok"}, raw: "not json"},
		{name: "array arguments: an object, the text kept beside", attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t", "gen_ai.tool.call.arguments": `[1, 2]`},
			action: &score.Action{Name: "t", Arguments: json.RawMessage(`{}`), Status: "ok"}, raw: "[1, 2]"},
		{name: "group attribute", attrs: map[string]any{"gen_ai.operation.name": "execute_tool", "gen_ai.tool.name": "t", "agentevals.tool.group": "orders"},
			action: &score.Action{Group: "orders", Name: "t", Arguments: json.RawMessage(`{}`), Status: "ok"}},
		{name: "vercel tool", attrs: map[string]any{"ai.operationId": "ai.toolCall", "ai.toolCall.name": "weather", "ai.toolCall.args": `{"city":"Oslo"}`, "ai.toolCall.result": `{"c":3}`},
			action: &score.Action{Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`), Result: json.RawMessage(`{"c":3}`), Status: "ok"}},
		{name: "vercel v5 input/output", attrs: map[string]any{"ai.toolCall.name": "weather", "ai.toolCall.input": `{"city":"Oslo"}`, "ai.toolCall.output": `"sunny"`},
			action: &score.Action{Name: "weather", Arguments: json.RawMessage(`{"city":"Oslo"}`), Result: json.RawMessage(`"sunny"`), Status: "ok"}},
		{name: "openinference tool", attrs: map[string]any{"openinference.span.kind": "TOOL", "tool.name": "sql", "input.value": `{"query":"select 1"}`, "output.value": "1"},
			action: &score.Action{Name: "sql", Arguments: json.RawMessage(`{"query":"select 1"}`), Result: json.RawMessage(`1`), Status: "ok"}},
		{name: "genai chat", attrs: map[string]any{"gen_ai.operation.name": "chat", "gen_ai.usage.input_tokens": int64(7)}, model: true, in: 7},
		{name: "vercel doGenerate", attrs: map[string]any{"ai.operationId": "ai.generateText.doGenerate", "ai.usage.promptTokens": int64(9)}, model: true, in: 9},
		{name: "vercel outer span is structure", attrs: map[string]any{"ai.operationId": "ai.generateText", "ai.usage.promptTokens": int64(9)}},
		{name: "openinference llm", attrs: map[string]any{"openinference.span.kind": "LLM", "llm.token_count.prompt": int64(5)}, model: true, in: 5},
		{name: "plain span", attrs: map[string]any{"http.method": "GET"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := startReceiver(t, fast)
			c := r.Begin()
			body, _ := requestFor(c, 1, func(m pcommon.Map) { _ = m.FromRaw(tc.attrs) }).MarshalProto()
			if code := post(t, r, "application/x-protobuf", body); code != 200 {
				t.Fatalf("status %d", code)
			}
			ev := c.End(context.Background()).Evidence()
			if tc.action == nil {
				if len(ev.Actions) != 0 {
					t.Fatalf("actions = %+v, want none", ev.Actions)
				}
			} else {
				if len(ev.Actions) != 1 {
					t.Fatalf("actions = %+v, want one", ev.Actions)
				}
				got := ev.Actions[0]
				got.DurationMS = nil
				gj, _ := json.Marshal(got)
				wj, _ := json.Marshal(tc.action)
				if string(gj) != string(wj) {
					t.Errorf("action = %s, want %s", gj, wj)
				}
				var stored []map[string]any
				if err := json.Unmarshal(ev.Record.SpanActions, &stored); err != nil || len(stored) != 1 {
					t.Fatalf("span_actions %s: %v", ev.Record.SpanActions, err)
				}
				if g, ok := stored[0]["group"]; !ok || (tc.action.Group == "" && g != nil) {
					t.Errorf("span_actions %s: want the group, null when unknown", ev.Record.SpanActions)
				}
				if _, isObject := stored[0]["arguments"].(map[string]any); !isObject {
					t.Errorf("span_actions %s: want arguments as an object", ev.Record.SpanActions)
				}
				if raw, _ := stored[0]["raw_arguments"].(string); raw != tc.raw {
					t.Errorf("span_actions %s: raw_arguments %q, want %q", ev.Record.SpanActions, raw, tc.raw)
				}
			}
			if tc.model != (ev.Record.ModelCalls == 1) {
				t.Errorf("model calls = %d, want model call %v", ev.Record.ModelCalls, tc.model)
			}
			if tc.model && (ev.InputTokens == nil || *ev.InputTokens != tc.in) {
				t.Errorf("input tokens = %v, want %d", ev.InputTokens, tc.in)
			}
		})
	}
}

// No span at all: actions stay nil (nothing observed), never [].
func TestEvidence_noSpans(t *testing.T) {
	r := startReceiver(t, fast)
	ev := r.Begin().End(context.Background()).Evidence()
	if ev.Actions != nil || ev.Record.SpansReceived != 0 || len(ev.Trace.Spans) != 0 {
		t.Fatalf("evidence = %+v", ev)
	}
	if !strings.Contains(string(mustJSON(t, ev.Record)), `"spans":[]`) {
		t.Errorf("record = %s", mustJSON(t, ev.Record))
	}
}

func mustJSON(t *testing.T, v any) []byte {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}
