package models

import (
	"context"
	"fmt"
	"strings"

	"github.com/google/uuid"
)

// RunIDsByPrefix lists up to limit run ids, in id order, whose text form
// starts with prefix (lower-case hex digits and hyphens, as history shows
// them), for naming a run by a prefix of its id as git names commits.
func (db *DB) RunIDsByPrefix(ctx context.Context, prefix string, limit int) ([]uuid.UUID, error) {
	return db.runIDsLike(ctx, prefix, "prefix", prefix+"%", limit)
}

// RunIDsBySuffix is RunIDsByPrefix for the end of the id: run ids are
// time-ordered (UUIDv7), so runs made days apart share their first
// characters, while the last 12 are random.
func (db *DB) RunIDsBySuffix(ctx context.Context, suffix string, limit int) ([]uuid.UUID, error) {
	return db.runIDsLike(ctx, suffix, "suffix", "%"+suffix, limit)
}

func (db *DB) runIDsLike(ctx context.Context, part, kind, pattern string, limit int) ([]uuid.UUID, error) {
	pattern = strings.ToLower(pattern)
	if strings.Trim(strings.ToLower(part), "0123456789abcdef-") != "" {
		return nil, fmt.Errorf("run id %s %q: want hex digits and hyphens", kind, part)
	}
	var ids []uuid.UUID
	err := db.NewSelect().Model((*Run)(nil)).Column("r.id").
		Where("lower(CAST(r.id AS TEXT)) LIKE ?", pattern).
		OrderExpr("r.id").Limit(int64(limit)).Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("find runs by id %s: %w", kind, err)
	}
	return ids, nil
}
