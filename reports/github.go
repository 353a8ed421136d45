package reports

import (
	"fmt"
	"io"
	"strings"

	"agentevals/models"
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
func (r *Renderer) RenderGitHub(w io.Writer, c *Comparison, opts GitHubOptions) error {
	var b strings.Builder
	writeGitHub(&b, c, opts)
	if _, err := io.WriteString(w, b.String()); err != nil {
		return fmt.Errorf("write %s report: %w", FormatGitHub, err)
	}
	return nil
}

// renderGitHub writes the annotations of c without locations.
func renderGitHub(w io.Writer, c *Comparison) error {
	var b strings.Builder
	writeGitHub(&b, c, GitHubOptions{})
	_, err := io.WriteString(w, b.String())
	return err
}

// writeGitHub writes GitHub Actions workflow commands: an ::error for every
// failed or errored question and every gating regression, a ::warning for
// regressions that do not gate and for questions that were not evaluated,
// a ::notice with the totals and one ::notice per failure-mode or tag slice
// (title "SUITE / AGENT: slice KEY=VALUE").
func writeGitHub(b *strings.Builder, c *Comparison, opts GitHubOptions) {
	title := c.Run.Suite + " / " + c.Run.Agent
	for _, cc := range c.Cases {
		name, at := cc.CaseID, opts.Locations[cc.CaseID]
		switch cc.Status {
		case models.StatusFailed:
			annotate(b, "error", at, title+": "+name+" failed", failureSummary(cc.Case)+"\n"+metricLines(cc.Case, nil))
		case models.StatusError:
			msg := ErrorSummary(cc.Case.ErrorDetails)
			if msg == "" {
				msg = failureSummary(cc.Case)
			}
			annotate(b, "error", at, title+": "+name+" error", msg)
		case models.StatusNotEvaluated:
			annotate(b, "warning", at, title+": "+name+" not evaluated", "no metric was calculated")
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
		annotate(b, level, opts.Locations[f.CaseID], title+": regression ("+string(f.Kind)+") "+subject, f.Message)
	}
	annotate(b, "notice", Location{}, title, totalsText(c.Totals)+"; "+gateVerdict(c))
	for _, s := range c.Slices {
		msg := totalsText(s.Totals) + "; pass rate " + fmtPercent(s.PassRate)
		if s.Baseline != nil {
			msg += "; baseline quality " + fmtScore(s.Baseline.Quality.Mean) + "; " + Plural(s.Regressions, "regression", "regressions")
		}
		annotate(b, "notice", Location{}, title+": slice "+s.Key+"="+s.Value, msg)
	}
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
	s = StripControl(strings.TrimRight(s, "\n"), true)
	s = strings.ReplaceAll(s, "\t", " ")
	return strings.NewReplacer("%", "%25", "\r", "%0D", "\n", "%0A").Replace(s)
}

// EscapeGitHubProperty escapes a property value of a workflow command: as
// data, plus ":" and ",".
func EscapeGitHubProperty(s string) string {
	return strings.NewReplacer(":", "%3A", ",", "%2C").Replace(EscapeGitHubData(s))
}
