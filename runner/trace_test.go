package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/internal/testkit/nodedeps"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/otlp"
)

// traceSuite scores the path only: the agent reports no actions.
const traceSuite = `{"suite": "Traced", "agent": %s,
  "evaluators": {
    "path": {"type": "action_group", "params": {"mode": "in_order", "arguments": "partial"}, "threshold": 1},
    "ok_calls": {"type": "tool_success", "threshold": 1},
    "tools": {"type": "span_count", "params": {"pattern": "*lookup_order*", "min": 1, "max": 1}, "threshold": 1}},
  "questions": [
    {"id": "fine", "question": "Where is order 42?", "expected_actions": [{"group": "orders", "name": "lookup_order", "arguments": {"id": 42}}]},
    {"id": "broken", "question": "Refund order 42", "expected_actions": [{"group": "orders", "name": "lookup_order", "arguments": {"id": 42}}]}]}`

func startTraces(t *testing.T) *otlp.Receiver {
	t.Helper()
	r, err := otlp.Start(otlp.Limits{Quiet: 100 * time.Millisecond, MaxWait: 3 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	return r
}

// caseTrace reads a case's stored trace record.
func caseTrace(t *testing.T, c *models.CaseResult) *models.CaseTrace {
	t.Helper()
	m, err := models.DecodeCaseMetadata(c.ResponseMetadata)
	if err != nil || m.Trace == nil {
		t.Fatalf("case %s: no otlp_trace in %s (%v)", c.CaseID, c.ResponseMetadata, err)
	}
	return m.Trace
}

// wantTraced checks the two cases of traceSuite: the path passes in both;
// the broken case's second tool call failed.
func wantTraced(t *testing.T, run *models.Run) {
	t.Helper()
	for _, c := range run.Cases {
		tr := caseTrace(t, c)
		if tr.ActionsFrom != "spans" || tr.SpansReceived < 2 {
			t.Errorf("case %s: actions from %q, %d spans: %s", c.CaseID, tr.ActionsFrom, tr.SpansReceived, c.ResponseMetadata)
		}
		var actions []map[string]any
		if err := json.Unmarshal(c.Actions, &actions); err != nil || len(actions) == 0 || actions[0]["name"] != "lookup_order" {
			t.Errorf("case %s: actions column %s", c.CaseID, c.Actions)
		}
		for _, m := range c.Metrics {
			want := true
			if c.CaseID == "broken" && m.Name == "ok_calls" {
				want = false
			}
			if m.Score == nil || m.Passed != want {
				t.Errorf("case %s metric %s: score %v passed %v, want passed %v (reason %v, error %s)", c.CaseID, m.Name, m.Score, m.Passed, want, deref(m.Reason), m.ErrorDetails)
			}
		}
	}
}

// A Go function agent instrumented with the Go SDK's OTLP/HTTP exporter:
// its spans continue the trace in ctx and go to the endpoint agent.TraceOf
// names.
func TestExecute_tracesGoSDK(t *testing.T) {
	recv := startTraces(t)
	var once sync.Once
	var tracer trace.Tracer
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		tc, ok := agent.TraceOf(ctx)
		if !ok || !agent.SpanContext(ctx).IsValid() {
			return agent.Response{}, fmt.Errorf("no trace context in ctx")
		}
		once.Do(func() {
			exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(tc.Endpoint+otlp.TracesPath))
			if err != nil {
				panic(err)
			}
			tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
			t.Cleanup(func() { _ = tp.Shutdown(context.Background()) })
			tracer = tp.Tracer("go-agent")
		})
		ctx, root := tracer.Start(ctx, "invoke_agent support")
		call := func(name, args string, fail bool) {
			_, sp := tracer.Start(ctx, "execute_tool "+name, trace.WithAttributes(attribute.String("gen_ai.operation.name", "execute_tool"),
				attribute.String("gen_ai.tool.name", name), attribute.String("gen_ai.tool.call.arguments", args)))
			if fail {
				sp.SetAttributes(attribute.String("error.type", "unavailable"))
			}
			sp.End()
		}
		call("lookup_order", `{"id": 42, "verbose": true}`, false)
		if q.ID == "broken" {
			call("refund", `{"id": 42}`, true)
		}
		root.End()
		return agent.Response{Output: json.RawMessage(`"done"`)}, nil
	})
	s := mustLoad(t, fmt.Sprintf(traceSuite, `{"name": "GoAgent"}`))
	run := mustExecute(t, s, a, ExecOptions{Traces: recv})
	wantTraced(t, run)
}

// nodeAgents is the directory of the Node agents, with its npm packages
// installed on first use.
func nodeAgents(t *testing.T) string {
	t.Helper()
	return nodedeps.Require(t, filepath.Join("..", "testdata", "otel-node"))
}

func nodeAgent(t *testing.T, script string, env ...string) string {
	dir := nodeAgents(t)
	m := map[string]any{"name": "NodeAgent", "type": "command", "command": []string{"node", filepath.Join(dir, script)}, "dir": dir, "timeout": "60s"}
	if len(env) > 0 {
		m["env"] = env
	}
	cfg, _ := json.Marshal(m)
	return string(cfg)
}

// The OpenTelemetry Node SDK with the OTLP proto exporter in a command
// agent that reads TRACEPARENT.
func TestExecute_tracesNodeSDK(t *testing.T) {
	recv := startTraces(t)
	s := mustLoad(t, fmt.Sprintf(traceSuite, nodeAgent(t, "sdk-agent.mjs")))
	run := mustExecute(t, s, mustAgent(t, s.Agent, adapter.Options{}), ExecOptions{Traces: recv, Concurrency: 2})
	wantTraced(t, run)
	if tr := caseTrace(t, run.Cases[0]); tr.Spans[0].Attributes.Value("service.name") != "otel-node-sdk-agent" {
		t.Errorf("root span attributes %v", tr.Spans[0].Attributes)
	}
}

// scriptedModel is an OpenAI-compatible chat server: the first request of
// a conversation gets a tool call, the next (with the tool's result) the
// answer.
func scriptedModel(t *testing.T) (*httptest.Server, *atomic.Int64) {
	var calls atomic.Int64
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		calls.Add(1)
		body, _ := io.ReadAll(io.LimitReader(r.Body, 1<<20))
		if !strings.HasSuffix(r.URL.Path, "/chat/completions") {
			http.Error(w, "unexpected path "+r.URL.Path, http.StatusNotFound)
			return
		}
		w.Header().Set("Content-Type", "application/json")
		usage := `"usage": {"prompt_tokens": 50, "completion_tokens": 10, "total_tokens": 60}`
		if !strings.Contains(string(body), `"role":"tool"`) {
			fmt.Fprintf(w, `{"id": "c1", "object": "chat.completion", "created": 1, "model": "scripted-model",
			  "choices": [{"index": 0, "finish_reason": "tool_calls", "message": {"role": "assistant", "content": null,
			    "tool_calls": [{"id": "call_1", "type": "function", "function": {"name": "lookup_order", "arguments": "{\"id\": 42}"}}]}}], %s}`, usage)
			return
		}
		fmt.Fprintf(w, `{"id": "c2", "object": "chat.completion", "created": 2, "model": "scripted-model",
		  "choices": [{"index": 0, "finish_reason": "stop", "message": {"role": "assistant", "content": "Order 42 has shipped."}}], %s}`, usage)
	}))
	t.Cleanup(srv.Close)
	return srv, &calls
}

// The Vercel AI SDK with telemetry on emits its own spans: the tool call
// is scored without the agent reporting it.
func TestExecute_tracesVercelAISDK(t *testing.T) {
	recv := startTraces(t)
	srv, calls := scriptedModel(t)
	t.Setenv("MODEL_BASE_URL", srv.URL)
	s := mustLoad(t, fmt.Sprintf(`{"suite": "Vercel", "agent": %s,
	  "evaluators": {
	    "path": {"type": "action_group", "params": {"mode": "strict"}, "threshold": 1},
	    "ok_calls": {"type": "tool_success", "threshold": 1},
	    "budget": {"type": "step_budget", "params": {"max": 2}, "threshold": 1}},
	  "questions": [{"id": "q1", "question": "Where is order 42?", "expected_actions": [{"group": "orders", "name": "lookup_order", "arguments": {"id": 42}}]}]}`,
		nodeAgent(t, "vercel-agent.mjs", "MODEL_BASE_URL")))
	run := mustExecute(t, s, mustAgent(t, s.Agent, adapter.Options{}), ExecOptions{Traces: recv})
	c := run.Cases[0]
	if c.Status != models.StatusPassed {
		t.Fatalf("status %s, error %s, metrics %s, metadata %s", c.Status, c.ErrorDetails, metricLines(c), c.ResponseMetadata)
	}
	tr := caseTrace(t, c)
	if tr.ActionsFrom != "spans" || tr.ModelCalls != 2 || tr.InputTokens == nil || *tr.InputTokens != 100 {
		t.Errorf("trace: actions from %q, %d model calls, input tokens %v", tr.ActionsFrom, tr.ModelCalls, tr.InputTokens)
	}
	if c.InputTokens == nil || *c.InputTokens != 100 || *c.OutputTokens != 20 {
		t.Errorf("case tokens %v/%v, want the spans' 100/20", c.InputTokens, c.OutputTokens)
	}
	if calls.Load() != 2 {
		t.Errorf("model server calls = %d, want 2", calls.Load())
	}
}

func metricLines(c *models.CaseResult) string {
	var b strings.Builder
	for _, m := range c.Metrics {
		fmt.Fprintf(&b, "%s=%v (%s); ", m.Name, m.Score, deref(m.Reason))
	}
	return b.String()
}

// Tracing on, but the agent sends no span: actions stay null (not
// instrumented), and the trace record says no span came.
func TestExecute_tracesNoSpans(t *testing.T) {
	recv := startTraces(t)
	s := mustLoad(t, fmt.Sprintf(traceSuite, `{"name": "Quiet"}`))
	quiet := agent.Func(func(context.Context, agent.Question) (agent.Response, error) {
		return agent.Response{Output: json.RawMessage(`"x"`)}, nil
	})
	run := mustExecute(t, s, quiet, ExecOptions{Traces: recv})
	for _, c := range run.Cases {
		if c.Actions != nil {
			t.Errorf("actions = %s, want NULL", c.Actions)
		}
		if tr := caseTrace(t, c); tr.SpansReceived != 0 || tr.ActionsFrom != "" {
			t.Errorf("trace %+v", tr)
		}
	}
}

// A credential in a span (a tool's arguments, a span attribute) is
// redacted in every stored column: the actions and the stored trace.
func TestExecute_tracesRedacted(t *testing.T) {
	recv := startTraces(t)
	const key = "sk-live-0123456789abcdefXYZ"
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		tc, _ := agent.TraceOf(ctx)
		exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(tc.Endpoint+otlp.TracesPath))
		if err != nil {
			return agent.Response{}, err
		}
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		defer tp.Shutdown(context.Background())
		_, sp := tp.Tracer("t").Start(ctx, "execute_tool lookup_order", trace.WithAttributes(attribute.String("gen_ai.operation.name", "execute_tool"),
			attribute.String("gen_ai.tool.name", "lookup_order"), attribute.String("gen_ai.tool.call.arguments", `{"id": 42, "token": "`+key+`"}`),
			attribute.String("http.request.header.authorization", "Bearer "+key)))
		sp.End()
		return agent.Response{Output: json.RawMessage(`"done"`)}, nil
	})
	s := mustLoad(t, fmt.Sprintf(traceSuite, `{"name": "Leaky"}`))
	run := mustExecute(t, s, a, ExecOptions{Traces: recv})
	for _, c := range run.Cases {
		for col, v := range map[string]models.JSON{"actions": c.Actions, "response_metadata": c.ResponseMetadata} {
			if strings.Contains(string(v), key) {
				t.Errorf("case %s: %s keeps the credential: %s", c.CaseID, col, v)
			}
		}
		if !strings.Contains(string(c.ResponseMetadata), `"redacted"`) {
			t.Errorf("case %s: the redaction is not noted: %s", c.CaseID, c.ResponseMetadata)
		}
		for _, m := range c.Metrics {
			if m.Reason != nil && strings.Contains(*m.Reason, key) {
				t.Errorf("case %s metric %s: reason keeps the credential", c.CaseID, m.Name)
			}
		}
	}
}

// Each turn of a conversation is its own agent call with its own trace,
// and a turn that reports no actions gets the calls from its spans.
func TestConverse_tracesPerTurn(t *testing.T) {
	recv := startTraces(t)
	s := mustLoad(t, `{"suite": "S", "version": "1", "agent": {"name": "Bot"}, "questions": [{"id": "q", "turns": ["where is 1?", "and 2?"], "checks": [{"type": "contains", "value": "ok"}]}]}`)
	var mu sync.Mutex
	traces := map[int]string{}
	bot := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		tc, _ := agent.TraceOf(ctx)
		exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(tc.Endpoint+otlp.TracesPath))
		if err != nil {
			return agent.Response{}, err
		}
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		defer tp.Shutdown(context.Background())
		_, sp := tp.Tracer("bot").Start(ctx, "execute_tool lookup_order", trace.WithAttributes(attribute.String("gen_ai.operation.name", "execute_tool"),
			attribute.String("gen_ai.tool.name", "lookup_order"), attribute.String("gen_ai.tool.call.arguments", fmt.Sprintf(`{"id": %d}`, q.Turn))))
		sp.End()
		mu.Lock()
		traces[q.Turn] = agent.SpanContext(ctx).TraceID().String()
		mu.Unlock()
		return agent.Response{Output: json.RawMessage(`"ok"`)}, nil
	})
	run := mustExecute(t, s, bot, ExecOptions{Traces: recv})
	if len(traces) != 2 || traces[1] == traces[2] || traces[1] == "" {
		t.Fatalf("turn traces = %v, want two different ones", traces)
	}
	meta, err := models.DecodeCaseMetadata(run.Cases[0].ResponseMetadata)
	if err != nil || meta.Transcript == nil || len(meta.Transcript.Turns) != 2 {
		t.Fatalf("transcript: %v %s", err, run.Cases[0].ResponseMetadata)
	}
	for i, turn := range meta.Transcript.Turns {
		if want := fmt.Sprintf(`"arguments":{"id":%d}`, i+1); !strings.Contains(string(turn.Actions), want) || !strings.Contains(string(turn.Actions), `"group":null`) {
			t.Errorf("turn %d actions = %s, want the span's call with %s and group null, as the gem stores it", i+1, turn.Actions, want)
		}
	}
}
