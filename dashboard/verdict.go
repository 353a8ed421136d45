package dashboard

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/show"
)

// verdictBanner is what the run page leads with: did this run regress
// against its baseline, and if nothing could be judged, why.
type verdictBanner struct {
	report.Headline
	// Title is the decision in a few words ("Regressed", "No regression",
	// "Not evaluated", "No baseline").
	Title string
	// Detail says what the title rests on.
	Detail string
}

// newVerdictBanner words a comparison's headline for the run page.
func newVerdictBanner(cmp *compare.Comparison) verdictBanner {
	h := report.HeadlineOf(cmp)
	v := verdictBanner{Headline: h, Detail: h.Verdict}
	regs, gating := cmp.RegressedQuestions()
	aggregates := len(cmp.GatingAggregates())
	switch {
	case cmp.Totals.Evaluated == 0:
		v.Title = "Not evaluated"
		why := h.NotEvaluatedWhy
		if why == "" {
			why = "no question had a calculated check"
		}
		v.Detail = why + "; nothing to compare with a baseline."
	case h.Regressed && aggregates > 0:
		v.Title = "Regressed"
		v.Detail = fmt.Sprintf("%s against the baseline (%s failing the regression gate).",
			cmp.RegressionText(), show.Count(gating, "question", "questions"))
	case h.Regressed:
		v.Title = "Regressed"
		v.Detail = fmt.Sprintf("%s against the baseline, %d of them failing the regression gate.",
			show.Count(regs, "regression", "regressions"), gating)
	case regs > 0 || len(cmp.Regressions()) > 0:
		v.Title = "Regressions found, none gating"
		v.Detail = h.Verdict + "."
	case cmp.Baseline == nil && cmp.Decision != nil && cmp.Decision.Baseline != nil:
		v.Title = "No regression"
		v.Detail = "No gating regression against the baseline the run was compared with when it was made (not in this database)."
	case cmp.Baseline == nil:
		v.Title = "No baseline"
		v.Detail = "No compatible earlier run (same suite, agent and definition): only the thresholds were checked."
	default:
		v.Title = "No regression"
		v.Detail = "Nothing got worse against the baseline."
	}
	if l := cmp.Localized; l != nil && l.Headline() != "" {
		v.Detail = "Localized: " + l.Headline() + ". " + v.Detail
	}
	if h.NotEvaluatedWhy != "" && cmp.Totals.Evaluated > 0 {
		v.Detail += fmt.Sprintf(" %s not evaluated: %s.",
			show.Count(cmp.Totals.NotEvaluated, "question", "questions"), h.NotEvaluatedWhy)
	}
	return v
}

// metaItem is one run-metadata entry shown at the top of the run page.
type metaItem struct {
	Key, Value string
}

// maxKeyMeta bounds the metadata entries shown at the top of a run page;
// the whole metadata stays at the bottom.
const maxKeyMeta = 8

// keyMetadata lists the run metadata's scalar entries (strings, numbers,
// booleans) in key order, without the revision (shown on its own), at most
// maxKeyMeta of them; values longer than 80 characters are shortened.
func keyMetadata(run *models.Run) []metaItem {
	var m map[string]any
	if run.Metadata.IsNull() || json.Unmarshal(run.Metadata, &m) != nil {
		return nil
	}
	rev := map[string]bool{}
	for _, k := range report.RevisionKeys {
		rev[k] = true
	}
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	var out []metaItem
	for _, k := range keys {
		var v string
		switch x := m[k].(type) {
		case string:
			v = x
		case float64, bool:
			v = fmt.Sprint(x)
		default:
			continue
		}
		if rev[k] && v == report.Revision(run) {
			continue
		}
		if r := []rune(v); len(r) > 80 {
			v = string(r[:79]) + "…"
		}
		if strings.TrimSpace(v) == "" {
			continue
		}
		out = append(out, metaItem{Key: k, Value: v})
		if len(out) == maxKeyMeta {
			break
		}
	}
	return out
}

// abTone colours the compare page's verdict: worse or regressed is bad,
// better is ok, anything else (no difference, mixed, no data) a warning.
func abTone(verdict string) string {
	switch verdict {
	case compare.VerdictBWorse, compare.VerdictBRegressed:
		return "bad"
	case compare.VerdictBBetter:
		return "ok"
	}
	return "warn"
}
