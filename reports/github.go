package reports

import (
	"fmt"
	"io"
	"strings"

	"agentevals/models"
)

// renderGitHub writes GitHub Actions workflow commands: an ::error for every
// failed or errored question and every gating regression, a ::warning for
// regressions that do not gate and for questions that were not evaluated,
// a ::notice with the totals and one ::notice per failure-mode or tag slice
// (title "SUITE / AGENT: slice KEY=VALUE").
func renderGitHub(w io.Writer, c *Comparison) error {
	var b strings.Builder
	title := c.Run.Suite + " / " + c.Run.Agent
	for _, cc := range c.Cases {
		name := cc.CaseID
		switch cc.Status {
		case models.StatusFailed:
			annotate(&b, "error", title+": "+name+" failed", failureSummary(cc.Case)+"\n"+metricLines(cc.Case, nil))
		case models.StatusError:
			msg := ErrorSummary(cc.Case.ErrorDetails)
			if msg == "" {
				msg = failureSummary(cc.Case)
			}
			annotate(&b, "error", title+": "+name+" error", msg)
		case models.StatusNotEvaluated:
			annotate(&b, "warning", title+": "+name+" not evaluated", "no metric was calculated")
		}
	}
	for _, f := range c.Regressions() {
		level := "warning"
		if f.Gating {
			level = "error"
		}
		subject := f.CaseID
		if subject == "" {
			subject = f.Metric
		}
		annotate(&b, level, title+": regression ("+string(f.Kind)+") "+subject, f.Message)
	}
	annotate(&b, "notice", title, totalsText(c.Totals)+"; "+newView(c, viewText).Verdict)
	for _, s := range c.Slices {
		msg := totalsText(s.Totals) + "; pass rate " + fmtPercent(s.PassRate)
		if s.Baseline != nil {
			msg += "; baseline quality " + fmtScore(s.Baseline.Quality.Mean) + "; " + Plural(s.Regressions, "regression", "regressions")
		}
		annotate(&b, "notice", title+": slice "+s.Key+"="+s.Value, msg)
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// totalsText is the one-line summary of totals in annotations.
func totalsText(t Totals) string {
	return fmt.Sprintf("%s: %d passed, %d failed, %s, %d not evaluated; quality %s",
		Plural(t.Cases, "question", "questions"), t.Passed, t.Failed, Plural(t.Errored, "error", "errors"), t.NotEvaluated, fmtScore(t.Quality.Mean))
}

// fmtPercent formats a nullable rate as a percentage; nil is "n/a".
func fmtPercent(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", *v*100)
}

// annotate writes one workflow command with an escaped title property and
// message. Control sequences are stripped first so that data cannot inject
// a workflow command of its own (a newline is escaped, never emitted).
func annotate(b *strings.Builder, level, title, message string) {
	fmt.Fprintf(b, "::%s title=%s::%s\n", level, EscapeGitHubProperty(title), EscapeGitHubData(message))
}

// EscapeGitHubData escapes the message of a workflow command: %, CR and LF
// (other control characters and terminal sequences are removed).
func EscapeGitHubData(s string) string {
	s = StripControl(strings.TrimRight(s, "\n"), true)
	s = strings.ReplaceAll(s, "\t", " ")
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// EscapeGitHubProperty escapes a property value of a workflow command: as
// data, plus ":" and ",".
func EscapeGitHubProperty(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(EscapeGitHubData(s))
}
