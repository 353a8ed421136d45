package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// totalsColumns are the case columns TotalsOf reads besides error_details.
var totalsColumns = []string{"c.id", "c.run_id", "c.position", "c.case_id", "c.name", "c.status", "c.duration_ms",
	"c.input_tokens", "c.output_tokens", "c.cost", "c.created_at", "c.updated_at"}

// CaseTotalsOf reads, per run id, what TotalsOf needs of the runs' cases:
// statuses, usage, the agent's error details (cut to db's caps) and the
// metric rows, in position order. The suite's and the agent's values
// (question, output, actions, response metadata, …) are not read, so a
// listing's cost does not grow with what the agents answered.
func (db *DB) CaseTotalsOf(ctx context.Context, ids []uuid.UUID) (map[uuid.UUID][]*CaseResult, error) {
	out := make(map[uuid.UUID][]*CaseResult, len(ids))
	if len(ids) == 0 {
		return out, nil
	}
	var cases []*CaseResult
	q := db.NewSelect().Model(&cases).Column(totalsColumns...)
	if db.caps.Value > 0 {
		q = q.ColumnExpr(db.cappedJSON("c.error_details", db.caps.Value) + " AS error_details")
	} else {
		q = q.Column("c.error_details")
	}
	err := q.Where("c.run_id IN (?)", bun.In(ids)).
		Relation("Metrics", func(q *bun.SelectQuery) *bun.SelectQuery { return db.capMetrics(q).Order("m.position") }).
		Order("c.run_id", "c.position").Scan(ctx)
	if err != nil && !errors.Is(err, sql.ErrNoRows) {
		return nil, fmt.Errorf("load case totals: %w", err)
	}
	for _, c := range cases {
		c.CreatedAt, c.UpdatedAt = c.CreatedAt.UTC(), c.UpdatedAt.UTC()
		if db.caps != (ValueCaps{}) {
			unfoldCase(c)
		}
		out[c.RunID] = append(out[c.RunID], c)
	}
	return out, nil
}

// RunHeader returns run id without its cases, its metadata and summary
// cut to db's caps (whole without caps): for a reader that then reads the
// cases one at a time (CaseAt).
func (db *DB) RunHeader(ctx context.Context, id uuid.UUID) (*Run, error) {
	return db.readRun(ctx, id, db.capRuns)
}
