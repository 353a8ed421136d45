package main

import (
	"cmp"
	"context"
	"fmt"
	"io"
	"net/url"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/otlp"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/suite"
)

// TraceFlags turn on the run's OTLP receiver.
type TraceFlags struct {
	Traces       bool   `name:"traces" help:"Receive the agent's OpenTelemetry spans during the run: an OTLP/HTTP receiver (protobuf and JSON, /v1/traces) listens on 127.0.0.1 for the length of the run, every agent call gets its own trace (TRACEPARENT and OTEL_EXPORTER_OTLP_ENDPOINT for command and worker agents, a traceparent header for http agents, the context for Go agents), tool calls are read from the spans when the agent reports none, and the trace checks (span_count, span_duration, error_spans) can run. The suite key \"traces\": true does the same. See docs/traces.md."`
	TracesListen string `name:"traces-listen" placeholder:"HOST:PORT" help:"Listen for the agent's spans on this fixed address (e.g. 127.0.0.1:4318) instead of a free port, so a service started outside evalrun can be configured once with OTEL_EXPORTER_OTLP_ENDPOINT=http://HOST:PORT; turns --traces on. Spans still join their case by trace id (the traceparent each call carries); spans of other traces are counted, never filed. The suite key \"traces_listen\" does the same."`
	ExportOTLP   string `name:"export-otlp" placeholder:"URL" help:"After the run, send its results to this OTLP/HTTP traces endpoint (e.g. http://localhost:4318/v1/traces): one span per question with a gen_ai.evaluation.result event per metric (name, score value, pass/fail label, explanation); a traced question's span joins the agent's own trace. A failed export is reported on stderr and does not change the exit code."`
}

// checkExport refuses an export URL that is not http(s).
func (f TraceFlags) checkExport() error {
	if f.ExportOTLP == "" {
		return nil
	}
	u, err := url.Parse(f.ExportOTLP)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return fmt.Errorf("--export-otlp %q: want an http or https URL such as http://localhost:4318/v1/traces", sanitize.URL(f.ExportOTLP))
	}
	return nil
}

// exportScores sends the run's results when --export-otlp asks for it.
func (f TraceFlags) exportScores(ctx context.Context, stderr io.Writer, run *models.Run) {
	if f.ExportOTLP == "" || run == nil {
		return
	}
	n, err := otlp.ExportScores(ctx, f.ExportOTLP, run, otlp.ExportOptions{})
	if err != nil {
		fmt.Fprintf(stderr, "warning: the scores were not exported: %s\n", sanitize.EscapeText(err.Error()))
		return
	}
	fmt.Fprintf(stderr, "exported %d question spans with their scores to %s\n", n, sanitize.EscapeText(sanitize.URL(f.ExportOTLP)))
}

// startTraces starts the receiver when the flag or the suite asks for
// it; nil when tracing is off. The returned stop closes it.
func (f TraceFlags) startTraces(s *suite.Suite, stderr io.Writer) (*otlp.Receiver, func(), error) {
	listen := cmp.Or(f.TracesListen, s.TracesListen)
	if !f.Traces && !s.Traces && listen == "" {
		return nil, func() {}, nil
	}
	if listen == "" {
		listen = "127.0.0.1:0"
	} else if err := suite.CheckListenAddress(listen); err != nil {
		return nil, nil, fmt.Errorf("--traces-listen: %w", err)
	}
	r, err := otlp.StartAt(listen, otlp.Limits{})
	if err != nil {
		return nil, nil, err
	}
	fmt.Fprintf(stderr, "traces: receiving OTLP/HTTP spans at %s%s\n", r.Endpoint(), otlp.TracesPath)
	return r, func() {
		_ = r.Close()
		if n := r.Unknown(); n > 0 {
			fmt.Fprintf(stderr, "traces: %d spans of traces no question started were received and not filed (another process exports to %s)\n", n, r.Endpoint())
		}
	}, nil
}
