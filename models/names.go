package models

import (
	"context"
	"fmt"
)

// maxNames bounds the distinct names RunNames reads for hints.
const maxNames = 1000

// RunNames returns the distinct suite and agent names of the saved runs,
// sorted (at most 1000 of each), for "did you mean" hints.
func (db *DB) RunNames(ctx context.Context) (suites, agents []string, err error) {
	for _, col := range []struct {
		name string
		out  *[]string
	}{{"suite", &suites}, {"agent", &agents}} {
		err := db.NewSelect().Model((*Run)(nil)).ColumnExpr("DISTINCT r."+col.name).
			OrderExpr("r."+col.name).Limit(maxNames).Scan(ctx, col.out)
		if err != nil {
			return nil, nil, fmt.Errorf("list run names: %w", err)
		}
	}
	return suites, agents, nil
}
