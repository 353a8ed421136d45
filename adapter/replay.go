package adapter

import (
	"context"
	"net/http"
)

// ReplayHeadersKey carries the headers an http agent's request gets.
type ReplayHeadersKey struct{}

// addReplayHeaders adds the case's replay headers (if any) to an http
// agent's request.
func addReplayHeaders(ctx context.Context, h http.Header) {
	m, _ := ctx.Value(ReplayHeadersKey{}).(map[string]string)
	for k, v := range m {
		h.Set(k, v)
	}
}

// WorkerReplayKey carries, for a worker agent, the function that arms
// worker n's proxy with the case's session and returns the disarm.
type WorkerReplayKey struct{}

// armWorker points worker n's proxy at the case in ctx, if it has replay;
// the worker agent calls it once it knows which worker serves the case,
// and calls the returned function when the case is over.
func armWorker(ctx context.Context, n int) func() {
	if arm, ok := ctx.Value(WorkerReplayKey{}).(func(int) func()); ok {
		return arm(n)
	}
	return func() {}
}
