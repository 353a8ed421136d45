package runner

import (
	"context"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/otlp"
)

// Tracing (ExecOptions.Traces): every agent call gets its own trace from
// the run's receiver; after the answer the runner waits a bounded time for
// late spans (otlp.Limits.Quiet, MaxWait) and reads them. Which actions
// are scored: the agent's when it reported any (actions not null), the
// spans' when it reported none; the other list is kept, the spans' in the
// case's otlp_trace.span_actions. Tokens follow the same rule. Without a
// span the agent's null actions stay null.

// beginTrace starts the call's trace; nil, ctx when tracing is off.
func (e *executor) beginTrace(ctx context.Context) (*otlp.Case, context.Context) {
	if e.opts.Traces == nil {
		return nil, ctx
	}
	tc := e.opts.Traces.Begin()
	return tc, agent.WithTrace(ctx, agent.TraceContext{Traceparent: tc.Traceparent(), Endpoint: e.opts.Traces.Endpoint()})
}

// endTrace reads the call's spans; nil when tracing is off. A trace
// still incomplete at the answer is waited for (otlp.Case.End) without
// the case's slot (runner/slots.go).
func endTrace(ctx context.Context, tc *otlp.Case) *otlp.Evidence {
	if tc == nil {
		return nil
	}
	if !tc.Complete() {
		resume := workerOf(ctx).yield()
		defer resume(ctx)
	}
	ev := tc.End(ctx).Evidence()
	return &ev
}

// applyTrace merges the spans' evidence into the agent's reply.
func applyTrace(resp *agent.Response, tr *otlp.Evidence) {
	if tr == nil {
		return
	}
	switch {
	case resp.Actions != nil:
		tr.Record.ActionsFrom = "agent"
	case tr.Actions != nil:
		resp.Actions = tr.Actions
		tr.Record.ActionsFrom = "spans"
	}
	if resp.InputTokens == nil && resp.OutputTokens == nil {
		resp.InputTokens, resp.OutputTokens = tr.InputTokens, tr.OutputTokens
	}
}
