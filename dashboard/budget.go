package dashboard

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

// HistoryWindow is how many earlier runs of the same suite and agent a
// page looks through for a run's baseline (the flaky questions look at
// fewer): the newest ones, so a page's database work does not grow with
// the history.
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

// transcriptTurns is how many turns of a conversation too long to read
// whole a case page shows (each value cut to rowCaps).
const transcriptTurns = 20

// transcriptHead reads the first turns of cr's conversation, which was
// too long to read whole, into the page.
func (s *Server) transcriptHead(ctx context.Context, page *casePage, cr *models.CaseResult) error {
	head, total, err := s.rows.TranscriptHead(ctx, cr.ID, transcriptTurns)
	if err != nil {
		return unavailable(err)
	}
	page.TranscriptBytes = byteSize(page.TranscriptCut.Bytes)
	page.TranscriptTurns = total
	if head != nil {
		page.Transcript = report.NewTranscriptView(models.MustJSON(map[string]any{"transcript": head}))
	}
	return nil
}

// byteSize writes a stored size for people: "52.4 MB", "812 KB", "96 bytes".
func byteSize(n int64) string {
	switch {
	case n >= 1e6:
		return fmt.Sprintf("%.1f MB", float64(n)/1e6)
	case n >= 1e3:
		return fmt.Sprintf("%d KB", n/1e3)
	}
	return fmt.Sprintf("%d bytes", n)
}

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
