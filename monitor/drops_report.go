package monitor

import (
	"encoding/json"
	"fmt"
	"io"
	"path/filepath"
	"strings"

	"github.com/agentevals-go/agentevals/internal/atomicfile"
	"github.com/agentevals-go/agentevals/sanitize"
)

// WriteReport writes the drops to path, as JSON (.json) or Markdown (.md,
// .markdown).
func (d Drops) WriteReport(path string) error {
	var write func(io.Writer) error
	switch strings.ToLower(filepath.Ext(path)) {
	case ".json":
		write = d.writeJSON
	case ".md", ".markdown":
		write = d.writeMarkdown
	default:
		return fmt.Errorf("drops report %s: want a .json or .md path", path)
	}
	var b strings.Builder
	if err := write(&b); err != nil {
		return err
	}
	return atomicfile.Write(path, []byte(b.String()), 0o644)
}

func (d Drops) writeJSON(w io.Writer) error {
	enc := json.NewEncoder(w)
	enc.SetIndent("", "  ")
	return enc.Encode(d)
}

func (d Drops) writeMarkdown(w io.Writer) error {
	fmt.Fprintf(w, "## Drops: monitor %s, window %s\n\n", sanitize.EscapeMarkdown(d.Monitor), d.Run)
	if d.Note != "" {
		fmt.Fprintf(w, "%s.\n", sanitize.EscapeMarkdown(d.Note))
		return nil
	}
	fmt.Fprintf(w, "Against %d previous windows, pooled. Each metric's pass rate (one-sided two-proportion z-test) and mean score (one-sided Welch's t-test); "+
		"family-wise alpha %g split over %d tests. Noise is the largest drop a test calls chance at its level.\n\n", len(d.Previous), d.Alpha, len(d.Tests))
	fmt.Fprintln(w, "| metric | statistic | previous (n) | this window (n) | drop | noise | p | verdict |")
	fmt.Fprintln(w, "|---|---|---|---|---|---|---|---|")
	for _, t := range d.Tests {
		p, verdict := "not testable", "—"
		if t.P != nil {
			p, verdict = fmt.Sprintf("%.2g", *t.P), "within noise"
		}
		if t.Alert {
			verdict = "**fell**"
		}
		fmt.Fprintf(w, "| %s | %s | %.3f (%d) | %.3f (%d) | %.3f | %.3f | %s | %s |\n", sanitize.EscapeMarkdown(t.Metric), t.Statistic,
			t.Previous, t.PreviousN, t.Current, t.CurrentN, t.Previous-t.Current, t.Noise, p, verdict)
	}
	return nil
}
