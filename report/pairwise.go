package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"strings"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
)

// Pairwise is a pairwise comparison as reports show it: the sums and the
// verdicts they were made from.
type Pairwise struct {
	compare.PairwiseStats
	Record models.PairwiseRecord `json:"record"`
}

// NewPairwise sums rec (compare.PairwiseOf at the default alpha).
func NewPairwise(rec models.PairwiseRecord) *Pairwise {
	return &Pairwise{PairwiseStats: compare.PairwiseOf(rec, 0), Record: rec}
}

// RenderABPairwise renders an A/B comparison followed by its pairwise
// verdicts: as text, the comparison then the pairwise section; as JSON,
// the comparison's object with a "pairwise" key.
func (r *Renderer) RenderABPairwise(w io.Writer, f Format, ab *compare.ABComparison, p *Pairwise) error {
	var buf bytes.Buffer
	switch f {
	case FormatText:
		if err := r.RenderAB(&buf, f, ab); err != nil {
			return err
		}
		buf.WriteString("\n")
		buf.WriteString(PairwiseText(p, true))
	case FormatJSON:
		enc := json.NewEncoder(&buf)
		enc.SetIndent("", "  ")
		if err := enc.Encode(struct {
			A string `json:"a"`
			B string `json:"b"`
			*compare.ABComparison
			Pairwise *Pairwise `json:"pairwise"`
		}{ab.A.ID.String(), ab.B.ID.String(), ab, p}); err != nil {
			return fmt.Errorf("render comparison: %w", err)
		}
	default:
		return fmt.Errorf("render comparison: %w %q (want text or json)", ErrUnknownFormat, f)
	}
	if _, err := w.Write(buf.Bytes()); err != nil {
		return fmt.Errorf("write comparison: %w", err)
	}
	return nil
}

// PairwiseText is the pairwise section as plain text, every untrusted
// string escaped; with perCase, one line per question follows the sums.
func PairwiseText(p *Pairwise, perCase bool) string {
	var b strings.Builder
	judge := ""
	if m := p.Record.Judge["model"]; m != "" {
		judge = fmt.Sprintf(" by %s/%s", sanitize.EscapeText(p.Record.Judge["provider"]), sanitize.EscapeText(m))
	}
	fmt.Fprintf(&b, "Pairwise%s, each pair judged twice with the slots swapped: %s\n", judge, PairwiseLine(&p.PairwiseStats))
	if perCase {
		for _, v := range p.Record.Verdicts {
			id := sanitize.EscapeText(v.CaseID)
			if v.Error != "" {
				fmt.Fprintf(&b, "  %-24s error: %s\n", id, sanitize.EscapeText(v.Error))
				continue
			}
			flip := ""
			if v.AFirst != v.BFirst {
				flip = "  (orders disagree)"
			}
			fmt.Fprintf(&b, "  %-24s %-4s A first: %s, B first: %s%s\n", id, winnerWord(v.Winner), v.AFirst, v.BFirst, flip)
		}
	}
	return b.String()
}

// PairwiseLine is the sums in one line: wins, losses, ties, the sign test
// and the judge's position consistency.
func PairwiseLine(st *compare.PairwiseStats) string {
	var b strings.Builder
	fmt.Fprintf(&b, "B wins %d, loses %d, ties %d", st.Wins, st.Losses, st.Ties)
	if st.Errors > 0 {
		fmt.Fprintf(&b, ", %d errored", st.Errors)
	}
	b.WriteString("; sign test ")
	if st.SignTestP == nil {
		b.WriteString("n/a (no win or loss)")
	} else {
		fmt.Fprintf(&b, "p = %.4g", *st.SignTestP)
	}
	b.WriteString("; position consistency ")
	if st.Consistency == nil {
		b.WriteString("n/a")
	} else {
		fmt.Fprintf(&b, "%.0f%%", 100**st.Consistency)
	}
	if st.FirstSlot != nil {
		fmt.Fprintf(&b, ", first slot chosen in %.0f%% of %d decisive readings", 100**st.FirstSlot, st.Decisive)
	}
	b.WriteString(": " + st.Verdict)
	if st.PositionBias != "" {
		b.WriteString("; warning: " + st.PositionBias)
	}
	return b.String()
}

func winnerWord(w string) string {
	if w == "" {
		return "-"
	}
	return w
}

// GridPairwise is the pairwise judgement of variant B against variant A
// that B's run carries.
type GridPairwise struct {
	A string `json:"a"`
	B string `json:"b"`
	*Pairwise
}

// Line is the sums in one line (PairwiseLine).
func (p GridPairwise) Line() string { return PairwiseLine(&p.PairwiseStats) }

// gridPairwise reads the pairwise records of the variants' runs, in
// variant order. A summary whose record cannot be read (another writer's
// key of the same name) shows none rather than a guess.
func gridPairwise(vs []GridVariant) []GridPairwise {
	names := make(map[string]string, len(vs))
	for _, v := range vs {
		names[v.RunID] = v.Name
	}
	var out []GridPairwise
	for _, v := range vs {
		rec, err := models.PairwiseOf(v.Run.Summary)
		if err != nil || rec == nil {
			continue
		}
		a := rec.VariantA
		if n, ok := names[rec.RunA]; ok {
			a = n
		}
		out = append(out, GridPairwise{A: a, B: v.Name, Pairwise: NewPairwise(*rec)})
	}
	return out
}
