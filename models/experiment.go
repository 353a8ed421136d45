package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"

	"github.com/uptrace/bun"
)

// MaxExperimentRuns bounds how many runs ExperimentRuns returns (an
// experiment has at most this many variants).
const MaxExperimentRuns = 100

// ExperimentWindow is how long after its start the runs of an experiment
// are looked for when the start is known.
const ExperimentWindow = 7 * 24 * time.Hour

// ExperimentRuns returns the runs whose metadata names the experiment id
// (metadata.experiment.id), oldest first, with their cases and metrics.
// When from is not zero only runs started in [from, from+ExperimentWindow)
// are read, which walks the started_at index instead of every run.
func (db *DB) ExperimentRuns(ctx context.Context, id string, from time.Time) ([]*Run, error) {
	return db.experimentRuns(ctx, id, from, db.withCases)
}

// ExperimentRunsShort is ExperimentRuns with each case's output cut by the
// database to its first maxChars characters (a JSON string of them, or of
// the JSON text of a longer structured output), so a page of answers side
// by side reads a bounded amount however long the answers are; the other
// values are cut to db's caps.
func (db *DB) ExperimentRunsShort(ctx context.Context, id string, from time.Time, maxChars int) ([]*Run, error) {
	return db.experimentRuns(ctx, id, from, func(q *bun.SelectQuery) *bun.SelectQuery {
		return db.capRuns(q).Relation("Cases", func(q *bun.SelectQuery) *bun.SelectQuery {
			return db.capCases(q, "output").ExcludeColumn("output").ColumnExpr(db.cutOutput(maxChars) + " AS output").Order("c.position")
		}).Relation("Cases.Metrics", func(q *bun.SelectQuery) *bun.SelectQuery { return db.capMetrics(q).Order("m.position") })
	})
}

// cutOutput is the SQL of c.output cut to n characters, still JSON.
func (db *DB) cutOutput(n int) string {
	if db.Dialect == PostgreSQL {
		return fmt.Sprintf(`CASE WHEN c.output IS NULL THEN NULL
			WHEN jsonb_typeof(c.output) = 'string' THEN to_jsonb(left(c.output #>> '{}', %d))
			WHEN length(c.output::text) > %d THEN to_jsonb(left(c.output::text, %d)) ELSE c.output END`, n, n, n)
	}
	return fmt.Sprintf(`CASE WHEN c.output IS NULL THEN NULL
		WHEN json_valid(c.output) AND json_type(c.output) = 'text' THEN json_quote(substr(json_extract(c.output, '$'), 1, %d))
		WHEN length(c.output) > %d THEN json_quote(substr(c.output, 1, %d)) ELSE c.output END`, n, n, n)
}

func (db *DB) experimentRuns(ctx context.Context, id string, from time.Time, cases func(*bun.SelectQuery) *bun.SelectQuery) ([]*Run, error) {
	var runs []*Run
	q := cases(db.NewSelect().Model(&runs)).
		OrderExpr("r.started_at ASC, r.sequence ASC").Limit(MaxExperimentRuns)
	if !from.IsZero() {
		q = q.Where("r.started_at >= ?", UTC(from)).Where("r.started_at < ?", UTC(from.Add(ExperimentWindow)))
	}
	if db.Dialect == PostgreSQL {
		q = q.Where("r.metadata->'experiment'->>'id' = ?", id)
	} else {
		q = q.Where("json_extract(r.metadata, '$.experiment.id') = ?", id)
	}
	if err := q.Scan(ctx); err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("list runs of experiment %s: %w", id, err)
	}
	db.normalizeRuns(runs)
	return runs, nil
}
