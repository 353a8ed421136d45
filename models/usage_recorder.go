package models

import (
	"context"
	"sync"
)

// UsageRecorder collects the accounts of the model calls made under a
// context given to WithUsageRecorder, so that a caller (the runner, per
// metric) learns what one scorer spent, failed calls and cache hits
// included. It is safe for concurrent use; the zero value is ready.
type UsageRecorder struct {
	mu  sync.Mutex
	acc CallAccount
}

// Account returns what was recorded so far; ok is false when no judge call
// or cache hit was recorded.
func (r *UsageRecorder) Account() (acc CallAccount, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.acc.Clone(), !r.acc.Empty()
}

// Add records the account of one call (or cache hit).
func (r *UsageRecorder) Add(a CallAccount) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.acc = r.acc.Add(a)
}

type recorderKey struct{}

// WithUsageRecorder returns a context under which the judge records every
// call (and cache hit) into r.
func WithUsageRecorder(ctx context.Context, r *UsageRecorder) context.Context {
	return context.WithValue(ctx, recorderKey{}, r)
}

// UsageRecorderOf returns the recorder of ctx, or nil.
func UsageRecorderOf(ctx context.Context) *UsageRecorder {
	r, _ := ctx.Value(recorderKey{}).(*UsageRecorder)
	return r
}
