package adapter

import (
	"context"
	"net/http"

	"github.com/agentevals-go/agentevals/agent"
)

// endpointEnv is the environment that points an OpenTelemetry SDK at
// the run's receiver.
func endpointEnv(tc agent.TraceContext) []string {
	return []string{"OTEL_EXPORTER_OTLP_ENDPOINT=" + tc.Endpoint, "OTEL_EXPORTER_OTLP_TRACES_ENDPOINT=" + tc.Endpoint + "/v1/traces",
		"OTEL_EXPORTER_OTLP_PROTOCOL=http/protobuf", "OTEL_TRACES_EXPORTER=otlp"}
}

// traceEnv is the environment of a command agent's process for the call.
func traceEnv(ctx context.Context) []string {
	tc, ok := agent.TraceOf(ctx)
	if !ok {
		return nil
	}
	return append(endpointEnv(tc), "TRACEPARENT="+tc.Traceparent)
}

// workerTraceEnv is the environment a worker starts with: the endpoint
// only, as each question carries its own traceparent.
func workerTraceEnv(ctx context.Context) []string {
	if tc, ok := agent.TraceOf(ctx); ok {
		return endpointEnv(tc)
	}
	return nil
}

// addTraceHeader sets an HTTP agent's traceparent header.
func addTraceHeader(ctx context.Context, h http.Header) {
	if tc, ok := agent.TraceOf(ctx); ok {
		h.Set("traceparent", tc.Traceparent)
	}
}

// traceparentOf is the traceparent a worker's question line carries.
func traceparentOf(ctx context.Context) string {
	tc, _ := agent.TraceOf(ctx)
	return tc.Traceparent
}
