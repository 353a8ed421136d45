package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"go.opentelemetry.io/otel/attribute"
	"go.opentelemetry.io/otel/exporters/otlp/otlptrace/otlptracehttp"
	sdktrace "go.opentelemetry.io/otel/sdk/trace"
	"go.opentelemetry.io/otel/trace"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/otlp"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// BenchmarkExecute_tracingOverhead runs the same 8-question suite with
// tracing off (the agent reports its actions) and on (it sends the same
// calls as Go SDK spans and reports none), alternating within one
// benchmark, and reports ms per case for each and their ratio. With
// tracing on, a case whose trace is complete when the agent answers is
// read at once; "on-wait5ms" is the same run with a 5 ms quiet wait for
// an incomplete trace, for comparison.
func BenchmarkExecute_tracingOverhead(b *testing.B) {
	questions := ""
	for i := range 8 {
		if i > 0 {
			questions += ","
		}
		questions += fmt.Sprintf(`{"id": "q%d", "question": "Where is order %d?", "expected_actions": [{"group": "orders", "name": "lookup_order", "arguments": {"id": %d}}]}`, i, i, i)
	}
	s := mustLoad(b, `{"suite": "Bench", "agent": {"name": "A"}, "evaluators": {"path": {"type": "action_group", "params": {"mode": "unordered"}, "threshold": 1}}, "questions": [`+questions+`]}`)
	args := func(q agent.Question) string { return fmt.Sprintf(`{"id": %s}`, q.ID[1:]) }
	off := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		return agent.Response{Output: json.RawMessage(`"ok"`), Actions: []score.Action{{Group: "orders", Name: "lookup_order", Arguments: json.RawMessage(args(q))}}}, nil
	})
	run := func(limits otlp.Limits) (time.Duration, error) {
		recv, err := otlp.Start(limits)
		if err != nil {
			return 0, err
		}
		defer recv.Close()
		exp, err := otlptracehttp.New(context.Background(), otlptracehttp.WithEndpointURL(recv.Endpoint()+otlp.TracesPath))
		if err != nil {
			return 0, err
		}
		tp := sdktrace.NewTracerProvider(sdktrace.WithSyncer(exp))
		defer tp.Shutdown(context.Background())
		tracer := tp.Tracer("bench")
		on := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
			ctx, root := tracer.Start(ctx, "invoke_agent")
			_, sp := tracer.Start(ctx, "execute_tool lookup_order", trace.WithAttributes(attribute.String("gen_ai.operation.name", "execute_tool"),
				attribute.String("gen_ai.tool.name", "lookup_order"), attribute.String("gen_ai.tool.call.arguments", args(q))))
			sp.End()
			root.End()
			return agent.Response{Output: json.RawMessage(`"ok"`)}, nil
		})
		start := time.Now()
		_, err = Execute(context.Background(), s, on, ExecOptions{Traces: recv})
		return time.Since(start), err
	}
	var tOff, tOn, tOnFast time.Duration
	for b.Loop() {
		start := time.Now()
		if _, err := Execute(context.Background(), s, off, ExecOptions{}); err != nil {
			b.Fatal(err)
		}
		tOff += time.Since(start)
		d, err := run(otlp.Limits{})
		if err != nil {
			b.Fatal(err)
		}
		tOn += d
		if d, err = run(otlp.Limits{Quiet: 5 * time.Millisecond}); err != nil {
			b.Fatal(err)
		}
		tOnFast += d
	}
	perCase := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N*len(s.Cases)) }
	b.ReportMetric(perCase(tOff), "ms/case-off")
	b.ReportMetric(perCase(tOn), "ms/case-on")
	b.ReportMetric(perCase(tOnFast), "ms/case-on-wait5ms")
	b.ReportMetric(float64(tOn)/float64(tOff), "on/off")
	b.ReportMetric(float64(tOnFast)/float64(tOff), "on-wait5ms/off")
}

// BenchmarkExecute_tracedWorker runs bench/overhead's Go OpenTelemetry
// SDK worker (three spans per answer, flushed before it answers) over 200
// questions with tracing on and off, alternating within one benchmark, at
// -j 1 and 4, and reports ms per case for each and their ratio: what
// tracing costs a run whose agent does nothing else.
func BenchmarkExecute_tracedWorker(b *testing.B) {
	exe := filepath.Join(b.TempDir(), "otelworker")
	if out, err := exec.Command("go", "build", "-o", exe, "../bench/overhead/otelworker").CombinedOutput(); err != nil {
		b.Fatalf("go build ../bench/overhead/otelworker: %v\n%s", err, out)
	}
	var qs []string
	for i := range 200 {
		qs = append(qs, fmt.Sprintf(`{"id": "q%d", "question": "Where is order %d?", "expected_answer": "ok"}`, i, i))
	}
	s := mustLoad(b, `{"suite": "Bench", "agent": {"name": "A"}, "evaluators": {"exact": {"type": "exact_match"}}, "questions": [`+strings.Join(qs, ",")+`]}`)
	for _, conc := range []int{1, 4} {
		b.Run(fmt.Sprintf("j%d", conc), func(b *testing.B) {
			recv, err := otlp.Start(otlp.Limits{})
			if err != nil {
				b.Fatal(err)
			}
			defer recv.Close()
			cfg := suite.AgentConfig{Name: "A", Type: suite.AgentWorker, Command: []string{exe}, Dir: b.TempDir()}
			// each starts its workers on its first call: on with the endpoint
			off := mustAgent(b, cfg, adapter.Options{Concurrency: conc})
			on := mustAgent(b, cfg, adapter.Options{Concurrency: conc})
			var tOff, tOn time.Duration
			for b.Loop() {
				for _, side := range []struct {
					a     agent.Agent
					opts  ExecOptions
					total *time.Duration
				}{{off, ExecOptions{Concurrency: conc}, &tOff}, {on, ExecOptions{Concurrency: conc, Traces: recv}, &tOn}} {
					start := time.Now()
					run, err := Execute(context.Background(), s, side.a, side.opts)
					if err != nil {
						b.Fatal(err)
					}
					*side.total += time.Since(start)
					if run.Cases[0].Status != "passed" {
						b.Fatalf("status %s", run.Cases[0].Status)
					}
				}
			}
			perCase := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 / float64(b.N*len(s.Cases)) }
			b.ReportMetric(perCase(tOff), "ms/case-off")
			b.ReportMetric(perCase(tOn), "ms/case-on")
			b.ReportMetric(float64(tOn)/float64(tOff), "on/off")
		})
	}
}
