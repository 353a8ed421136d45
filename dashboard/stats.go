package dashboard

import (
	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
)

// Run outcomes, the values of the history page's status filter. A run's
// status column is always "completed" (execution finished), so the filter
// is on what its cases show instead.
const (
	outcomePassed       = "passed"        // at least one case evaluated, none failed or errored
	outcomeFailed       = "failed"        // at least one case failed
	outcomeError        = "error"         // at least one case errored
	outcomeNotEvaluated = "not_evaluated" // no case evaluated
)

// runStats are a run's totals, always computed from its case and metric
// rows (models.TotalsOf; docs/architecture.md, Semantics), never read from its summary.
type runStats struct {
	Total, Passed, Failed, Errors, NotEvaluated int
	// Quality and PassRate are nil when no case was evaluated.
	Quality, PassRate         *float64
	InputTokens, OutputTokens *int64
	Cost                      *float64
}

// Outcomes lists every outcome the run has (a run can have failed and errored cases).
func (st runStats) Outcomes() []string {
	var out []string
	if st.Total-st.NotEvaluated == 0 {
		return []string{outcomeNotEvaluated}
	}
	if st.Failed > 0 {
		out = append(out, outcomeFailed)
	}
	if st.Errors > 0 {
		out = append(out, outcomeError)
	}
	if len(out) == 0 {
		out = append(out, outcomePassed)
	}
	return out
}

// Has reports whether the run has the outcome.
func (st runStats) Has(outcome string) bool {
	for _, o := range st.Outcomes() {
		if o == outcome {
			return true
		}
	}
	return false
}

// Evaluated is the number of cases with at least one calculated metric or an agent error.
func (st runStats) Evaluated() int { return st.Total - st.NotEvaluated }

// statsFromCases recomputes the totals from case and metric rows with the
// package compare's rules (docs/architecture.md, Semantics). Only the mean is needed here, so
// the bootstrap runs a single resample.
func statsFromCases(cases []*models.CaseResult) runStats {
	return statsFromTotals(compare.TotalsOf(cases, compare.Options{Resamples: 1}))
}

// statsFromTotals converts package compare's totals.
func statsFromTotals(t compare.Totals) runStats {
	return runStats{Total: t.Cases, Passed: t.Passed, Failed: t.Failed, Errors: t.Errored,
		NotEvaluated: t.NotEvaluated, Quality: t.Quality.Mean, PassRate: t.PassRate,
		InputTokens: t.InputTokens, OutputTokens: t.OutputTokens, Cost: t.Cost}
}

func ptr[T any](v T) *T { return &v }
