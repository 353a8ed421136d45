package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"strconv"
	"strings"
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
	// Digest, when set, keeps only runs with this suite_digest.
	Digest   string
	From, To time.Time // started_at >= From, started_at < To
	// Kind keeps only production windows or only suite runs (every run
	// when "").
	Kind RunKind
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
	q := db.capRuns(db.NewSelect().Model(&runs)).
		OrderExpr("r.started_at DESC, r.sequence DESC").Limit(int64(limit) + 1)
	if f.Suite != "" {
		q = q.Where("LOWER(r.suite) = LOWER(?)", f.Suite)
	}
	if f.Agent != "" {
		q = q.Where("LOWER(r.agent) = LOWER(?)", f.Agent)
	}
	if f.Digest != "" {
		q = q.Where("r.suite_digest = ?", f.Digest)
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
	q = f.Kind.filter(q, db.funcs())
	if err := q.Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, nil, fmt.Errorf("list runs: %w", err)
	}
	db.normalizeRuns(runs)
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
	return db.readRun(ctx, id, db.withCases)
}

// readRun reads run id through the select that with makes of a select of
// that run.
func (db *DB) readRun(ctx context.Context, id uuid.UUID, with func(*bun.SelectQuery) *bun.SelectQuery) (*Run, error) {
	run := new(Run)
	err := with(db.NewSelect().Model(run).Where("r.id = ?", id)).Scan(ctx)
	if errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("get run %s: %w", id, ErrNotFound)
	}
	if err != nil {
		return nil, fmt.Errorf("get run %s: %w", id, err)
	}
	db.normalizeRuns([]*Run{run})
	return run, nil
}

// CaseAt returns the case at position pos of run id with its metrics
// (values cut to db's caps), for a page that shows one case in full
// while the rest of the run is read with smaller caps.
func (db *DB) CaseAt(ctx context.Context, id uuid.UUID, pos int) (*CaseResult, error) {
	var cases []*CaseResult
	err := db.capCases(db.NewSelect().Model(&cases)).Where("c.run_id = ?", id).Where("c.position = ?", pos).
		Relation("Metrics", func(q *bun.SelectQuery) *bun.SelectQuery { return db.capMetrics(q).Order("m.position") }).
		Scan(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("get case %d of run %s: %w", pos, id, err)
	}
	if len(cases) == 0 {
		return nil, fmt.Errorf("get case %d of run %s: %w", pos, id, ErrNotFound)
	}
	c := cases[0]
	c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
	if db.caps != (ValueCaps{}) {
		unfoldCase(c)
	}
	unfoldUncalculated(c)
	for _, m := range c.Metrics {
		m.CreatedAt, m.UpdatedAt = m.CreatedAt.UTC(), m.UpdatedAt.UTC()
	}
	return c, nil
}

// BaselineQuery selects earlier runs of the same suite and agent. Every
// filter is applied in SQL on both dialects, so a caller that pages through
// the candidates (After/Before) reads only runs that can still be
// equivalent, without a limit on how far back it looks.
type BaselineQuery struct {
	Suite, Agent string
	// Digest, when set, keeps only runs with this suite_digest.
	Digest string
	// Version, when set, keeps only runs of this suite version.
	Version string
	// CaseIDs, when not nil, keeps only runs whose case ids, in position
	// order, are exactly these (so also as many).
	CaseIDs []string
	// NotWriter, when set, leaves out runs whose summary's writer is this
	// value (runs of one writer are compared by digest alone).
	NotWriter string
	// SkipInfrastructureFailures leaves out runs whose summary's
	// infrastructure_failure is an object (evalrun's mark; another value,
	// such as a false a Ruby app wrote, marks nothing): they measured the
	// infrastructure, not the agent, and never serve as automatic
	// baselines. Interrupted runs (summary key interrupted) are left out
	// with them.
	SkipInfrastructureFailures bool
	// Branch, when set, keeps only runs whose provenance names this git
	// branch (summary.provenance.branch).
	Branch string
	// Kind keeps only production windows (runs whose summary has
	// ProductionKey) when Kind is KindProduction, only other runs when it
	// is KindSuite; every run when it is "".
	Kind RunKind
	// Before excludes runs at or after this point; a zero Sequence means
	// "strictly before StartedAt".
	Before Cursor
	// After, when set, excludes runs at or before this point.
	After *Cursor
	Limit int // default 20
	// window is the DB's history window where the query has no limit.
	window int
}

// caseIDSeparator joins case ids for the in-SQL comparison of id lists.
// A case id holding it can only make more runs match, never fewer: the
// caller compares the candidates it gets exactly.
const caseIDSeparator = "\x1f"

// BaselineCandidates returns earlier runs of the same suite and agent that
// pass the query's filters, newest first (ties broken by sequence), with
// their cases and metrics loaded.
func (db *DB) BaselineCandidates(ctx context.Context, bq BaselineQuery) ([]*Run, error) {
	limit := bq.Limit
	if limit <= 0 {
		limit = 20
	}
	var runs []*Run
	q := db.withCases(db.baselineFilter(db.NewSelect().Model(&runs), bq).
		OrderExpr("r.started_at DESC, r.sequence DESC").Limit(int64(limit)))
	if err := q.Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("find baseline candidates: %w", err)
	}
	db.normalizeRuns(runs)
	return runs, nil
}

// BaselineCandidateIDs returns the ids of every run that passes the
// query's filters, newest first, without a limit (Limit is ignored), in
// one pass over the runs: the cheap first step of a search that then
// loads the candidates a few at a time (GetRuns).
func (db *DB) BaselineCandidateIDs(ctx context.Context, bq BaselineQuery) ([]uuid.UUID, error) {
	var ids []uuid.UUID
	bq.window = db.historyWindow
	q := db.baselineFilter(db.NewSelect().Model((*Run)(nil)).Column("r.id"), bq).
		OrderExpr("r.started_at DESC, r.sequence DESC")
	if err := q.Scan(ctx, &ids); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("find baseline candidates: %w", err)
	}
	return ids, nil
}

// GetRuns returns the runs with the given ids, with their cases and
// metrics, in the order of ids (unknown ids are left out).
func (db *DB) GetRuns(ctx context.Context, ids []uuid.UUID) ([]*Run, error) {
	if len(ids) == 0 {
		return nil, nil
	}
	var runs []*Run
	if err := db.withCases(db.NewSelect().Model(&runs).Where("r.id IN (?)", bun.In(ids))).Scan(ctx); err != nil &&
		!errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("get runs: %w", err)
	}
	db.normalizeRuns(runs)
	byID := make(map[uuid.UUID]*Run, len(runs))
	for _, r := range runs {
		byID[r.ID] = r
	}
	out := make([]*Run, 0, len(runs))
	for _, id := range ids {
		if r := byID[id]; r != nil {
			out = append(out, r)
		}
	}
	return out, nil
}

// WithHistoryWindow returns db whose unlimited baseline look-up
// (BaselineCandidateIDs) considers only the n newest runs of the suite
// and agent before the query's cursor, so its work no longer grows with
// the history (the other look-ups have a limit): for a reader with a work
// budget, such as the dashboard. n <= 0 means no window.
func (db *DB) WithHistoryWindow(n int) *DB {
	c := *db
	c.historyWindow = n
	return &c
}

// HistoryWindow is the window set by WithHistoryWindow (0: none).
func (db *DB) HistoryWindow() int { return db.historyWindow }

// baselineFilter adds the query's filters to a select of runs.
func (db *DB) baselineFilter(q *bun.SelectQuery, bq BaselineQuery) *bun.SelectQuery {
	q = q.Where("r.suite = ?", bq.Suite).Where("r.agent = ?", bq.Agent)
	beforeSQL, beforeArgs := "w.started_at < ?", []any{UTC(bq.Before.StartedAt)}
	if bq.Before.Sequence > 0 {
		q = before(q, bq.Before)
		t := UTC(bq.Before.StartedAt)
		beforeSQL, beforeArgs = "(w.started_at < ? OR (w.started_at = ? AND w.sequence < ?))", []any{t, t, bq.Before.Sequence}
	} else {
		q = q.Where("r.started_at < ?", UTC(bq.Before.StartedAt))
	}
	if bq.window > 0 {
		// The window is chosen first, from the index, so the filters
		// below (JSON and per-run subqueries) see at most this many runs.
		args := append([]any{bq.Suite, bq.Agent}, beforeArgs...)
		q = q.Where("r.id IN (SELECT w.id FROM "+RunsTable+" AS w WHERE w.suite = ? AND w.agent = ? AND "+beforeSQL+
			" ORDER BY w.started_at DESC, w.sequence DESC LIMIT "+strconv.Itoa(bq.window)+")", args...)
	}
	if bq.After != nil {
		t := UTC(bq.After.StartedAt)
		q = q.Where("(r.started_at > ? OR (r.started_at = ? AND r.sequence > ?))", t, t, bq.After.Sequence)
	}
	if bq.Digest != "" {
		q = q.Where("r.suite_digest = ?", bq.Digest)
	}
	if bq.Version != "" {
		q = q.Where("r.version = ?", bq.Version)
	}
	f := db.funcs()
	if bq.NotWriter != "" {
		q = q.Where("COALESCE("+f.text("r.summary", WriterKey)+", '') <> ?", bq.NotWriter)
	}
	if bq.SkipInfrastructureFailures {
		q = q.Where(f.notObject("r.summary", InfrastructureFailureKey)).
			Where(f.text("r.summary", InterruptedKey) + " IS NULL")
	}
	if bq.Branch != "" {
		q = q.Where(f.nested("r.summary", "provenance", "branch")+" = ?", bq.Branch)
	}
	q = bq.Kind.filter(q, f)
	if bq.CaseIDs != nil {
		q = q.Where("(SELECT count(*) FROM "+CaseResultsTable+" cc WHERE cc.run_id = r.id) = ?", len(bq.CaseIDs))
		if len(bq.CaseIDs) > 0 {
			q = q.Where("(SELECT "+f.joinOrdered("cc.case_id", "cc.position")+" FROM "+CaseResultsTable+
				" cc WHERE cc.run_id = r.id) = ?", strings.Join(bq.CaseIDs, caseIDSeparator))
		}
	}
	return q
}

// withCases loads the runs' cases and their metrics, both in position
// order, every value cut to db's caps.
func (db *DB) withCases(q *bun.SelectQuery) *bun.SelectQuery {
	return db.capRuns(q).
		Relation("Cases", func(q *bun.SelectQuery) *bun.SelectQuery { return db.capCases(q).Order("c.position") }).
		Relation("Cases.Metrics", func(q *bun.SelectQuery) *bun.SelectQuery { return db.capMetrics(q).Order("m.position") })
}

// before keeps the runs strictly before c in the (started_at, sequence)
// order.
func before(q *bun.SelectQuery, c Cursor) *bun.SelectQuery {
	t := UTC(c.StartedAt)
	return q.Where("(r.started_at < ? OR (r.started_at = ? AND r.sequence < ?))", t, t, c.Sequence)
}

// normalizeRuns puts every timestamp read back into UTC and unfolds the
// values db's caps cut.
func (db *DB) normalizeRuns(runs []*Run) {
	db.unfoldCuts(runs)
	for _, r := range runs {
		r.StartedAt, r.FinishedAt = r.StartedAt.UTC(), r.FinishedAt.UTC()
		r.CreatedAt, r.UpdatedAt = r.CreatedAt.UTC(), r.UpdatedAt.UTC()
		for _, c := range r.Cases {
			c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
			unfoldUncalculated(c)
			for _, m := range c.Metrics {
				m.CreatedAt, m.UpdatedAt = m.CreatedAt.UTC(), m.UpdatedAt.UTC()
			}
		}
	}
}

// CasesOf reads the cases and metrics of several runs, both in position
// order, in two queries: for listings that show totals computed from rows
// (TotalsOf) without loading each run on its own.
func (db *DB) CasesOf(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID][]*CaseResult, error) {
	out := make(map[uuid.UUID][]*CaseResult, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var cases []*CaseResult
	err := db.capCases(db.NewSelect().Model(&cases)).Where("c.run_id IN (?)", bun.In(ids)).
		Relation("Metrics", func(q *bun.SelectQuery) *bun.SelectQuery { return db.capMetrics(q).Order("m.position") }).
		Order("c.run_id", "c.position").Scan(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("load cases: %w", err)
	}
	for _, c := range cases {
		c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
		if db.caps != (ValueCaps{}) {
			unfoldCase(c)
		}
		unfoldUncalculated(c)
		out[c.RunID] = append(out[c.RunID], c)
	}
	return out, nil
}

// BaselineCandidateHeaders is BaselineCandidates without the cases: the
// run rows alone, newest first, for callers that decide from the digest
// and the writer which runs they need in full.
func (db *DB) BaselineCandidateHeaders(ctx context.Context, bq BaselineQuery) ([]*Run, error) {
	limit := bq.Limit
	if limit <= 0 {
		limit = 20
	}
	var runs []*Run
	q := db.capRuns(db.baselineFilter(db.NewSelect().Model(&runs), bq)).
		OrderExpr("r.started_at DESC, r.sequence DESC").Limit(int64(limit))
	if err := q.Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("find baseline candidates: %w", err)
	}
	db.normalizeRuns(runs)
	return runs, nil
}

// CaseStatuses returns, per run id, the runs' case rows with only run_id,
// position, case_id and status read, in position order. A status outside
// the four known ones needs the metric rows to be read (EffectiveStatus):
// such a run is reported in needMetrics and left out of the map.
func (db *DB) CaseStatuses(ctx context.Context, ids []uuid.UUID) (statuses map[uuid.UUID][]*CaseResult, needMetrics map[uuid.UUID]bool, err error) {
	statuses, needMetrics = map[uuid.UUID][]*CaseResult{}, map[uuid.UUID]bool{}
	if len(ids) == 0 {
		return statuses, needMetrics, nil
	}
	var rows []*CaseResult
	if err := db.NewSelect().Model(&rows).Column("c.run_id", "c.position", "c.case_id", "c.status").
		Where("c.run_id IN (?)", bun.In(ids)).Order("c.run_id", "c.position").Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, nil, fmt.Errorf("read case statuses: %w", err)
	}
	for _, c := range rows {
		switch c.Status {
		case StatusPassed, StatusFailed, StatusError, StatusNotEvaluated:
		default:
			needMetrics[c.RunID] = true
		}
		statuses[c.RunID] = append(statuses[c.RunID], c)
	}
	for id := range needMetrics {
		delete(statuses, id)
	}
	return statuses, needMetrics, nil
}
