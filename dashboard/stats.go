package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"sort"

	"github.com/google/uuid"
	"github.com/uptrace/bun"

	"agentevals/models"
	"agentevals/reports"
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

// runStats are a run's totals, read from its summary when it has every key
// we need, otherwise recomputed from its case and metric rows (DESIGN §4.1–4.3).
type runStats struct {
	Total, Passed, Failed, Errors, NotEvaluated int
	// Quality and PassRate are nil when no case was evaluated.
	Quality, PassRate         *float64
	InputTokens, OutputTokens *int64
	Cost                      *float64
	// Recomputed tells that the summary lacked keys and rows were used.
	Recomputed bool
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

// statsFromSummary reads the totals from a summary object. It returns false
// when a key is missing or has an unexpected type, and the caller then
// recomputes from the rows: a summary we did not write never breaks a page.
func statsFromSummary(summary models.JSON) (runStats, bool) {
	var m map[string]json.RawMessage
	if summary.IsNull() || json.Unmarshal(summary, &m) != nil || m == nil {
		return runStats{}, false
	}
	get := func(keys ...string) json.RawMessage {
		for _, k := range keys {
			if v, ok := m[k]; ok {
				return v
			}
		}
		return nil
	}
	var st runStats
	for _, c := range []struct {
		dst *int
		raw json.RawMessage
	}{
		{&st.Total, get("cases", "total")},
		{&st.Passed, get("passed")},
		{&st.Failed, get("failed")},
		{&st.Errors, get("errored", "errors", "error")},
		{&st.NotEvaluated, get("not_evaluated")},
	} {
		v, ok := number(c.raw)
		if !ok || v < 0 || v != math.Trunc(v) || v > math.MaxInt32 {
			return runStats{}, false
		}
		*c.dst = int(v)
	}
	if st.Passed+st.Failed+st.Errors+st.NotEvaluated != st.Total {
		return runStats{}, false
	}
	var ok bool
	if st.Quality, ok = rate(get("quality"), true); !ok {
		return runStats{}, false
	}
	if st.PassRate, ok = rate(get("pass_rate"), false); !ok {
		return runStats{}, false
	}
	// Usage totals are optional: their absence is "unknown", not zero.
	if v, ok := number(get("input_tokens")); ok && v >= 0 {
		st.InputTokens = ptr(int64(v))
	}
	if v, ok := number(get("output_tokens")); ok && v >= 0 {
		st.OutputTokens = ptr(int64(v))
	}
	if v, ok := number(get("cost")); ok && v >= 0 {
		st.Cost = ptr(v)
	}
	return st, true
}

// number decodes a finite JSON number.
func number(raw json.RawMessage) (float64, bool) {
	var v float64
	if raw == nil || json.Unmarshal(raw, &v) != nil || math.IsNaN(v) || math.IsInf(v, 0) {
		return 0, false
	}
	return v, true
}

// rate decodes a value in [0,1] or null (nil, true). With allowObject, an
// object's "mean" is read: the reports package writes quality as
// {"n", "mean", "ci"}. A missing key or any other value gives ok=false.
func rate(raw json.RawMessage, allowObject bool) (*float64, bool) {
	if raw == nil {
		return nil, false
	}
	if allowObject && len(raw) > 0 && raw[0] == '{' {
		var obj map[string]json.RawMessage
		if json.Unmarshal(raw, &obj) != nil || obj["mean"] == nil {
			return nil, false
		}
		raw = obj["mean"]
	}
	if string(raw) == "null" {
		return nil, true
	}
	v, ok := number(raw)
	if !ok || v < 0 || v > 1 {
		return nil, false
	}
	return &v, true
}

// statsFromCases recomputes the totals from case and metric rows with the
// reports package's rules (DESIGN §4.1–4.3). Only the mean is needed here, so
// the bootstrap runs a single resample.
func statsFromCases(cases []*models.CaseResult) runStats {
	return statsFromTotals(reports.Summarize(cases, reports.Options{Resamples: 1}))
}

// statsFromTotals converts the reports package's totals.
func statsFromTotals(t reports.Totals) runStats {
	return runStats{Total: t.Cases, Passed: t.Passed, Failed: t.Failed, Errors: t.Errored,
		NotEvaluated: t.NotEvaluated, Quality: t.Quality.Mean, PassRate: t.PassRate,
		InputTokens: t.InputTokens, OutputTokens: t.OutputTokens, Cost: t.Cost, Recomputed: true}
}

// loadCases reads the cases and metrics of several runs in two queries,
// for runs whose summaries lack the keys the history page needs.
func loadCases(ctx context.Context, db *models.DB, ids []uuid.UUID) (map[uuid.UUID][]*models.CaseResult, error) {
	out := make(map[uuid.UUID][]*models.CaseResult, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var cases []*models.CaseResult
	err := db.NewSelect().Model(&cases).Where("c.run_id IN (?)", bun.In(ids)).
		Relation("Metrics", func(q *bun.SelectQuery) *bun.SelectQuery { return q.Order("m.position") }).
		Order("c.run_id", "c.position").Scan(ctx)
	if err != nil {
		return nil, fmt.Errorf("load cases: %w", err)
	}
	for _, c := range cases {
		out[c.RunID] = append(out[c.RunID], c)
	}
	for _, cs := range out {
		sort.SliceStable(cs, func(i, j int) bool { return cs[i].Position < cs[j].Position })
	}
	return out, nil
}

func ptr[T any](v T) *T { return &v }
