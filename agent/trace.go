package agent

import (
	"context"

	"go.opentelemetry.io/otel/propagation"
	"go.opentelemetry.io/otel/trace"
)

// TraceContext is the W3C trace context of one agent call and where the
// agent's spans go, when the run has tracing on.
type TraceContext struct {
	// Traceparent is the W3C traceparent the call's spans continue.
	Traceparent string
	// Endpoint is the OTLP/HTTP base URL (spans go to Endpoint+"/v1/traces").
	Endpoint string
}

// traceKey carries the TraceContext of a call.
type traceKey struct{}

// WithTrace returns a context for an agent call that carries tc: command
// agents get TRACEPARENT and the OTLP endpoint variables, worker agents
// the endpoint when they start and "traceparent" with each question, HTTP
// agents a traceparent header, and Go function agents a remote span
// context, so spans they start with this ctx join the case's trace.
func WithTrace(ctx context.Context, tc TraceContext) context.Context {
	ctx = context.WithValue(ctx, traceKey{}, tc)
	carrier := propagation.MapCarrier{"traceparent": tc.Traceparent}
	return propagation.TraceContext{}.Extract(ctx, carrier)
}

// TraceOf returns the call's TraceContext placed by WithTrace; ok is
// false when the run has tracing off. A Go function agent reads Endpoint
// to point its exporter at the run.
func TraceOf(ctx context.Context) (TraceContext, bool) {
	tc, ok := ctx.Value(traceKey{}).(TraceContext)
	return tc, ok
}

// SpanContext is the remote span context a Go function agent's spans
// continue (invalid when tracing is off).
func SpanContext(ctx context.Context) trace.SpanContext { return trace.SpanContextFromContext(ctx) }
