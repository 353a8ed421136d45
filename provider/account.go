package provider

import (
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/prices"
	"github.com/agentevals-go/agentevals/score"
)

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
