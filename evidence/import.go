package evidence

import (
	"context"
	"errors"
	"fmt"

	"github.com/agentevals-go/agentevals/models"
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
	out, err := ImportAll(ctx, db, []*File{f}, opts)
	if err != nil {
		return 0, err
	}
	return out[0], nil
}

// ImportAll imports several validated files in one transaction: every run
// not yet in the database is inserted, or none is. Runs already there with
// equal content are AlreadyImported; one with different content is a
// *ConflictError before anything is written. Another importer committing
// the same run meanwhile (a unique-key violation) is not an error: the
// runs are looked at again and the equal ones reported AlreadyImported,
// so parallel imports of one file all succeed.
func ImportAll(ctx context.Context, db *models.DB, files []*File, opts models.SaveOptions) ([]Outcome, error) {
	for _, f := range files {
		if f.Shard != nil {
			return nil, fmt.Errorf("import evidence: a file holds shard %d of %d: merge the shards (db:import --merge) instead", f.Shard.Index, f.Shard.Count)
		}
	}
	const rounds = 5 // each lost race means another importer committed: it ends quickly
	var err error
	for range rounds {
		outcomes := make([]Outcome, len(files))
		var pending []*models.Run
		for i, f := range files {
			switch existing, gerr := db.GetRun(ctx, f.Run.ID); {
			case gerr == nil:
				if same, diff := sameEvidence(existing, f); !same {
					return nil, &ConflictError{ID: f.Run.ID.String(), Difference: diff}
				}
				outcomes[i] = AlreadyImported
			case errors.Is(gerr, models.ErrNotFound):
				outcomes[i] = Inserted
				pending = append(pending, f.Run)
			default:
				return nil, fmt.Errorf("import evidence: %w", gerr)
			}
		}
		if err = db.SaveRuns(ctx, pending, opts); err == nil {
			return outcomes, nil
		}
		if !models.UniqueViolation(err) {
			return nil, fmt.Errorf("import evidence: %w", err)
		}
	}
	return nil, fmt.Errorf("import evidence: other writers kept inserting the same runs (%d rounds): %w", rounds, err)
}

// sameEvidence compares a stored run with a file's: equal to the rows the
// file imports (repaired, redacted, cut), or to the file as written (the
// run that wrote it saved those rows itself before it was stopped).
func sameEvidence(stored *models.Run, f *File) (bool, string) {
	same, diff := Equal(stored, f.Run)
	if same || f.asWritten == nil {
		return same, diff
	}
	if ok, _ := Equal(stored, f.asWritten); ok {
		return true, ""
	}
	return false, diff
}
