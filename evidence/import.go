package evidence

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentevals/agentevals/models"
)

// Outcome says what Import did.
type Outcome int

// Import outcomes.
const (
	// Inserted: the run was new and is now saved.
	Inserted Outcome = iota
	// AlreadyImported: a run with the same id and equal content was there;
	// nothing was inserted.
	AlreadyImported
)

// ConflictError is returned by Import when the database already holds a
// different run under the file's run id. Nothing is written.
type ConflictError struct {
	ID         string
	Difference string
}

// Error names the run and the first difference.
func (e *ConflictError) Error() string {
	return fmt.Sprintf("run %s already exists with different content (%s); nothing was imported", e.ID, e.Difference)
}

// Import inserts the file's run in one transaction (models.DB.SaveRun,
// with its retries) unless a run with the same id is already saved: then
// it compares the two and returns AlreadyImported when they hold the same
// evidence, or a *ConflictError when they differ. The file must have been
// validated (Read does that); a shard is refused, since only merged runs
// are whole.
func Import(ctx context.Context, db *models.DB, f *File, opts models.SaveOptions) (Outcome, error) {
	if f.Shard != nil {
		return 0, fmt.Errorf("import evidence: the file holds shard %d of %d: merge the shards (db:import --merge) instead", f.Shard.Index, f.Shard.Count)
	}
	existing, err := db.GetRun(ctx, f.Run.ID)
	switch {
	case err == nil:
		if same, diff := Equal(existing, f.Run); !same {
			return 0, &ConflictError{ID: f.Run.ID.String(), Difference: diff}
		}
		return AlreadyImported, nil
	case !errors.Is(err, models.ErrNotFound):
		return 0, fmt.Errorf("import evidence: %w", err)
	}
	if err := db.SaveRun(ctx, f.Run, opts); err != nil {
		return 0, fmt.Errorf("import evidence: %w", err)
	}
	return Inserted, nil
}
