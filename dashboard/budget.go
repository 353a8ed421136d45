package dashboard

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentevals-go/agentevals/models"
)

// HistoryWindow is how many earlier runs of the same suite and agent a
// page looks through for a run's baseline and its flaky questions: the
// newest ones, so a page's database work does not grow with the history.
// `evalrun report` searches without a window; the pages differ from it
// only for a run whose baseline is older than this many runs.
const HistoryWindow = 200

// rowCaps cut every value the history, compare and search pages read, in
// the database: those pages show no value longer than this, and the
// definition columns compared to find a baseline are compared as cut.
var rowCaps = models.ValueCaps{Value: 8 << 10, Definition: 8 << 10}

// runCaps are rowCaps with the run's own metadata read to its first
// 64 KiB (maxShownBytes) per member, as the run page shows it.
var runCaps = models.ValueCaps{Value: 8 << 10, Definition: 8 << 10, Run: maxShownBytes}

// detailCaps cut the one case a case page shows: the first 64 KiB of
// each value (maxShownBytes), each object member by member.
var detailCaps = models.ValueCaps{Value: maxShownBytes, Definition: maxShownBytes}

// compareAnswerBytes is how much of each answer the compare page diffs,
// and compareDiffCells the word-diff budget the page shares.
const (
	compareAnswerBytes = 4 << 10
	compareDiffCells   = 4 << 20
)

// wholeDownloads is how many downloads that hold a run's values whole
// (report.json, output.json) are served at once; the others wait for a
// turn within their budget.
const wholeDownloads = 2

// holdWhole waits for a turn to serve a whole download; release ends it.
func (s *Server) holdWhole(ctx context.Context) (release func(), err error) {
	select {
	case s.whole <- struct{}{}:
		return func() { <-s.whole }, nil
	case <-ctx.Done():
		return nil, fmt.Errorf("wait for a download turn: %w", ctx.Err())
	}
}

// errBudgetSpent is the cause of a request context that its budget ended.
var errBudgetSpent = errors.New("the request's time budget is spent")

// budgetLeft reports the request's budget as an error once it is spent,
// for the loops that build a page.
func budgetLeft(ctx context.Context) error {
	if err := ctx.Err(); err != nil {
		return fmt.Errorf("build the page: %w", err)
	}
	return nil
}
