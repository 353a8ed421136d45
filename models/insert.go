package models

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"time"

	"github.com/google/uuid"
	"github.com/uptrace/bun"
)

// insertBatch is how many rows go into one INSERT statement.
const insertBatch = 1000

// UTC truncates t to microseconds in UTC, the precision and zone Rails uses
// for timestamp(6) without time zone.
func UTC(t time.Time) time.Time { return t.UTC().Truncate(time.Microsecond) }

// InsertRun appends a whole run (the run, its cases and their metrics) in one
// transaction. It assigns a UUID v7 when run.ID is zero, fills Rails
// timestamps, case and metric foreign keys, and reads back the database's
// sequence and ids. Positions are taken as given.
func (db *DB) InsertRun(ctx context.Context, run *Run) error { return db.insertRun(ctx, run, nil) }

// insertRun is InsertRun calling beforeCommit (when set) once the rows are
// written, before the commit.
func (db *DB) insertRun(ctx context.Context, run *Run, beforeCommit func()) error {
	if err := prepareRun(run, time.Now()); err != nil {
		return err
	}
	err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
		if err := db.insertInTx(ctx, tx, run); err != nil {
			return err
		}
		if beforeCommit != nil {
			beforeCommit()
		}
		return nil
	})
	if err != nil {
		return fmt.Errorf("save run %s: %w", run.ID, err)
	}
	return nil
}

// insertInTx writes a prepared run's rows in tx.
func (db *DB) insertInTx(ctx context.Context, tx bun.Tx, run *Run) error {
	if _, err := tx.NewInsert().Model(run).ExcludeColumn("sequence").Returning("sequence").Exec(ctx); err != nil {
		return fmt.Errorf("insert run: %w", err)
	}
	if db.Dialect == PostgreSQL {
		return insertChildrenPostgres(ctx, tx, run, run.CreatedAt)
	}
	return insertChildrenBatched(ctx, tx, run)
}

// insertChildrenBatched writes cases and metrics with multi-row INSERTs of
// insertBatch rows, reading the ids back with RETURNING (SQLite).
func insertChildrenBatched(ctx context.Context, tx bun.Tx, run *Run) error {
	for start := 0; start < len(run.Cases); start += insertBatch {
		batch := run.Cases[start:min(start+insertBatch, len(run.Cases))]
		if _, err := tx.NewInsert().Model(&batch).Returning("id").Exec(ctx); err != nil {
			return fmt.Errorf("insert case results: %w", err)
		}
	}
	metrics := linkMetrics(run)
	for start := 0; start < len(metrics); start += insertBatch {
		batch := metrics[start:min(start+insertBatch, len(metrics))]
		if _, err := tx.NewInsert().Model(&batch).Returning("id").Exec(ctx); err != nil {
			return fmt.Errorf("insert metric results: %w", err)
		}
	}
	return nil
}

// linkMetrics sets every metric's case_result_id from its case (whose id
// was read back on insert) and returns the metrics of the whole run in case
// order.
func linkMetrics(run *Run) []*MetricResult {
	var metrics []*MetricResult
	for _, c := range run.Cases {
		for _, m := range c.Metrics {
			if !m.Calculated() {
				continue // kept in response_metadata, see NotCalculatedKey
			}
			m.CaseResultID = c.ID
			metrics = append(metrics, m)
		}
	}
	return metrics
}

// ErrNotJSONObject is wrapped by InsertRun's error when a run's metadata or
// summary, or a case's metadata, holds something other than a JSON object.
var ErrNotJSONObject = errors.New("not a JSON object")

// PrepareRun makes run exactly what InsertRun would insert, without
// writing anything: it validates positions and the JSON object columns,
// assigns a UUID v7 when the id is zero, truncates times to microseconds
// in UTC and links the cases to the run. Evidence files are written from
// prepared runs so that they hold the rows a save inserts.
func PrepareRun(run *Run) error { return prepareRun(run, time.Now()) }

// prepareRun validates positions and the JSON object columns, then fills
// ids and timestamps. It runs before the transaction starts, so a run it
// refuses writes nothing.
func prepareRun(run *Run, now time.Time) error {
	if err := validatePositions(run); err != nil {
		return err
	}
	if run.ID == uuid.Nil {
		id, err := uuid.NewV7()
		if err != nil {
			return fmt.Errorf("save run: %w", err)
		}
		run.ID = id
	}
	if run.Status == "" {
		run.Status = RunStatusCompleted
	}
	var err error
	if run.Metadata, err = jsonObject(run.Metadata, "the run's metadata"); err != nil {
		return err
	}
	if run.Summary, err = jsonObject(run.Summary, "the run's summary"); err != nil {
		return err
	}
	for _, c := range run.Cases {
		if c.Metadata, err = jsonObject(c.Metadata, fmt.Sprintf("the metadata of case %q", c.CaseID)); err != nil {
			return err
		}
		// Rails stores a Ruby nil as SQL NULL, never JSON null, so that
		// where(output: nil) finds Go rows too; {} and [] stay as they are.
		for _, j := range []*JSON{&c.Question, &c.ExpectedAnswer, &c.ExpectedActions, &c.MinimumScores,
			&c.Output, &c.Actions, &c.ResponseMetadata, &c.ErrorDetails} {
			*j = sqlNull(*j)
		}
		for _, m := range c.Metrics {
			m.ErrorDetails = sqlNull(m.ErrorDetails)
		}
		if needsFold(c) {
			if err := foldUncalculated(c); err != nil {
				return err
			}
		}
	}
	now = UTC(now)
	run.StartedAt, run.FinishedAt = UTC(run.StartedAt), UTC(run.FinishedAt)
	run.CreatedAt, run.UpdatedAt = now, now
	for _, c := range run.Cases {
		c.RunID = run.ID
		c.CreatedAt, c.UpdatedAt = now, now
		for _, m := range c.Metrics {
			m.CreatedAt, m.UpdatedAt = now, now
		}
	}
	return nil
}

// needsFold reports whether foldUncalculated could change c: c has a
// metric that was not calculated, or its response_metadata may hold a
// not-calculated list to replace. Without either it would decode the
// whole object (a traced case's spans) to change nothing. The key could
// only hide behind a \u escape of an ASCII letter or the underscore.
func needsFold(c *CaseResult) bool {
	for _, m := range c.Metrics {
		if !m.Calculated() {
			return true
		}
	}
	if s := c.kept(); s != nil {
		return s.notCalculated // the record it was encoded from says
	}
	meta := []byte(c.ResponseMetadata)
	return bytes.Contains(meta, []byte(NotCalculatedKey)) || bytes.Contains(meta, []byte(`\u005`)) ||
		bytes.Contains(meta, []byte(`\u006`)) || bytes.Contains(meta, []byte(`\u007`))
}

// sqlNull turns JSON null into SQL NULL (nil) and keeps every other value.
func sqlNull(j JSON) JSON {
	if j.IsNull() {
		return nil
	}
	return j
}

// validatePositions checks that case positions are unique within the run
// and metric positions unique within their case, and none is negative, as
// the contract's unique indexes require; ids read back are matched on them.
func validatePositions(run *Run) error {
	cases := make(map[int]bool, len(run.Cases))
	for _, c := range run.Cases {
		if c == nil {
			return fmt.Errorf("save run: nil case result")
		}
		if c.Position < 0 || cases[c.Position] {
			return fmt.Errorf("save run: case %q has position %d, which is negative or taken", c.CaseID, c.Position)
		}
		cases[c.Position] = true
		metrics := make(map[int]bool, len(c.Metrics))
		for _, m := range c.Metrics {
			if m == nil {
				return fmt.Errorf("save run: case %q has a nil metric result", c.CaseID)
			}
			if m.Position < 0 || metrics[m.Position] {
				return fmt.Errorf("save run: metric %q of case %q has position %d, which is negative or taken", m.Name, c.CaseID, m.Position)
			}
			metrics[m.Position] = true
		}
	}
	return nil
}

// jsonObject returns the value of a JSON column that the contract requires
// to hold an object (the contract: NOT NULL default {}): SQL NULL and JSON null
// become {}, an object is kept as given, and anything else (an array, a
// string, a number, invalid JSON) is refused. Neither database would catch
// it: jsonb takes any JSON value and SQLite any text, while the Ruby gem
// and our readers expect an object.
func jsonObject(j JSON, what string) (JSON, error) {
	if j.IsNull() {
		return JSON("{}"), nil
	}
	trimmed := bytes.TrimSpace(j)
	if len(trimmed) == 0 || trimmed[0] != '{' || !json.Valid(trimmed) {
		return nil, fmt.Errorf("save run: %s is %s: %w", what, preview(trimmed), ErrNotJSONObject)
	}
	return j, nil
}

// preview quotes the start of a refused value for an error message.
func preview(b []byte) string {
	const limit = 40
	if len(b) > limit {
		return strconv.Quote(string(b[:limit])) + "…"
	}
	return strconv.Quote(string(b))
}
