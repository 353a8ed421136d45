package provider

import (
	"context"
	"sync"

	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/prices"
	"github.com/agentevals-go/agentevals/score"
)

// UsageRecorder collects the accounts of the judge calls made under a
// context given to WithUsageRecorder, so that a caller (the runner, per
// metric) learns what one scorer spent, failed calls and cache hits
// included. It is safe for concurrent use; the zero value is ready.
type UsageRecorder struct {
	mu  sync.Mutex
	acc models.CallAccount
}

// Account returns what was recorded so far; ok is false when no judge call
// or cache hit was recorded.
func (r *UsageRecorder) Account() (acc models.CallAccount, ok bool) {
	r.mu.Lock()
	defer r.mu.Unlock()
	return r.acc.Clone(), !r.acc.Empty()
}

func (r *UsageRecorder) add(a models.CallAccount) {
	r.mu.Lock()
	defer r.mu.Unlock()
	r.acc = r.acc.Add(a)
}

type recorderKey struct{}

// WithUsageRecorder returns a context under which Judge.Assess records
// every call (and cache hit) into r.
func WithUsageRecorder(ctx context.Context, r *UsageRecorder) context.Context {
	return context.WithValue(ctx, recorderKey{}, r)
}

func recorderFrom(ctx context.Context) *UsageRecorder {
	r, _ := ctx.Value(recorderKey{}).(*UsageRecorder)
	return r
}

// callAccount is the account of one call to the model: its attempts, its
// reported usage and its cost, computed from the list price when the
// provider's usage came without one but the price is known (a failed call
// that reported no tokens then costs 0, which is known, not unknown).
func callAccount(s llm.Settings, cat *prices.Catalog, u score.Usage, attempts int, failed bool) models.CallAccount {
	a := models.CallAccount{Calls: 1, Attempts: int64(attempts), InputTokens: u.InputTokens, OutputTokens: u.OutputTokens, Cost: u.Cost}
	if failed {
		a.Errors = 1
	}
	if a.Cost == nil {
		if c, ok := callCost(s, cat, u.InputTokens, u.OutputTokens); ok {
			a.Cost = &c
		}
	}
	return a.Clone()
}
