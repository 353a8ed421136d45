// Command otelworker is the traces comparison's agent: a worker (one JSON
// question per line in, one reply per line out) that describes each answer
// as three spans with the OpenTelemetry Go SDK, a root span continuing the
// question's traceparent, a model call and a tool call, and flushes them
// before it answers. With OTEL_EXPORTER_OTLP_TRACES_ENDPOINT unset (evalrun
// without --traces) it makes the same spans and exports none.
package main

import (
	"bufio"
	"context"
	"encoding/json"
	"fmt"
	"os"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/propagation"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"
)

type question struct {
	ID          string `json:"id"`
	Traceparent string `json:"traceparent"`
}

func main() {
	ctx := context.Background()
	var opts []sdktrace.TracerProviderOption
	if os.Getenv("OTEL_EXPORTER_OTLP_TRACES_ENDPOINT") != "" {
		exp, err := otlptracehttp.New(ctx)
		if err != nil {
			fmt.Fprintln(os.Stderr, "otelworker:", err)
			os.Exit(1)
		}
		opts = append(opts, sdktrace.WithBatcher(exp))
	}
	tp := sdktrace.NewTracerProvider(opts...)
	defer tp.Shutdown(ctx)
	tracer := tp.Tracer("otelworker")
	in := bufio.NewScanner(os.Stdin)
	in.Buffer(make([]byte, 64<<10), 1<<20)
	out := bufio.NewWriter(os.Stdout)
	for in.Scan() {
		var q question
		if err := json.Unmarshal(in.Bytes(), &q); err != nil {
			fmt.Fprintln(os.Stderr, "otelworker: bad question line:", err)
			os.Exit(1)
		}
		qctx := propagation.TraceContext{}.Extract(ctx, propagation.MapCarrier{"traceparent": q.Traceparent})
		answer(qctx, tracer)
		if err := tp.ForceFlush(ctx); err != nil {
			fmt.Fprintln(os.Stderr, "otelworker: flush:", err)
		}
		out.WriteString(`{"output": "ok"}` + "\n")
		out.Flush()
	}
}

// answer makes the case's spans: the root, a model call, a tool call.
func answer(ctx context.Context, tracer trace.Tracer) {
	ctx, root := tracer.Start(ctx, "invoke_agent bench", trace.WithAttributes(attribute.String("gen_ai.operation.name", "invoke_agent")))
	_, chat := tracer.Start(ctx, "chat bench-model", trace.WithAttributes(attribute.String("gen_ai.operation.name", "chat"),
		attribute.Int("gen_ai.usage.input_tokens", 80), attribute.Int("gen_ai.usage.output_tokens", 12)))
	chat.End()
	_, tool := tracer.Start(ctx, "execute_tool lookup_order", trace.WithAttributes(attribute.String("gen_ai.operation.name", "execute_tool"),
		attribute.String("gen_ai.tool.name", "lookup_order"), attribute.String("gen_ai.tool.call.arguments", `{"id": 42}`),
		attribute.String("gen_ai.tool.call.result", `{"status": "delivered"}`)))
	tool.End()
	root.End()
}
