// Command traces is an offline support agent that reports no actions: it
// describes each step as OpenTelemetry spans under the GenAI conventions,
// exported with the Go SDK's OTLP/HTTP exporter, and evalrun --traces reads
// its tool calls from them. It is a worker agent: one question per line on
// stdin (with the call's "traceparent"), one reply per line on stdout.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"
	"strings"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

// question is one line of the worker protocol.
type question struct {
	ID          string `json:"id"`
	Question    string `json:"question"`
	Traceparent string `json:"traceparent"`
}

// orders is the agent's whole back office.
var orders = map[int]string{42: "out for delivery", 7: "delivered"}

func main() {
	ctx := context.Background()
	tracer, shutdown, err := newTracer(ctx)
	if err != nil {
		fmt.Fprintln(os.Stderr, "traces agent:", err)
		os.Exit(1)
	}
	defer shutdown()
	in := bufio.NewScanner(os.Stdin)
	out := json.NewEncoder(os.Stdout)
	for in.Scan() {
		var q question
		if err := json.Unmarshal(in.Bytes(), &q); err != nil {
			fmt.Fprintln(os.Stderr, "traces agent: bad question line:", err)
			os.Exit(1)
		}
		// Continue the case's trace: its spans are joined to the case by it.
		qctx := propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": q.Traceparent})
		_ = out.Encode(map[string]any{"output": answer(qctx, tracer, q.Question)})
	}
}

// newTracer exports every span at once (no batching delay), to the
// endpoint in OTEL_EXPORTER_OTLP_TRACES_ENDPOINT, which evalrun sets.
func newTracer(ctx context.Context) (trace.Tracer, func(), error) {
	if os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") == "" {
		return nil, nil, fmt.Errorf("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT is not set: run with evalrun run --traces")
	}
	exp, err := otlptracehttp.New(ctx)
	if err != nil {
		return nil, nil, err
	}
	tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
	return tp.Tracer("examples/traces"), func() { _ = tp.Shutdown(ctx) }, nil
}

// answer plans the tool calls for a question and runs them in spans.
func answer(ctx context.Context, tracer trace.Tracer, text string) string {
	ctx, root := tracer.Start(ctx, "invoke_agent support", trace.WithAttributes(attribute.String("gen_ai.operation.name", "invoke_agent")))
	defer root.End()
	chat(ctx, tracer, 80, 12)
	id, found := orderID(text)
	if !found {
		return "Which order do you mean?"
	}
	status, ok := tool(ctx, tracer, "lookup_order", map[string]any{"id": id})
	if !ok {
		return fmt.Sprintf("I could not find order %d.", id)
	}
	reply := fmt.Sprintf("Order %d is %s.", id, status)
	if strings.Contains(strings.ToLower(text), "refund") {
		if _, ok := tool(ctx, tracer, "refund", map[string]any{"id": id, "reason": "customer request"}); ok {
			reply += " I refunded it."
		}
	}
	chat(ctx, tracer, 120, 20)
	return reply
}

// orderID is the first number in the question.
func orderID(text string) (int, bool) {
	at := strings.IndexAny(text, "0123456789")
	if at < 0 {
		return 0, false
	}
	var id int
	_, err := fmt.Sscanf(text[at:], "%d", &id)
	return id, err == nil
}

// chat records a model call with its usage.
func chat(ctx context.Context, tracer trace.Tracer, in, out int) {
	_, sp := tracer.Start(ctx, "chat support-model", trace.WithAttributes(attribute.String("gen_ai.operation.name", "chat"),
		attribute.Int("gen_ai.usage.input_tokens", in), attribute.Int("gen_ai.usage.output_tokens", out)))
	sp.End()
}

// tool runs one tool call in an execute_tool span.
func tool(ctx context.Context, tracer trace.Tracer, name string, args map[string]any) (string, bool) {
	raw, _ := json.Marshal(args)
	_, sp := tracer.Start(ctx, "execute_tool "+name, trace.WithAttributes(attribute.String("gen_ai.operation.name", "execute_tool"),
		attribute.String("gen_ai.tool.name", name), attribute.String("gen_ai.tool.call.arguments", string(raw))))
	defer sp.End()
	id, _ := args["id"].(int)
	status, ok := orders[id]
	if name == "refund" {
		status, ok = "refunded", ok && status == "delivered"
	}
	if !ok {
		sp.SetStatus(codes.Error, "no such order")
		return "", false
	}
	res, _ := json.Marshal(map[string]string{"status": status})
	sp.SetAttributes(attribute.String("gen_ai.tool.call.result", string(res)))
	return status, true
}
