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
	prefix = strings.ToLower(prefix)
	if strings.Trim(prefix, "0123456789abcdef-") != "" {
		return nil, fmt.Errorf("run id prefix %q: want hex digits and hyphens", prefix)
	}
	var ids []uuid.UUID
	err := db.NewSelect().Model((*Run)(nil)).Column("r.id").
		Where("lower(CAST(r.id AS TEXT)) LIKE ?", prefix+"%").
		OrderExpr("r.id").Limit(int64(limit)).Scan(ctx, &ids)
	if err != nil {
		return nil, fmt.Errorf("find runs by id prefix: %w", err)
	}
	return ids, nil
}
