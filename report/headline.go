package report

import (
	"strings"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
)

// Headline is a run's verdict in one place, as the HTML report's banner and
// the dashboard's run page lead with it.
type Headline struct {
	// Tone is "bad" for failed or errored checks or a gating regression,
	// "warn" when nothing was evaluated or regressions do not gate, else "ok".
	Tone string
	// Outcome says how the run's own checks went (passed, failed, errored,
	// not evaluated).
	Outcome string
	// Verdict says how the run compares with its baseline.
	Verdict string
	// Regressed is true when a regression fails the regression gate.
	Regressed bool
	// NotEvaluatedWhy says why questions were not evaluated, from the
	// reasons stored on their metrics (e.g. "judge disabled for this run");
	// "" when every question was evaluated or no reason was stored.
	NotEvaluatedWhy string
}

// HeadlineOf sums up a comparison.
func HeadlineOf(c *compare.Comparison) Headline {
	h := Headline{Outcome: outcome(c.Totals), Verdict: gateVerdict(c), Regressed: c.Regressed()}
	switch {
	case c.ChecksFailed() || h.Regressed:
		h.Tone = "bad"
	case c.Totals.Evaluated == 0 || len(c.Regressions()) > 0:
		h.Tone = "warn"
	default:
		h.Tone = "ok"
	}
	if c.Totals.NotEvaluated > 0 {
		h.NotEvaluatedWhy = NotEvaluatedReason(c.Run)
	}
	return h
}

// NotEvaluatedReason returns the most frequent reason stored on the
// uncalculated metrics of the run's not-evaluated questions, without the
// "not calculated: " prefix, or "" when none is stored (runs of the Ruby
// gem, for one, may not say).
func NotEvaluatedReason(run *models.Run) string {
	counts := map[string]int{}
	best := ""
	for _, c := range run.Cases {
		if c.Status != models.StatusNotEvaluated {
			continue
		}
		for _, m := range c.Metrics {
			if m.Calculated() || m.Reason == nil {
				continue
			}
			r := strings.TrimSpace(strings.TrimPrefix(*m.Reason, models.NotCalculatedPrefix))
			if r == "" {
				continue
			}
			counts[r]++
			if best == "" || counts[r] > counts[best] {
				best = r
			}
		}
	}
	return best
}
