// Package schema creates and checks the evaluation-history tables shared
// with the Ruby gem: migrations per dialect, the live-schema contract check
// and the Rails migration text.
package schema

import (
	"context"
	"errors"

	"agentevals/models"
)

// Migrate creates or upgrades the contract tables (placeholder until issue 2 lands).
func Migrate(ctx context.Context, db *models.DB) error {
	return errors.New("not implemented yet")
}
