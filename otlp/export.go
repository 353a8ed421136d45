package otlp

import (
	"context"
	"encoding/hex"
	"fmt"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/codes"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	"go.opentelemetry.io/otel/sdk/resource"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
)

// ExportOptions tune ExportScores.
type ExportOptions struct {
	// Timeout bounds the whole export, retries included (0: 10 s).
	Timeout time.Duration
}

// ExportScores sends a run's results to an OTLP/HTTP collector (url is
// the traces endpoint, e.g. http://localhost:4318/v1/traces) with the Go
// SDK: one span per case, named "evaluate CASE_ID", with one
// gen_ai.evaluation.result event per metric (gen_ai.evaluation.name,
// gen_ai.evaluation.score.value, gen_ai.evaluation.score.label "pass",
// "fail" or "error", gen_ai.evaluation.explanation). A traced case's span
// joins the agent's trace as a child of the case's traceparent and links
// to it, so a trace viewer shows the scores beside the agent's own spans.
// The spans go out in one export whose outcome is returned: a collector
// that is down, refuses (4xx, 5xx), throttles past the timeout or hangs
// is an error, never a count. It returns how many case spans the
// collector accepted. Errors name the URL without its credentials.
func ExportScores(ctx context.Context, url string, run *models.Run, opts ExportOptions) (int, error) {
	timeout := opts.Timeout
	if timeout <= 0 {
		timeout = 10 * time.Second
	}
	fail := func(err error) error {
		return fmt.Errorf("export scores to %s: %s", sanitize.URL(url), sanitize.String(err.Error()))
	}
	exp, err := otlptracehttp.New(ctx, otlptracehttp.WithEndpointURL(url), otlptracehttp.WithTimeout(timeout),
		otlptracehttp.WithRetry(otlptracehttp.RetryConfig{Enabled: true, InitialInterval: 200 * time.Millisecond,
			MaxInterval: time.Second, MaxElapsedTime: timeout}))
	if err != nil {
		return 0, fail(err)
	}
	defer func() { _ = exp.Shutdown(context.WithoutCancel(ctx)) }()
	var spans collected
	res := resource.NewSchemaless(attribute.String("service.name", "agentevals"))
	tp := sdktrace.NewTracerProvider(sdktrace.WithSpanProcessor(&spans), sdktrace.WithResource(res))
	tracer := tp.Tracer("github.com/agentevals-go/agentevals")
	for _, c := range run.Cases {
		caseSpan(ctx, tracer, run, c)
	}
	_ = tp.Shutdown(ctx) // ends nothing of ours: the spans are collected
	ctx, cancel := context.WithTimeout(ctx, timeout)
	defer cancel()
	if err := exp.ExportSpans(ctx, spans.spans); err != nil {
		return 0, fail(err)
	}
	return len(spans.spans), nil
}

// collected keeps the ended spans so they are exported in one call whose
// error is seen (a batching processor only logs it).
type collected struct{ spans []sdktrace.ReadOnlySpan }

var _ sdktrace.SpanProcessor = (*collected)(nil)

func (c *collected) OnStart(context.Context, sdktrace.ReadWriteSpan) {}
func (c *collected) OnEnd(s sdktrace.ReadOnlySpan)                   { c.spans = append(c.spans, s) }
func (c *collected) Shutdown(context.Context) error                  { return nil }
func (c *collected) ForceFlush(context.Context) error                { return nil }

// caseSpan records one case's evaluation.
func caseSpan(ctx context.Context, tracer trace.Tracer, run *models.Run, c *models.CaseResult) {
	opts := []trace.SpanStartOption{trace.WithAttributes(
		attribute.String("agentevals.run.id", run.ID.String()), attribute.String("agentevals.suite", run.Suite),
		attribute.String("agentevals.agent", run.Agent), attribute.String("agentevals.case.id", c.CaseID),
		attribute.String("agentevals.case.status", c.EffectiveStatus()))}
	if q := c.Quality(); q != nil {
		opts = append(opts, trace.WithAttributes(attribute.Float64("agentevals.case.quality", *q)))
	}
	if sc, ok := agentSpanContext(c); ok {
		ctx = trace.ContextWithRemoteSpanContext(ctx, sc)
		opts = append(opts, trace.WithLinks(trace.Link{SpanContext: sc}))
	} else {
		opts = append(opts, trace.WithNewRoot())
	}
	_, span := tracer.Start(ctx, "evaluate "+c.CaseID, opts...)
	defer span.End()
	for _, m := range c.Metrics {
		attrs := []attribute.KeyValue{attribute.String("gen_ai.evaluation.name", m.Name)}
		label := "fail"
		switch {
		case m.Errored():
			label = "error"
		case m.Score == nil:
			label = "not_calculated"
		case m.Passed:
			label = "pass"
		}
		if m.Score != nil {
			attrs = append(attrs, attribute.Float64("gen_ai.evaluation.score.value", *m.Score))
		}
		attrs = append(attrs, attribute.String("gen_ai.evaluation.score.label", label))
		if m.Reason != nil {
			attrs = append(attrs, attribute.String("gen_ai.evaluation.explanation", *m.Reason))
		}
		span.AddEvent("gen_ai.evaluation.result", trace.WithAttributes(attrs...))
	}
	if c.EffectiveStatus() == models.StatusError {
		span.SetStatus(codes.Error, "agent error")
	}
}

// agentSpanContext is the span context of the case's traceparent, when
// the case was traced.
func agentSpanContext(c *models.CaseResult) (trace.SpanContext, bool) {
	meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
	if err != nil || meta.Trace == nil {
		return trace.SpanContext{}, false
	}
	var tid trace.TraceID
	var sid trace.SpanID
	tb, err1 := hex.DecodeString(meta.Trace.TraceID)
	sb, err2 := hex.DecodeString(meta.Trace.ParentSpanID)
	if err1 != nil || err2 != nil || len(tb) != len(tid) || len(sb) != len(sid) {
		return trace.SpanContext{}, false
	}
	copy(tid[:], tb)
	copy(sid[:], sb)
	sc := trace.NewSpanContext(trace.SpanContextConfig{TraceID: tid, SpanID: sid, TraceFlags: trace.FlagsSampled, Remote: true})
	return sc, sc.IsValid()
}
