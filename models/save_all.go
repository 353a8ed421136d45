package models

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/jackc/pgx/v5/pgconn"
	"github.com/uptrace/bun"
)

// SaveRuns is SaveRun for several runs in one transaction: all of them are
// saved, or none is. Before a retry it checks whether the previous attempt
// committed (the first run is there), so nothing is written twice.
func (db *DB) SaveRuns(ctx context.Context, runs []*Run, opts SaveOptions) error {
	if len(runs) == 0 {
		return nil
	}
	now := time.Now()
	for _, r := range runs {
		if err := prepareRun(r, now); err != nil {
			return err
		}
	}
	return db.retrySave(ctx, opts, func(retry bool) error {
		if retry {
			exists, err := db.NewSelect().Model((*Run)(nil)).Where("id = ?", runs[0].ID).Exists(ctx)
			if err != nil {
				return fmt.Errorf("save %d runs: %w", len(runs), err)
			}
			if exists {
				return nil
			}
		}
		err := db.RunInTx(ctx, nil, func(ctx context.Context, tx bun.Tx) error {
			for _, r := range runs {
				forgetIDs(r) // ids read back by an attempt that rolled back
				if err := db.insertInTx(ctx, tx, r); err != nil {
					return fmt.Errorf("run %s: %w", r.ID, err)
				}
			}
			return nil
		})
		if err != nil {
			return fmt.Errorf("save %d run(s) in one transaction: %w", len(runs), err)
		}
		return nil
	})
}

// UniqueViolation reports whether err is a unique-key violation: another
// writer inserted the same row first.
func UniqueViolation(err error) bool {
	var pgErr *pgconn.PgError
	if errors.As(err, &pgErr) {
		return pgErr.Code == "23505"
	}
	return err != nil && strings.Contains(err.Error(), "UNIQUE constraint failed")
}

// forgetIDs clears the database ids of a run's rows, so an insert assigns
// new ones.
func forgetIDs(r *Run) {
	for _, c := range r.Cases {
		c.ID = 0
		for _, m := range c.Metrics {
			m.ID, m.CaseResultID = 0, 0
		}
	}
}
