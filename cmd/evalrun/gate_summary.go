package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/show"
)

// writeGateSummary prints the comparison in a few lines: the baseline, the
// verdict and each regression. noBaseline says why the run has no baseline
// ("" for the usual reason: the first run of its definition).
func writeGateSummary(w io.Writer, cmp *compare.Comparison, noBaseline string) {
	if cmp.Baseline == nil {
		if noBaseline == "" {
			noBaseline = "first run of this definition"
		}
		fmt.Fprintf(w, "Baseline: none (%s); thresholds only\n", noBaseline)
		return
	}
	b := cmp.Baseline
	fmt.Fprintf(w, "Baseline: %s (started %s), tolerance %g, %s gate\n", b.ID, report.FormatTime(b.StartedAt),
		cmp.Options.Tolerance, cmp.Options.Gate)
	if d := cmp.Decision; d != nil && d.Baseline != nil {
		fmt.Fprintf(w, "Baseline from: %s\n", sanitize.EscapeText(report.BaselineOriginLine(d.Baseline)))
		for _, warn := range d.Baseline.Warnings {
			fmt.Fprintf(w, "Warning: %s\n", sanitize.EscapeText(warn))
		}
	}
	q, bq := cmp.Totals.Quality.Mean, cmp.BaselineTotals.Quality.Mean
	if q != nil && bq != nil {
		fmt.Fprintf(w, "Quality: %.3f (baseline %.3f, %+.3f)\n", *q, *bq, *q-*bq)
	}
	writeSliceLine(w, cmp)
	if l := cmp.Localized; l != nil {
		if h := l.Headline(); h != "" {
			fmt.Fprintf(w, "Localized: %s\n", sanitize.EscapeText(h))
		}
		for _, p := range l.Power {
			fmt.Fprintf(w, "Power: %s\n", sanitize.EscapeText(p))
		}
	}
	if cmp.Options.Gate == compare.GateCI {
		for _, m := range cmp.Metrics {
			if m.Test != nil && m.Test.Judged {
				fmt.Fprintf(w, "Judge metric %s: %s\n", sanitize.EscapeText(m.Name), sanitize.EscapeText(m.Test.Note))
			}
		}
	}
	byQuestion := cmp.RegressionsByQuestion()
	switch {
	case cmp.Regressed():
		fmt.Fprintf(w, "Regressed: %s (! fails the gate)\n", sanitize.EscapeText(cmp.RegressionText()))
	case len(byQuestion) > 0:
		fmt.Fprintf(w, "No gating regression (%s not gating under the %s gate)\n",
			show.Count(len(byQuestion), "question with findings", "questions with findings"), cmp.Options.Gate)
	default:
		fmt.Fprintln(w, "No regression")
	}
	for _, q := range byQuestion {
		mark := "-"
		if q.Gating {
			mark = "!"
		}
		fmt.Fprintf(w, "  %s %s [%s]: %s\n", mark, sanitize.EscapeText(q.Subject()), sanitize.EscapeText(q.Labels()), sanitize.EscapeText(q.Text()))
	}
	var flaky []string
	for _, c := range cmp.Cases {
		if c.Flaky != nil {
			flaky = append(flaky, sanitize.EscapeText(c.CaseID))
		}
	}
	if len(flaky) > 0 {
		fmt.Fprintf(w, "Flaky at this commit (status went back and forth within the last %d compatible runs of the same commit; only judged findings are softened): %s\n", compare.FlakyWindow, strings.Join(flaky, ", "))
	}
}

// writeSliceLine prints the quality of each failure-mode and tag slice next
// to the baseline's, on one line.
func writeSliceLine(w io.Writer, cmp *compare.Comparison) {
	if len(cmp.Slices) == 0 {
		return
	}
	parts := make([]string, 0, len(cmp.Slices))
	for _, s := range cmp.Slices {
		p := fmt.Sprintf("%s=%s %s", s.Key, sanitize.EscapeText(s.Value), scoreText(s.Quality.Mean))
		if s.Baseline != nil {
			p += " (was " + scoreText(s.Baseline.Quality.Mean) + ")"
		}
		parts = append(parts, p)
	}
	fmt.Fprintf(w, "Slices: %s\n", strings.Join(parts, ", "))
}

// scoreText formats a nullable score; nil is "n/a", never 0.
func scoreText(v *float64) string {
	if v == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.3f", *v)
}
