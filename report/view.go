package report

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/show"
)

type viewKind int

const (
	viewText viewKind = iota
	viewMarkdown
	viewHTML
)

// view is what the text, Markdown and HTML templates render: the comparison
// plus display strings. Untrusted strings stay raw here; each template
// escapes them for its output (esc in text and Markdown, html/template's
// contextual escaping in HTML).
type view struct {
	C        *compare.Comparison
	Run      *models.Run
	Baseline *models.Run
	Title    string
	// Outcome says how the run's own checks went (passed, failed, errored,
	// not evaluated), apart from the baseline state in Verdict.
	Outcome string
	// Banner is the colour class of the HTML banner: "bad" for failed or
	// errored checks or a gating regression, "warn" when nothing was
	// evaluated or regressions do not gate, else "ok".
	Banner      string
	Verdict     string
	Regressed   bool
	Regressions []compare.Finding
	// ByQuestion are the regressions merged per question (one line each).
	ByQuestion   []compare.QuestionFindings
	Improvements []compare.Finding
	Cases        []caseView
	HasReplay    bool // some case has API replay evidence
	// HasTrajectory: some case was traced.
	HasTrajectory bool
	// JudgeUsage is the run's judge usage line (JudgeUsage.String), shown
	// next to the agent usage.
	JudgeUsage string
	// Repeats is the repeat line (RepeatStats.Line) and RepeatNoise each
	// metric's within-question sd over the repeats ("" without repeats).
	Repeats, RepeatNoise string
	// Outage lists the run's infrastructure-failure mark, one line per
	// side (InfrastructureFailures); nil when the run is not marked.
	Outage       []string
	Charts       charts
	CSPStyleHash string
	CSS          string

	// Revision and BaselineRevision come from the runs' metadata (see
	// Revision); Metadata is the run's metadata as indented JSON ("" when
	// empty); NotEvaluatedWhy is Headline.NotEvaluatedWhy.
	Revision, BaselineRevision string
	// Source and BaselineSource say where the runs were made
	// (ProvenanceLine); Elsewhere is BaselineElsewhere.
	Source, BaselineSource, Elsewhere string
	Metadata                          string
	NotEvaluatedWhy                   string
	// Decision is the decision recorded when the run was made
	// (DecisionLine); BaselineOrigin how its baseline was chosen and where
	// it was made, BaselineWarnings what makes it doubtful. All "" or nil
	// for a run without a recorded decision.
	Decision, BaselineOrigin string
	BaselineWarnings         []string
	// Localized is the ci gate's localized findings in one sentence and
	// Power its lines on what the gate cannot see (both untrusted, raw).
	Localized string
	Power     []string
}

type caseView struct {
	compare.CaseComparison
	Name     string
	Question string
	Expected string
	Output   string
	Actions  string
	Error    string
	// Truncated says the stored answer is a prefix of a longer one.
	Truncated string
	Replay    *ReplayView // nil without API replay evidence
	// Trajectory is the traced path in one line ("" without tracing).
	Trajectory string
	// Transcript is the conversation (report/transcript.go); nil for a
	// single question.
	Transcript *TranscriptView
	Metrics    []metricView
}

type metricView struct {
	compare.MetricDelta
	Threshold float64
	State     string // pass, fail, error, not calculated
	Reason    string
	Error     string
	// Path is a decision graph metric's walk, node by node (nil otherwise).
	Path []score.DAGStep
}

// gateVerdict says in a few words how the run compares with its baseline.
func gateVerdict(c *compare.Comparison) string {
	switch {
	case c.Baseline == nil && c.Decision != nil && c.Decision.Baseline != nil && c.Regressed():
		return "REGRESSED against the recorded baseline (not in this database)"
	case c.Baseline == nil && c.Decision != nil && c.Decision.Baseline != nil:
		return "no gating regression against the recorded baseline (not in this database)"
	case c.Baseline == nil:
		return "no baseline: thresholds only"
	case c.Regressed():
		return "REGRESSED against the baseline"
	case len(c.Regressions()) > 0:
		return "regressions found, none gating (" + c.Options.Gate + " gate)"
	}
	return "no regression against the baseline"
}

// newView is what the text, Markdown and HTML templates render of c.
func newView(c *compare.Comparison, kind viewKind) *view {
	h := HeadlineOf(c)
	v := &view{C: c, Run: c.Run, Baseline: c.Baseline, Regressed: h.Regressed,
		Title:   fmt.Sprintf("%s · %s · %s", c.Run.Suite, c.Run.Agent, c.Run.StartedAt.UTC().Format("2006-01-02 15:04:05 UTC")),
		Verdict: h.Verdict, Outcome: h.Outcome, Banner: h.Tone, NotEvaluatedWhy: h.NotEvaluatedWhy,
		Revision: Revision(c.Run), Source: ProvenanceLine(ProvenanceOf(c.Run))}
	if c.Baseline != nil {
		v.BaselineRevision = Revision(c.Baseline)
		v.BaselineSource, v.Elsewhere = ProvenanceLine(ProvenanceOf(c.Baseline)), BaselineElsewhere(c.Run, c.Baseline)
	}
	if d := c.Decision; d != nil {
		v.Decision = DecisionLine(d)
		if d.Baseline != nil {
			v.BaselineOrigin, v.BaselineWarnings = BaselineOriginLine(d.Baseline), d.Baseline.Warnings
		}
	}
	if st := compare.Repeats(c.Run); st != nil {
		v.Repeats, v.RepeatNoise = st.Line(), st.NoiseLine()
		if c.Baseline != nil {
			k := 1
			if bst := compare.Repeats(c.Baseline); bst != nil {
				k = bst.K
			}
			v.Repeats += fmt.Sprintf("; the baseline had %d per question", k)
		}
	}
	v.Outage = compare.InfrastructureFailures(c.Run)
	if !c.Run.Metadata.IsNull() && string(c.Run.Metadata) != "{}" {
		v.Metadata = show.JSON(c.Run.Metadata, "  ")
	}
	v.JudgeUsage = JudgeUsageOf(c.Run.Cases).String() + spendCapNote(c.Run)
	for _, f := range c.Findings {
		if f.Kind.Regression() {
			v.Regressions = append(v.Regressions, f)
		} else {
			v.Improvements = append(v.Improvements, f)
		}
	}
	v.ByQuestion = c.RegressionsByQuestion()
	if l := c.Localized; l != nil {
		v.Localized, v.Power = l.Headline(), l.Power
	}
	for _, cc := range c.Cases {
		cv := caseView{CaseComparison: cc, Name: cc.Case.Name,
			Question: jsonText(cc.Case.Question), Expected: jsonText(cc.Case.ExpectedAnswer),
			Output: jsonText(cc.Case.Output), Actions: jsonText(cc.Case.Actions),
			Error: compare.ErrorSummary(cc.Case.ErrorDetails), Truncated: TruncationNote(cc.Case.ResponseMetadata),
			Replay: NewReplayView(cc.Case.ResponseMetadata), Trajectory: TrajectoryLine(cc.Case.ResponseMetadata, cc.Case.Actions),
			Transcript: NewTranscriptView(cc.Case.ResponseMetadata)}
		v.HasReplay = v.HasReplay || cv.Replay != nil
		v.HasTrajectory = v.HasTrajectory || cv.Trajectory != ""
		for _, md := range cc.Metrics {
			m := md.Current
			mv := metricView{MetricDelta: md, Threshold: m.Threshold, State: metricState(m),
				Error: compare.ErrorSummary(m.ErrorDetails), Path: dagPath(cc.Case, m)}
			if m.Reason != nil {
				mv.Reason = *m.Reason
				if mv.State == "not calculated" { // the state already says it
					mv.Reason = strings.TrimPrefix(mv.Reason, models.NotCalculatedPrefix)
				}
			}
			cv.Metrics = append(cv.Metrics, mv)
		}
		v.Cases = append(v.Cases, cv)
	}
	if kind == viewHTML {
		v.Charts = buildCharts(c)
	}
	return v
}

// JudgeUsage is a run's judge usage, summed from the per-metric accounts in
// its cases' response_metadata.judge_usage (see models.CallAccount). It is
// never part of the agent usage totals.
type JudgeUsage struct {
	models.CallAccount
}

// JudgeUsageOf sums the judge usage recorded on cases; nil when none was
// recorded (no judge ran, or the run's writer did not record it). Entries
// written before calls were counted are one call each (see
// models.JudgeUsage); an entry without a cost makes the cost unknown.
func JudgeUsageOf(cases []*models.CaseResult) *JudgeUsage {
	var sum *JudgeUsage
	for _, c := range cases {
		meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
		if err != nil {
			continue
		}
		for _, name := range meta.JudgeUsage.Names() { // a fixed order keeps the cost sum reproducible
			u := meta.JudgeUsage[name]
			if sum == nil {
				zero := 0.0
				sum = &JudgeUsage{models.CallAccount{Cost: &zero}}
			}
			sum.Calls += u.Calls
			sum.Errors += u.Errors
			sum.Attempts += u.Attempts
			sum.Cached += u.Cached
			sum.InputTokens += u.InputTokens
			sum.OutputTokens += u.OutputTokens
			if u.Cost == nil || sum.Cost == nil {
				sum.Cost = nil
			} else {
				*sum.Cost += *u.Cost
			}
		}
	}
	return sum
}

// String is the usage line of the reports, e.g. "3 calls (1 failed, 1
// retry), 2 verdicts from cache, 360 input tokens, 90 output tokens, cost
// unknown"; "none recorded" for nil.
func (u *JudgeUsage) String() string {
	if u == nil {
		return "none recorded"
	}
	var b strings.Builder
	b.WriteString(show.Count(int(u.Calls), "call", "calls"))
	var notes []string
	if u.Errors > 0 {
		notes = append(notes, fmt.Sprintf("%d failed", u.Errors))
	}
	if r := u.Attempts - u.Calls; r > 0 {
		notes = append(notes, show.Count(int(r), "retry", "retries"))
	}
	if len(notes) > 0 {
		b.WriteString(" (" + strings.Join(notes, ", ") + ")")
	}
	if u.Cached > 0 {
		b.WriteString(", " + show.Count(int(u.Cached), "verdict", "verdicts") + " from cache")
	}
	fmt.Fprintf(&b, ", %s, %s, cost ", show.Count(int(u.InputTokens), "input token", "input tokens"),
		show.Count(int(u.OutputTokens), "output token", "output tokens"))
	switch c := u.Cost; {
	case c == nil:
		b.WriteString("unknown")
	case *c > 0 && *c < 0.00005:
		b.WriteString("< $0.0001")
	default:
		fmt.Fprintf(&b, "$%.4f", *c)
	}
	return b.String()
}

// outcome sums up a run's own checks in one line, for example "FAILED: 0
// of 1 evaluated question passed (1 failed)".
func outcome(t compare.Totals) string {
	ne := ""
	if t.NotEvaluated > 0 {
		ne = ", " + show.Count(t.NotEvaluated, "question", "questions") + " not evaluated"
	}
	switch {
	case t.Evaluated == 0:
		return "NOT EVALUATED: no question had a calculated check (" + show.Count(t.Cases, "question", "questions") + ")"
	case t.Failed > 0 || t.Errored > 0:
		var bad []string
		if t.Failed > 0 {
			bad = append(bad, fmt.Sprintf("%d failed", t.Failed))
		}
		if t.Errored > 0 {
			bad = append(bad, show.Count(t.Errored, "error", "errors"))
		}
		return fmt.Sprintf("FAILED: %d of %s passed (%s%s)", t.Passed,
			show.Count(t.Evaluated, "evaluated question", "evaluated questions"), strings.Join(bad, ", "), ne)
	}
	if t.Evaluated == 1 {
		return "PASSED: the 1 evaluated question passed" + ne
	}
	return fmt.Sprintf("PASSED: all %d evaluated questions passed%s", t.Evaluated, ne)
}

// metricState names the outcome of a metric row.
func metricState(m *models.MetricResult) string {
	switch {
	case m.Errored():
		return "error"
	case m.Score == nil:
		return "not calculated"
	case m.Passed:
		return "pass"
	}
	return "fail"
}

// jsonText shows a JSON column: a string as itself, null as "", anything
// else as compact JSON.
func jsonText(j models.JSON) string {
	if j.IsNull() {
		return ""
	}
	var v any
	if err := j.Decode(&v); err != nil {
		return string(j)
	}
	if s, ok := v.(string); ok {
		return s
	}
	return show.Value(v)
}

// funcs are the formatting helpers shared by the templates; esc is the
// escaping of untrusted text for the output (for HTML it only strips
// control characters: html/template then escapes by context).
func funcs(esc func(string) string) map[string]any {
	return map[string]any{
		"esc":    esc,
		"short":  func(s string, n int) string { return esc(truncate(s, n)) },
		"reason": func(s string) string { return esc(wholeReason(s)) },
		"score":  show.Score,
		// scoreOrDash shows a metric score as the dashboard does: "—" for
		// a NULL score (errored or not calculated).
		"scoreOrDash": func(v *float64) string {
			if v == nil {
				return "—"
			}
			return show.Score(v)
		},
		"pct": func(v *float64) string {
			if v == nil {
				return "n/a"
			}
			return fmt.Sprintf("%.1f%%", *v*100)
		},
		"ci": func(st compare.Stat) string {
			if st.CI == nil {
				return "n/a"
			}
			return fmt.Sprintf("[%.3f, %.3f]", st.CI.Low, st.CI.High)
		},
		"delta":   show.Delta,
		"num":     func(v float64) string { return show.Float(v) },
		"minimum": func(v float64) string { return fmt.Sprintf("%.3f", v) },
		"plural":  show.Count,
		"time":    FormatTime,
		"upper":   strings.ToUpper,
		"tokens": func(v *int64) string {
			if v == nil {
				return "n/a"
			}
			return fmt.Sprint(*v)
		},
		"usd": func(v *float64) string {
			if v == nil {
				return "n/a"
			}
			return fmt.Sprintf("$%.4f", *v)
		},
		"statusMark": statusMark,
		"json": func(v any) string {
			b, _ := json.Marshal(v)
			return string(b)
		},
	}
}

// statusMark is a short, fixed-width label of a case status for text output.
func statusMark(status string) string {
	switch status {
	case models.StatusPassed:
		return "PASS"
	case models.StatusFailed:
		return "FAIL"
	case models.StatusError:
		return "ERR "
	case models.StatusNotEvaluated:
		return "N/E "
	}
	return "????"
}
