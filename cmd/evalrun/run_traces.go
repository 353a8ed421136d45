package main

import (
	"fmt"
	"io"

	"github.com/agentevals/agentevals/otlp"
	"github.com/agentevals/agentevals/suite"
)

// TraceFlags turn on the run's OTLP receiver.
type TraceFlags struct {
	Traces bool `name:"traces" help:"Receive the agent's OpenTelemetry spans during the run: an OTLP/HTTP receiver (protobuf and JSON, /v1/traces) listens on 127.0.0.1 for the length of the run, every agent call gets its own trace (TRACEPARENT and OTEL_EXPORTER_OTLP_ENDPOINT for command and worker agents, a traceparent header for http agents, the context for Go agents), tool calls are read from the spans when the agent reports none, and the trace checks (span_count, span_duration, error_spans) can run. The suite key \"traces\": true does the same. See docs/traces.md."`
}

// startTraces starts the receiver when the flag or the suite asks for
// it; nil when tracing is off. The returned stop closes it.
func (f TraceFlags) startTraces(s *suite.Suite, stderr io.Writer) (*otlp.Receiver, func(), error) {
	if !f.Traces && !s.Traces {
		return nil, func() {}, nil
	}
	r, err := otlp.Start(otlp.Limits{})
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(stderr, "traces: receiving OTLP/HTTP spans at %s%s\n", r.Endpoint(), otlp.TracesPath)
	return r, func() { _ = r.Close() }, nil
}
