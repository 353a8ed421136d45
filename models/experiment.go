package models

import (
	"context"
	"database/sql"
	"errors"
	"fmt"
	"time"
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
	var runs []*Run
	q := withCases(db.NewSelect().Model(&runs)).
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
	normalizeRuns(runs)
	return runs, nil
}
