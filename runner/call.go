package runner

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"time"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
)

// graceAfterDeadline is how long an agent may take to report its own
// timeout (with its stderr) after the case deadline before the runner
// gives up on it.
const graceAfterDeadline = time.Second

// call runs the agent, turning a panic into an agent error and not waiting
// forever for an agent that ignores its context: graceAfterDeadline after
// ctx ends it returns an *adapter.Error saying the agent did not return
// (details.agent_returned false) and leaves the agent's goroutine behind.
// The worker agent returns as soon as ctx ends, so it is called on the
// caller's goroutine: a goroutine, a channel and a stack grown anew per
// case would buy nothing.
func call(ctx context.Context, a agent.Agent, q agent.Question) (agent.Response, error) {
	if _, ok := a.(*adapter.Worker); ok {
		return callDirect(ctx, a, q)
	}
	type result struct {
		resp agent.Response
		err  error
	}
	ch := make(chan result, 1)
	go func() {
		defer func() {
			if r := recover(); r != nil {
				ch <- result{err: &adapter.Error{Kind: "panic", Message: fmt.Sprint(r), Details: map[string]any{"stack": string(debug.Stack())}}}
			}
		}()
		resp, err := a.Answer(ctx, q)
		ch <- result{resp, err}
	}()
	select {
	case r := <-ch:
		return r.resp, r.err
	case <-ctx.Done():
	}
	select {
	case r := <-ch:
		return r.resp, r.err
	case <-time.After(graceAfterDeadline):
		kind := "timeout"
		if !errors.Is(ctx.Err(), context.DeadlineExceeded) {
			kind = "interrupted"
		}
		return agent.Response{}, &adapter.Error{Kind: kind,
			Message: fmt.Sprintf("the agent did not return within %s after its context ended (%v) and was abandoned; "+
				"it may still be running, even after the run is saved: a Go agent must return when its ctx is done", graceAfterDeadline, ctx.Err()),
			Details: map[string]any{"agent_returned": false}}
	}
}

// callDirect is call for an agent that returns once ctx ends: the same
// panic recovery, on the caller's goroutine.
func callDirect(ctx context.Context, a agent.Agent, q agent.Question) (resp agent.Response, err error) {
	defer func() {
		if r := recover(); r != nil {
			resp, err = agent.Response{}, &adapter.Error{Kind: "panic", Message: fmt.Sprint(r), Details: map[string]any{"stack": string(debug.Stack())}}
		}
	}()
	return a.Answer(ctx, q)
}
