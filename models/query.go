package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// ErrNotFound is returned when a requested run does not exist.
var ErrNotFound = errors.New("not found")

// Cursor marks a position in the (started_at, sequence) order of runs.
type Cursor struct {
	StartedAt time.Time
	Sequence  int64
}

// RunFilter selects runs for history pages. Zero fields do not filter;
// Suite and Agent match ignoring case (ASCII letters on SQLite).
type RunFilter struct {
	Suite, Agent string
	From, To     time.Time // started_at >= From, started_at < To
	// Before continues a listing after the last run of the previous page.
	Before *Cursor
	Limit  int // default 50
}

// ListRuns returns runs newest first, without their cases, and the cursor of
// the next page (nil on the last page).
func (db *DB) ListRuns(ctx context.Context, f RunFilter) ([]*Run, *Cursor, error) {
	limit := f.Limit
	if limit <= 0 {
		limit = 50
	}
	var runs []*Run
	q := db.NewSelect().Model(&runs).
		OrderExpr("r.started_at DESC, r.sequence DESC").Limit(int64(limit) + 1)
	if f.Suite != "" {
		q = q.Where("LOWER(r.suite) = LOWER(?)", f.Suite)
	}
	if f.Agent != "" {
		q = q.Where("LOWER(r.agent) = LOWER(?)", f.Agent)
	}
	if !f.From.IsZero() {
		q = q.Where("r.started_at >= ?", UTC(f.From))
	}
	if !f.To.IsZero() {
		q = q.Where("r.started_at < ?", UTC(f.To))
	}
	if f.Before != nil {
		q = before(q, *f.Before)
	}
	if err := q.Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, nil, fmt.Errorf("list runs: %w", err)
	}
	normalizeRuns(runs)
	var next *Cursor
	if len(runs) > limit {
		runs = runs[:limit]
		last := runs[len(runs)-1]
		next = &Cursor{StartedAt: last.StartedAt, Sequence: last.Sequence}
	}
	return runs, next, nil
}

// GetRun returns one run with its cases and metrics in position order.
func (db *DB) GetRun(ctx context.Context, id uuid.UUID) (*Run, error) {
	run := new(Run)
	err := withCases(db.NewSelect().Model(run).Where("r.id = ?", id)).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("get run %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("get run %s: %w", id, err)
	}
	normalizeRuns([]*Run{run})
	return run, nil
}

// BaselineQuery selects earlier runs of the same suite and agent.
type BaselineQuery struct {
	Suite, Agent string
	// Digest, when set, keeps only runs with this suite_digest.
	Digest string
	// Before excludes runs at or after this point; a zero Sequence means
	// "strictly before StartedAt".
	Before Cursor
	Limit  int // default 20
}

// BaselineCandidates returns earlier runs of the same suite and agent, newest
// first (ties broken by sequence), with their cases and metrics loaded.
func (db *DB) BaselineCandidates(ctx context.Context, bq BaselineQuery) ([]*Run, error) {
	limit := bq.Limit
	if limit <= 0 {
		limit = 20
	}
	var runs []*Run
	q := withCases(db.NewSelect().Model(&runs).
		Where("r.suite = ?", bq.Suite).Where("r.agent = ?", bq.Agent).
		OrderExpr("r.started_at DESC, r.sequence DESC").Limit(int64(limit)))
	if bq.Before.Sequence > 0 {
		q = before(q, bq.Before)
	} else {
		q = q.Where("r.started_at < ?", UTC(bq.Before.StartedAt))
	}
	if bq.Digest != "" {
		q = q.Where("r.suite_digest = ?", bq.Digest)
	}
	if err := q.Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("find baseline candidates: %w", err)
	}
	normalizeRuns(runs)
	return runs, nil
}

// withCases loads the runs' cases and their metrics, both in position order.
func withCases(q *bun.SelectQuery) *bun.SelectQuery {
	return q.
		Relation("Cases", func(q *bun.SelectQuery) *bun.SelectQuery { return q.Order("c.position") }).
		Relation("Cases.Metrics", func(q *bun.SelectQuery) *bun.SelectQuery { return q.Order("m.position") })
}

// before keeps the runs strictly before c in the (started_at, sequence)
// order.
func before(q *bun.SelectQuery, c Cursor) *bun.SelectQuery {
	t := UTC(c.StartedAt)
	return q.Where("(r.started_at < ? OR (r.started_at = ? AND r.sequence < ?))", t, t, c.Sequence)
}

// normalizeRuns puts every timestamp read back into UTC.
func normalizeRuns(runs []*Run) {
	for _, r := range runs {
		r.StartedAt, r.FinishedAt = r.StartedAt.UTC(), r.FinishedAt.UTC()
		r.CreatedAt, r.UpdatedAt = r.CreatedAt.UTC(), r.UpdatedAt.UTC()
		for _, c := range r.Cases {
			c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
			for _, m := range c.Metrics {
				m.CreatedAt, m.UpdatedAt = m.CreatedAt.UTC(), m.UpdatedAt.UTC()
			}
		}
	}
}
