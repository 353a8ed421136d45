package compare

import (
	"sort"
	"strings"

	"github.com/agentevals-go/agentevals/show"
)

// QuestionFindings are the regression findings of one question merged into
// one entry (or, for a metric-level finding of the ci gate, of one metric),
// so a wrong answer that fails three metrics is one line and one
// annotation, not three or four.
type QuestionFindings struct {
	// CaseID is empty for a metric-level finding; Metric then names it.
	CaseID   string `json:"case_id,omitempty"`
	CaseName string `json:"case_name,omitempty"`
	Metric   string `json:"metric,omitempty"`
	// Slice is "KEY=VALUE" for a slice finding of the ci gate.
	Slice    string    `json:"slice,omitempty"`
	Gating   bool      `json:"gating"`
	Findings []Finding `json:"findings"`
}

// Subject is the case id, or the metric of a metric-level finding.
func (q QuestionFindings) Subject() string {
	if q.CaseID != "" {
		return q.CaseID
	}
	if q.Slice != "" {
		return "slice " + q.Slice + " · " + q.Metric
	}
	return q.Metric
}

// Labels lists "metric kind" for each finding ("exact new_failure,
// action_group score_drop"), or the kind alone for findings without a
// metric.
func (q QuestionFindings) Labels() string {
	parts := make([]string, 0, len(q.Findings))
	for _, f := range q.Findings {
		if f.Metric != "" && f.CaseID != "" {
			parts = append(parts, f.Metric+" "+string(f.Kind))
		} else {
			parts = append(parts, string(f.Kind))
		}
	}
	return strings.Join(parts, ", ")
}

// Text joins the findings' messages with "; " and adds each distinct
// reason why they gate or do not once, in parentheses. A reason's leading
// clause (up to its first "; ", such as "not gating: judge metrics gate in
// aggregate") is said once: later reasons that share it add only their
// metric's test.
func (q QuestionFindings) Text() string {
	msgs := make([]string, 0, len(q.Findings))
	var whys []string
	seen := map[string]bool{}
	for _, f := range q.Findings {
		msgs = append(msgs, f.Message)
		if f.Why == "" || seen[f.Why] {
			continue
		}
		seen[f.Why] = true
		why := f.Why
		if head, rest, ok := strings.Cut(why, "; "); ok {
			if seen["head:"+head] {
				why = rest
			}
			seen["head:"+head] = true
		}
		whys = append(whys, why)
	}
	s := strings.Join(msgs, "; ")
	if len(whys) > 0 {
		s += " (" + strings.Join(whys, "; ") + ")"
	}
	return s
}

// RegressionsByQuestion groups the regression findings by question (and
// metric-level findings by metric), gating entries first, each group in
// the order of the findings.
func (c *Comparison) RegressionsByQuestion() []QuestionFindings {
	var out []QuestionFindings
	index := map[string]int{}
	for _, f := range c.Regressions() {
		key := "case:" + f.CaseID
		if f.CaseID == "" {
			key = "metric:" + f.Metric + ":" + string(f.Kind) + ":" + f.Slice
		}
		i, ok := index[key]
		if !ok {
			i = len(out)
			index[key] = i
			q := QuestionFindings{CaseID: f.CaseID, CaseName: f.CaseName}
			if f.CaseID == "" {
				q.Metric, q.Slice = f.Metric, f.Slice
			}
			out = append(out, q)
		}
		out[i].Findings = append(out[i].Findings, f)
		out[i].Gating = out[i].Gating || f.Gating
	}
	sort.SliceStable(out, func(a, b int) bool { return out[a].Gating && !out[b].Gating })
	return out
}

// GatingCount is the number of questions with a gating finding: what "N
// regressions" counts in every view. Findings about a whole metric or
// slice (ci gate) are not questions; RegressionText names them.
func (c *Comparison) GatingCount() int {
	_, gating := c.RegressedQuestions()
	return gating
}

// RegressedQuestions counts the questions with a regression finding
// (gating or not) and those with a gating one, each question once however
// many of its metrics regressed.
func (c *Comparison) RegressedQuestions() (all, gating int) {
	for _, q := range c.RegressionsByQuestion() {
		if q.CaseID == "" {
			continue
		}
		all++
		if q.Gating {
			gating++
		}
	}
	return all, gating
}

// GatingAggregates are the gating findings about a whole metric or slice
// (ci gate), merged as RegressionsByQuestion merges them.
func (c *Comparison) GatingAggregates() []QuestionFindings {
	var out []QuestionFindings
	for _, q := range c.RegressionsByQuestion() {
		if q.CaseID == "" && q.Gating {
			out = append(out, q)
		}
	}
	return out
}

// RegressionText says what regressed under the gate in a few words: "2
// regressions" (questions), then each metric or slice that regressed as
// a whole ("2 regressions, semantic_accuracy regressed overall, slice
// failure_mode=refunds regressed"); "0 regressions" when nothing gates.
// Metric and slice names are untrusted: callers escape the text.
func (c *Comparison) RegressionText() string {
	var parts []string
	if n := c.GatingCount(); n > 0 || len(c.GatingAggregates()) == 0 {
		parts = append(parts, show.Count(n, "regression", "regressions"))
	}
	for _, q := range c.GatingAggregates() {
		switch {
		case q.Slice != "":
			parts = append(parts, "slice "+q.Slice+" regressed on "+q.Metric)
		case len(q.Findings) > 0 && q.Findings[0].Kind == NotMeasurable:
			parts = append(parts, q.Metric+" not measurable")
		default:
			parts = append(parts, q.Metric+" regressed overall")
		}
	}
	return strings.Join(parts, ", ")
}
