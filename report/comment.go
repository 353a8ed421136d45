package report

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/sanitize"
)

// CommentMarker is the hidden line that identifies a suite's pull-request
// comment, so a later run updates it instead of adding another.
func CommentMarker(key string) string {
	return "<!-- agentevals:" + strings.NewReplacer("-->", "", "\n", " ", "\r", " ").Replace(key) + " -->"
}

// maxCommentItems bounds the regressions and failures a comment lists;
// the full report has the rest.
const maxCommentItems = 20

// CommentOptions tune a pull-request comment.
type CommentOptions struct {
	// Key identifies the suite's comment (CommentMarker); "" uses the
	// suite's name.
	Key string
	// Link is the full report's address (the job's page); "" for none.
	Link string
	// Exit and ExitLine are the decision to lead with when the comparison
	// has no recorded one (ExitLine "": the comparison's own verdict).
	Exit     int
	ExitLine string
}

// WriteComment writes the comparison as a Markdown pull-request comment:
// the verdict first, then the regressed questions and slices with their
// reasons, the failed checks, the baseline's commit and branch, and a link
// to the full report. Every untrusted string is escaped for Markdown.
func WriteComment(w io.Writer, c *compare.Comparison, o CommentOptions) error {
	var b strings.Builder
	key := o.Key
	if key == "" {
		key = c.Run.Suite
	}
	b.WriteString(CommentMarker(key) + "\n")
	exit, line := o.Exit, o.ExitLine
	if d := c.Decision; d != nil {
		exit, line = d.Exit, d.Line
	}
	mark := "✅"
	if exit != 0 || (line == "" && (c.Regressed() || c.ChecksFailed())) {
		mark = "❌"
	}
	fmt.Fprintf(&b, "### %s agentevals: %s\n\n", mark, sanitize.EscapeMarkdown(c.Run.Suite))
	if line != "" {
		fmt.Fprintf(&b, "**%s**\n\n", sanitize.EscapeMarkdown(line))
	}
	h := HeadlineOf(c)
	fmt.Fprintf(&b, "%s · %s · %s\n\n", sanitize.EscapeMarkdown(h.Outcome), sanitize.EscapeMarkdown(h.Verdict), totalsText(c.Totals))
	b.WriteString(baselineText(c))
	var regs, failed []string
	for _, q := range c.RegressionsByQuestion() {
		gate := "-"
		if q.Gating {
			gate = "!"
		}
		regs = append(regs, fmt.Sprintf("%s **%s**: %s", gate, sanitize.EscapeMarkdown(q.Subject()), sanitize.EscapeMarkdown(q.Text())))
	}
	for _, cc := range c.Cases {
		if cc.Status == "failed" || cc.Status == "error" {
			failed = append(failed, "`"+strings.ReplaceAll(sanitize.EscapeText(cc.CaseID), "`", "'")+"`")
		}
	}
	writeList(&b, "Regressions (! fails the gate)", regs)
	writeList(&b, "Failed or errored questions", failed)
	if o.Link != "" {
		fmt.Fprintf(&b, "\n[Full report](%s)\n", strings.NewReplacer(")", "%29", " ", "%20").Replace(o.Link))
	}
	_, err := io.WriteString(w, b.String())
	return err
}

// writeList writes a titled list of at most maxCommentItems items (nothing
// when there are none).
func writeList(b *strings.Builder, title string, items []string) {
	if len(items) == 0 {
		return
	}
	fmt.Fprintf(b, "\n#### %s\n\n", title)
	for i, it := range items {
		if i == maxCommentItems {
			fmt.Fprintf(b, "- … and %d more in the full report\n", len(items)-i)
			return
		}
		fmt.Fprintf(b, "- %s\n", it)
	}
}

// baselineText is the comment's baseline line: which run, its branch and
// commit, and what makes it doubtful.
func baselineText(c *compare.Comparison) string {
	var b strings.Builder
	switch d := c.Decision; {
	case d != nil && d.Baseline != nil:
		fmt.Fprintf(&b, "Baseline `%s`: %s\n", d.Baseline.RunID, sanitize.EscapeMarkdown(BaselineOriginLine(d.Baseline)))
		for _, w := range d.Baseline.Warnings {
			fmt.Fprintf(&b, "\n> **Warning**: %s\n", sanitize.EscapeMarkdown(w))
		}
	case c.Baseline != nil:
		fmt.Fprintf(&b, "Baseline `%s`: %s\n", c.Baseline.ID, sanitize.EscapeMarkdown(ProvenanceLine(ProvenanceOf(c.Baseline))))
	case d != nil && d.NoBaseline != "":
		fmt.Fprintf(&b, "No baseline: %s\n", sanitize.EscapeMarkdown(d.NoBaseline))
	default:
		b.WriteString("No baseline: thresholds only\n")
	}
	return b.String()
}
