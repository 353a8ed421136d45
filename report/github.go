package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/show"
)

// GitHubOptions are the settings of GitHub Actions annotations.
type GitHubOptions struct {
	// Locations maps a case id to where its question is declared. The
	// question's annotations (failed, errored, not evaluated, and its
	// regressions) then carry file= and line=, which GitHub resolves from
	// the repository root, so they attach to that line of a pull request's
	// diff. Cases without a location, and the totals and slice notices, are
	// annotated without one.
	Locations map[string]Location
}

// Location is a file and a 1-based line an annotation points at. File is
// relative to the repository root, with forward slashes.
type Location struct {
	File string
	Line int
}

// RenderGitHub writes the GitHub Actions annotations of c to w, located as
// opts says (Render with FormatGitHub is RenderGitHub without locations).
func (r *Renderer) RenderGitHub(w io.Writer, c *compare.Comparison, opts GitHubOptions) error {
	var b strings.Builder
	writeGitHub(&b, c, opts)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write %s report: %w", FormatGitHub, err)
	}
	return nil
}

// renderGitHub writes the annotations of c without locations.
func renderGitHub(w io.Writer, c *compare.Comparison) error {
	var b strings.Builder
	writeGitHub(&b, c, GitHubOptions{})
	_, err := io.WriteString(w, b.String())
	return err
}

// writeGitHub writes GitHub Actions workflow commands, one annotation per
// question at most (GitHub caps annotations per step): an ::error for a
// failed or errored question or one with a gating regression, a ::warning
// for a question that was not evaluated or whose regressions do not gate;
// its regressions are merged into that one annotation. Then an annotation
// per metric-level finding of the ci gate, a ::notice listing the flaky
// questions, a ::notice with the totals and one ::notice per failure-mode
// or tag slice (title "SUITE / AGENT: slice KEY=VALUE").
func writeGitHub(b *strings.Builder, c *compare.Comparison, opts GitHubOptions) {
	title := c.Run.Suite + " / " + c.Run.Agent
	byCase := map[string]compare.QuestionFindings{}
	var metricLevel []compare.QuestionFindings
	for _, q := range c.RegressionsByQuestion() {
		if q.CaseID == "" {
			metricLevel = append(metricLevel, q)
		} else {
			byCase[q.CaseID] = q
		}
	}
	if l := c.Localized; l != nil && l.Headline() != "" {
		annotate(b, "error", Location{}, title+": localized regressions", l.Headline())
	}
	for _, p := range localizedPower(c) {
		annotate(b, "notice", Location{}, title+": power", p)
	}
	var flaky []string
	for _, cc := range c.Cases {
		if cc.Flaky != nil {
			flaky = append(flaky, cc.CaseID+" ("+cc.Flaky.Text()+")")
		}
		level, what, msg := questionAnnotation(cc, byCase[cc.CaseID])
		if level == "" {
			continue
		}
		if cc.Flaky != nil {
			what += " (flaky)"
		}
		annotate(b, level, opts.Locations[cc.CaseID], title+": "+cc.CaseID+" "+what, msg)
	}
	for _, q := range metricLevel {
		what := string(q.Findings[0].Kind) + " " + q.Metric
		if q.Slice != "" {
			what = "slice " + q.Slice + " regressed on " + q.Metric
		}
		annotate(b, gatingLevel(q.Gating), Location{}, title+": "+what, q.Text())
	}
	if len(flaky) > 0 {
		annotate(b, "notice", Location{}, title+": flaky questions",
			show.Count(len(flaky), "question", "questions")+" flipped between passing and failing in recent runs: "+strings.Join(flaky, "; "))
	}
	annotate(b, "notice", Location{}, title, totalsText(c.Totals)+"; "+gateVerdict(c))
	for _, s := range c.Slices {
		msg := totalsText(s.Totals) + "; pass rate " + fmtPercent(s.PassRate)
		if s.Baseline != nil {
			msg += "; baseline quality " + show.Score(s.Baseline.Quality.Mean) + "; " + show.Count(s.Regressions, "regression", "regressions")
		}
		annotate(b, "notice", Location{}, title+": slice "+s.Key+"="+s.Value, msg)
	}
}

// questionAnnotation is the one annotation of a question: its level ("" for
// none), what happened and the message, its status and its regressions q
// (zero when it has none) merged.
func questionAnnotation(cc compare.CaseComparison, q compare.QuestionFindings) (level, what, msg string) {
	switch cc.Status {
	case models.StatusFailed:
		level, what, msg = "error", "failed", failureSummary(cc.Case)+"\n"+metricLines(cc.Case, nil)
	case models.StatusError:
		level, what, msg = "error", "error", compare.ErrorSummary(cc.Case.ErrorDetails)
		if msg == "" {
			msg = failureSummary(cc.Case)
		}
	case models.StatusNotEvaluated:
		level, what, msg = "warning", "not evaluated", "no metric was calculated"
	}
	if len(q.Findings) == 0 {
		return level, what, msg
	}
	if level == "" || q.Gating {
		level = gatingLevel(q.Gating)
	}
	reg := "regressed (" + q.Labels() + ")"
	if !q.Gating {
		reg = "regression not gating (" + q.Labels() + ")"
	}
	if what != "" {
		what += ", "
		msg = strings.TrimRight(msg, "\n") + "\n"
	}
	return level, what + reg, msg + "Regressions: " + q.Text()
}

// gatingLevel is "error" for a gating finding, else "warning".
func gatingLevel(gating bool) string {
	if gating {
		return "error"
	}
	return "warning"
}

// totalsText is the one-line summary of totals in annotations.
func totalsText(t compare.Totals) string {
	return fmt.Sprintf("%s: %d passed, %d failed, %s, %d not evaluated; quality %s",
		show.Count(t.Cases, "question", "questions"), t.Passed, t.Failed, show.Count(t.Errored, "error", "errors"), t.NotEvaluated, show.Score(t.Quality.Mean))
}

// fmtPercent formats a nullable rate as a percentage; nil is "n/a".
func fmtPercent(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", *v*100)
}

// annotate writes one workflow command with escaped properties (file and
// line when at names a file, and the title) and message. Control sequences
// are stripped first so that data cannot inject a workflow command of its
// own (a newline is escaped, never emitted).
func annotate(b *strings.Builder, level string, at Location, title, message string) {
	fmt.Fprintf(b, "::%s ", level)
	if at.File != "" {
		fmt.Fprintf(b, "file=%s,", EscapeGitHubProperty(at.File))
		if at.Line > 0 {
			fmt.Fprintf(b, "line=%d,", at.Line)
		}
	}
	fmt.Fprintf(b, "title=%s::%s\n", EscapeGitHubProperty(title), EscapeGitHubData(message))
}

// EscapeGitHubData escapes the message of a workflow command: %, CR and LF
// (other control characters and terminal sequences are removed).
func EscapeGitHubData(s string) string {
	s = sanitize.StripControl(strings.TrimRight(s, "\n"), true)
	s = strings.ReplaceAll(s, "\t", " ")
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// EscapeGitHubProperty escapes a property value of a workflow command: as
// data, plus ":" and ",".
func EscapeGitHubProperty(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(EscapeGitHubData(s))
}

// localizedPower is the ci gate's power lines (nil without them).
func localizedPower(c *compare.Comparison) []string {
	if c.Localized == nil {
		return nil
	}
	return c.Localized.Power
}
