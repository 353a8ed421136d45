package dashboard

import (
	"errors"
	"net/url"
	"time"

	"github.com/gin-gonic/gin"
	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/report"
)

// experimentPage is the grid page's data: an experiment's questions ×
// variants, and the paired comparison of two chosen variants.
type experimentPage struct {
	BasePage
	Grid *report.Grid
	// Variants are the grid's variants with a link to each run.
	Variants []variantView
	// Pair is the comparison of variant B against variant A (the first two
	// variants unless the query names others).
	Pair *report.GridPair
	A, B string
	// Rows are the grid's rows with links to each answer's case page.
	Rows []gridRowView
	// From keeps the experiment's start for the pair form's hidden field.
	From string
}

type variantView struct {
	report.GridVariant
	Link string
}

type gridRowView struct {
	report.GridRow
	Cells []gridCellView
}

type gridCellView struct {
	report.GridCell
	Link string
	// Diff compares the answer word by word with the first variant's
	// answer to the same question (nil for the first variant, or when the
	// answers are equal or either is missing).
	Diff *wordDiff
}

// experimentAnswerChars is how much of each answer the grid page reads
// and compares: the page shows answers side by side, each cell links to
// the case page with the whole answer.
const experimentAnswerChars = 4 << 10

// experimentDiffCells is the word-diff budget of one grid page, shared by
// all its cells: once spent, the remaining answers are shown as a whole
// removal and addition (marked coarse), not compared word by word.
const experimentDiffCells = 4_000_000

// experimentLink is the address of an experiment's grid page; from (the
// experiment's start, from the runs' metadata) lets the page read only the
// runs started after it.
func (b BasePage) experimentLink(info *report.ExperimentInfo) string {
	link := b.Path("experiments", info.ID)
	if info.StartedAt != "" {
		link += "?from=" + url.QueryEscape(info.StartedAt)
	}
	return link
}

// experiment shows the grid of an experiment's runs.
func (s *Server) experiment(c *gin.Context) error {
	id := c.Param("id")
	if _, err := uuid.Parse(id); err != nil || len(id) != 36 {
		return notFound("There is no experiment with this id.")
	}
	q := c.Request.URL.Query()
	var from time.Time
	if f := q.Get("from"); f != "" {
		t, err := time.Parse(time.RFC3339Nano, f)
		if err != nil {
			return badRequest("from must be the experiment's start time (RFC 3339), as in the links of its runs.")
		}
		from = t
	}
	runs, err := s.rows.ExperimentRunsShort(c.Request.Context(), id, from, experimentAnswerChars)
	if err != nil {
		return unavailable(err)
	}
	if len(runs) == 0 {
		return notFound("There is no experiment with this id.")
	}
	grid, err := report.BuildGrid(runs, compare.Options{})
	if errors.Is(err, compare.ErrIncompatible) || errors.Is(err, report.ErrNoExperiment) {
		return unprocessable("The runs of this experiment do not share one definition, so they cannot be laid side by side.")
	}
	if err != nil {
		return err
	}
	b := s.base(c.Request, "Experiment: "+grid.Name, "history")
	page := &experimentPage{BasePage: b, Grid: grid, From: q.Get("from")}
	for _, v := range grid.Variants {
		page.Variants = append(page.Variants, variantView{GridVariant: v, Link: b.Path("runs", v.RunID)})
	}
	cells := experimentDiffCells
	for _, r := range grid.Rows {
		if err := c.Request.Context().Err(); err != nil {
			return err
		}
		row := gridRowView{GridRow: r}
		for i, cell := range r.Cells {
			cv := gridCellView{GridCell: cell}
			if cell.Status != "missing" {
				cv.Link = b.caseLink(grid.Variants[i].RunID, cell.Position)
			}
			if ref := r.Cells[0].Output; i > 0 && ref != "" && cell.Output != "" && cell.Output != ref {
				d, used := diffWordsWithin(ref, cell.Output, cells)
				cells -= used
				cv.Diff = &d
			}
			row.Cells = append(row.Cells, cv)
		}
		page.Rows = append(page.Rows, row)
	}
	page.A, page.B = q.Get("a"), q.Get("b")
	if page.A == "" && page.B == "" && len(grid.Variants) > 1 {
		page.A, page.B = grid.Variants[0].Name, grid.Variants[1].Name
	}
	if page.Pair, err = grid.Pair(page.A, page.B, compare.Options{}); err != nil {
		return err
	}
	if page.Pair == nil {
		return badRequest("Choose two variants of this experiment to compare.")
	}
	return s.render(c, "experiment", page)
}
