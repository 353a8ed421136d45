package main

import (
	"encoding/json"
	"fmt"
	"io"
	"os"
	"slices"
	"strings"
	"time"

	"golang.org/x/term"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/sanitize"
)

// style is how the run's table is presented on its writer.
type style struct {
	// color adds ANSI colours: only on a terminal, never with NO_COLOR set
	// or TERM=dumb.
	color bool
	// cols is the terminal's width; 0 when the writer is not a terminal
	// (then rows are not wrapped and reasons stay on one line).
	cols int
}

// styleFor detects the presentation for w from the terminal and env.
func styleFor(w io.Writer, env func(string) string) style {
	f, ok := w.(*os.File)
	if !ok || !term.IsTerminal(int(f.Fd())) {
		return style{}
	}
	st := style{cols: defaultCols, color: env("NO_COLOR") == "" && env("TERM") != "dumb"}
	if c, _, err := term.GetSize(int(f.Fd())); err == nil && c > 0 {
		st.cols = c
	}
	return st
}

// inCI reports whether CI is set to anything but "", "0" or "false", as CI
// services do: the progress bar is then replaced by plain lines.
func inCI(env func(string) string) bool {
	switch strings.ToLower(env("CI")) {
	case "", "0", "false":
		return false
	}
	return true
}

const (
	ansiReset  = "\x1b[0m"
	ansiRed    = "\x1b[31m"
	ansiBold   = "\x1b[1;31m"
	ansiGreen  = "\x1b[32m"
	ansiYellow = "\x1b[33m"
	ansiDim    = "\x1b[2m"
)

// paint wraps s in an ANSI colour when the style has colour.
func (st style) paint(code, s string) string {
	if !st.color || code == "" {
		return s
	}
	return code + s + ansiReset
}

// verdictColor is the colour of a status or a metric verdict.
func verdictColor(word string) string {
	switch word {
	case "ok", models.StatusPassed:
		return ansiGreen
	case "FAIL", models.StatusFailed:
		return ansiRed
	case "ERROR", models.StatusError:
		return ansiBold
	case "n/a", models.StatusNotEvaluated:
		return ansiYellow
	}
	return ""
}

// metricPart is one metric in a row: "name score/threshold" and its verdict.
type metricPart struct {
	text, verdict string
}

func (m metricPart) width() int { return displayWidth(m.text) + 1 + len(m.verdict) }

// screenful is how many rows a run's table lists in full: past it the
// passed questions are counted on one line instead of listed (the reports
// list every question).
const screenful = 40

// tableRows orders the cases for the table, failed and errored first, then
// not evaluated, then passed (each group in run order), and returns how
// many passed ones it left out: all of them when the run has more cases
// than a screenful, so the summary is not scrolled away by passing rows.
func tableRows(cases []*models.CaseResult) (rows []*models.CaseResult, hiddenPassed int) {
	rank := func(status string) int {
		switch status {
		case models.StatusFailed, models.StatusError:
			return 0
		case models.StatusPassed:
			return 2
		}
		return 1
	}
	rows = slices.Clone(cases)
	slices.SortStableFunc(rows, func(a, b *models.CaseResult) int { return rank(a.Status) - rank(b.Status) })
	if len(rows) <= screenful {
		return rows, 0
	}
	kept := rows[:0]
	for _, c := range rows {
		if c.Status == models.StatusPassed {
			hiddenPassed++
			continue
		}
		kept = append(kept, c)
	}
	return kept, hiddenPassed
}

// writeRunTable prints the saved run: one row per case (its metrics
// wrapped to the terminal's width), failures first (see tableRows), under
// each failed or errored check one line with its reason, and under an
// agent error the error; then the totals.
func writeRunTable(w io.Writer, run *models.Run, where string, st style) {
	var sum map[string]any
	_ = run.Summary.Decode(&sum)
	if where == "" {
		fmt.Fprintf(w, "Suite %q version %q, agent %q: recording run (not saved)\n",
			sanitize.EscapeText(run.Suite), sanitize.EscapeText(run.Version), sanitize.EscapeText(run.Agent))
	} else {
		fmt.Fprintf(w, "Suite %q version %q, agent %q: run %s %s\n",
			sanitize.EscapeText(run.Suite), sanitize.EscapeText(run.Version), sanitize.EscapeText(run.Agent), run.ID, where)
	}
	idW, statusW := len("ID"), len("STATUS")
	for _, c := range run.Cases {
		idW = max(idW, displayWidth(clip(sanitize.EscapeText(c.CaseID), 40)))
		statusW = max(statusW, len(c.Status))
	}
	const qualityW = len("QUALITY")
	prefixW := idW + 2 + statusW + 2 + qualityW + 2
	fmt.Fprintf(w, "%s  %s  %s  METRICS\n", pad("ID", idW), pad("STATUS", statusW), pad("QUALITY", qualityW))
	rows, hidden := tableRows(run.Cases)
	for _, c := range rows {
		fmt.Fprintf(w, "%s  %s  %s  ", pad(clip(sanitize.EscapeText(c.CaseID), 40), idW),
			st.paint(verdictColor(c.Status), pad(c.Status, statusW)), pad(fmtScore(c.Quality()), qualityW))
		writeMetricParts(w, metricParts(c), prefixW, st)
		writeReasons(w, c, st)
		if note := replyNoteLine(c); note != "" {
			fmt.Fprintln(w, "  -> "+st.paint(ansiYellow, "note")+": "+note)
		}
	}
	if hidden > 0 {
		fmt.Fprintf(w, "%s  %s passed, not listed (more than %d rows: every question is in the reports, --report FILE.json or evalrun report)\n",
			pad("…", idW), questions(hidden), screenful)
	}
	t := models.TotalsOf(run.Cases)
	fmt.Fprintf(w, "Passing questions: %d of %d   Quality: %s   Errors: %d   Not evaluated: %d   Time: %s\n",
		t.Passed, t.Cases, fmtScore(t.Quality), t.Errored, t.NotEvaluated,
		time.Duration(floatOf(sum["duration_ms"])*float64(time.Millisecond)).Round(time.Millisecond))
	if rs := compare.Repeats(run); rs != nil {
		fmt.Fprintf(w, "Repeats: %s\n", rs.Line())
		fmt.Fprintf(w, "Within-question sd over the repeats: %s\n", sanitize.EscapeText(rs.NoiseLine()))
	}
}

// metricParts lists "name score/threshold" with ok|FAIL|ERROR|n/a per metric.
func metricParts(c *models.CaseResult) []metricPart {
	parts := make([]metricPart, 0, len(c.Metrics))
	for _, m := range c.Metrics {
		parts = append(parts, metricPart{fmt.Sprintf("%s %s/%.3f", clip(sanitize.EscapeText(m.Name), 30), fmtScore(m.Score), m.Threshold), verdictOf(m)})
	}
	return parts
}

func verdictOf(m *models.MetricResult) string {
	switch {
	case !m.Calculated():
		return "n/a"
	case m.Errored():
		return "ERROR"
	case !m.Passed:
		return "FAIL"
	}
	return "ok"
}

// writeMetricParts writes the parts joined by ", ", wrapping before a part
// that would pass the terminal's width onto a line indented to the
// METRICS column (or by 4 when that column leaves too little room). Off a
// terminal the parts stay on one line.
func writeMetricParts(w io.Writer, parts []metricPart, prefixW int, st style) {
	indent := prefixW
	used := prefixW
	if st.cols > 0 && st.cols-prefixW < 24 && len(parts) > 0 {
		indent = 4
		used = st.cols // start the metrics on their own line
	}
	var b strings.Builder
	for i, p := range parts {
		text := p.text
		sep := ""
		if i < len(parts)-1 {
			sep = ","
		}
		need := p.width() + len(sep)
		if i > 0 {
			need++ // the space after the previous comma
		}
		if st.cols > 0 && used+need > st.cols-1 && (i > 0 || used > indent) {
			b.WriteString("\n" + strings.Repeat(" ", indent))
			used = indent
			need = p.width() + len(sep)
		} else if i > 0 {
			b.WriteString(" ")
		}
		if st.cols > 0 && indent+p.width()+len(sep) > st.cols-1 {
			text = clipWidth(text, max(8, st.cols-1-indent-len(p.verdict)-1-len(sep)))
		}
		b.WriteString(text + " " + st.paint(verdictColor(p.verdict), p.verdict) + sep)
		used += need
	}
	fmt.Fprintln(w, b.String())
}

// writeReasons writes, under a case's row, one entry per failed or errored
// metric with its reason, and the agent's error: untrusted text, escaped
// and shown whole (see reasonLines).
func writeReasons(w io.Writer, c *models.CaseResult, st style) {
	line := func(label, verdict, reason string) {
		label = clip(sanitize.EscapeText(label), 30)
		head := "  -> " + label + " " + verdict + ": "
		lines := reasonLines(sanitize.EscapeText(reason), displayWidth(head), st.cols)
		fmt.Fprintln(w, "  -> "+label+" "+st.paint(verdictColor(verdict), verdict)+": "+st.paint(ansiDim, lines[0]))
		for _, l := range lines[1:] {
			fmt.Fprintln(w, reasonIndent+st.paint(ansiDim, l))
		}
	}
	for _, m := range c.Metrics {
		v := verdictOf(m)
		if v != "FAIL" && v != "ERROR" {
			continue
		}
		reason := "(no reason given)"
		if m.Reason != nil && strings.TrimSpace(*m.Reason) != "" {
			reason = *m.Reason
		}
		line(m.Name, v, reason)
	}
	if tv := report.NewTranscriptView(c.ResponseMetadata); tv != nil && c.Status != models.StatusPassed {
		verdict := "FAIL"
		if c.Status == models.StatusError {
			verdict = "ERROR"
		}
		line("conversation", verdict, tv.Summary)
	}
	if !c.ErrorDetails.IsNull() {
		var e struct {
			Kind, Message string
			Details       struct {
				Stderr string `json:"stderr"`
			}
		}
		_ = json.Unmarshal(c.ErrorDetails, &e)
		reason := e.Kind + ": " + e.Message
		if last := lastLine(e.Details.Stderr); last != "" {
			reason += " (stderr: " + last + ")"
		}
		line("agent", "ERROR", reason)
	}
}

// lastLine is the last non-blank line of s, trimmed.
func lastLine(s string) string {
	lines := strings.Split(strings.TrimSpace(s), "\n")
	return strings.TrimSpace(lines[len(lines)-1])
}

// pad right-pads s with spaces to n terminal columns.
func pad(s string, n int) string {
	if d := displayWidth(s); d < n {
		return s + strings.Repeat(" ", n-d)
	}
	return s
}
