package eval

import (
	"context"
	"errors"
	"fmt"

	"github.com/google/uuid"

	"github.com/agentevals/agentevals/compare"
	"github.com/agentevals/agentevals/models"
)

// FindBaseline is the baseline of run under the gate: the run named by
// Gate.Baseline, checked to be one, or else the automatic baseline (nil
// when there is none). calculated is as for compare.FindBaseline. Any
// problem is an ExitInvalid Error.
func (g Gate) FindBaseline(ctx context.Context, db *models.DB, run *models.Run, calculated []string) (*models.Run, error) {
	if g.Baseline == "" {
		base, err := compare.FindBaseline(ctx, db, run, calculated)
		if err != nil {
			return nil, failure(StageBaseline, ExitInvalid, err)
		}
		return base, nil
	}
	base, err := LoadRun(ctx, db, g.Baseline, "--baseline")
	if err != nil {
		if e := (*Error)(nil); errors.As(err, &e) {
			e.Stage = StageBaseline
		}
		return nil, err
	}
	if err := compare.CheckBaseline(run, base, calculated); err != nil {
		return nil, failure(StageBaseline, ExitInvalid, fmt.Errorf("--baseline %s: %w", g.Baseline, err))
	}
	return base, nil
}

// LoadRun reads the run with the given id; a malformed or unknown id is an
// ExitInvalid Error naming what (a flag or argument, e.g. "--baseline").
func LoadRun(ctx context.Context, db *models.DB, id, what string) (*models.Run, error) {
	uid, err := uuid.Parse(id)
	if err != nil {
		return nil, &Error{Code: ExitInvalid, Err: fmt.Errorf("%s %q: not a run id (want a UUID from evalrun history)", what, id)}
	}
	run, err := db.GetRun(ctx, uid)
	if errors.Is(err, models.ErrNotFound) {
		return nil, &Error{Code: ExitInvalid, Err: fmt.Errorf("%s %s: no such run in %s", what, id, db.URL)}
	}
	if err != nil {
		return nil, &Error{Code: ExitInvalid, Err: err}
	}
	return run, nil
}

// noBaselineWhy says why run has no automatic baseline when the reason is
// not the usual one (the first run of its definition): earlier runs of the
// definition that are all marked as infrastructure failures are named, so
// "first run" does not hide them. "" otherwise, and when the history
// cannot be read.
func noBaselineWhy(ctx context.Context, db *models.DB, run *models.Run, calculated []string) string {
	cands, err := db.BaselineCandidates(ctx, models.BaselineQuery{Suite: run.Suite, Agent: run.Agent, Digest: run.SuiteDigest,
		Before: models.Cursor{StartedAt: run.StartedAt, Sequence: run.Sequence}, Limit: 1}) // the newest only: candidates come with all their rows
	if err != nil {
		return ""
	}
	for _, c := range cands {
		if c.ID != run.ID && compare.InfrastructureFailure(c) && compare.CheckBaseline(run, c, calculated) == nil {
			return "the earlier runs of this definition are marked as infrastructure failures, never automatic baselines; " +
				"--baseline RUN_ID compares with one anyway"
		}
	}
	return ""
}

// CompareOptions are the gate's comparison options for run, whose history
// is in db: Options with the run's flaky questions (compare.FlakyQuestions).
// A history that cannot be read leaves them unmarked and says so in note:
// the gate still decides.
func (g Gate) CompareOptions(ctx context.Context, db *models.DB, run *models.Run, calculated []string) (opts compare.Options, note string) {
	opts = g.Options()
	flaky, err := compare.FlakyQuestions(ctx, db, run, calculated)
	if err != nil {
		return opts, "flaky questions not marked: " + err.Error()
	}
	opts.Flaky = flaky
	return opts, ""
}
