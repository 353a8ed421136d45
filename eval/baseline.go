package eval

import (
	"context"
	"errors"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/evidence"
	"github.com/agentevals-go/agentevals/models"
)

// FindBaseline is the baseline of run under the gate and where it came
// from: the evidence file named by Gate.BaselineFrom, the run named by
// Gate.Baseline (both checked to be one), or else the automatic baseline,
// the newest compatible run of Gate.Branch when it is set (nil when there
// is none, and when db is nil). calculated is as for compare.FindBaseline.
// Any problem is an ExitInvalid Error.
func (g Gate) FindBaseline(ctx context.Context, db *models.DB, run *models.Run, calculated []string) (*models.Run, *models.GateBaseline, error) {
	switch {
	case g.BaselineFrom != "":
		return g.baselineFromFile(run, calculated)
	case g.Baseline == "" && db == nil:
		return nil, nil, nil
	case g.Baseline == "":
		base, ancestor, err := g.automatic(ctx, db, run, calculated)
		if err != nil {
			return nil, nil, failure(StageBaseline, ExitInvalid, err)
		}
		source := models.BaselineAutomatic
		if g.Branch != "" {
			source = models.BaselineBranch
		}
		origin := compare.Origin(base, source)
		if origin != nil && g.Branch != "" {
			origin.Target, origin.Ancestor = g.Branch, ancestor
		}
		return base, origin, nil
	case db == nil:
		return nil, nil, failure(StageOptions, ExitInvalid, errors.New("--baseline needs the database, which --save-to and --no-save do not open; --baseline-from FILE takes an evidence file instead"))
	}
	base, err := LoadRun(ctx, db, g.Baseline, "--baseline")
	if err != nil {
		if e := (*Error)(nil); errors.As(err, &e) {
			e.Stage = StageBaseline
		}
		return nil, nil, err
	}
	if err := compare.CheckBaseline(run, base, calculated); err != nil {
		return nil, nil, failure(StageBaseline, ExitInvalid, fmt.Errorf("--baseline %s: %w", g.Baseline, err))
	}
	return base, compare.Origin(base, models.BaselineFlag), nil
}

// automatic is the automatic baseline: on Branch, the newest run at or
// before the merge base when IsAncestor finds one (ancestor true), else the
// newest compatible run.
func (g Gate) automatic(ctx context.Context, db *models.DB, run *models.Run, calculated []string) (base *models.Run, ancestor bool, err error) {
	if g.Branch != "" && g.IsAncestor != nil {
		if base, err = compare.FindAncestorBaseline(ctx, db, run, calculated, g.Branch, g.IsAncestor); base != nil || err != nil {
			return base, base != nil, err
		}
	}
	base, err = compare.FindBaselineOnBranch(ctx, db, run, calculated, g.Branch)
	return base, false, err
}

// baselineFromFile reads the baseline from the evidence file
// Gate.BaselineFrom: one whole, uninterrupted run of the same definition.
func (g Gate) baselineFromFile(run *models.Run, calculated []string) (*models.Run, *models.GateBaseline, error) {
	bad := func(err error) (*models.Run, *models.GateBaseline, error) {
		return nil, nil, failure(StageBaseline, ExitInvalid, fmt.Errorf("--baseline-from %s: %w", g.BaselineFrom, err))
	}
	f, err := evidence.Read(g.BaselineFrom)
	if err != nil {
		return bad(err)
	}
	switch {
	case f.Shard != nil:
		return bad(fmt.Errorf("it holds shard %d of %d, not a whole run: merge the shards first (evalrun db:import reads them all)", f.Shard.Index, f.Shard.Count))
	case interrupted(f.Run):
		return bad(errors.New("it holds an interrupted run, which is never a baseline"))
	}
	if err := compare.CheckBaseline(run, f.Run, calculated); err != nil {
		return bad(err)
	}
	origin := compare.Origin(f.Run, models.BaselineFile)
	origin.File = filepath.Base(g.BaselineFrom)
	return f.Run, origin, nil
}

// interrupted reports whether the run's summary marks it as stopped by a
// signal.
func interrupted(run *models.Run) bool {
	s, err := models.DecodeRunSummary(run.Summary)
	return err == nil && s.Interrupted != nil
}

// LoadRun reads the run with the given id, or with the one id that starts
// or ends with the given part (at least minPrefix characters, as git takes
// a commit prefix; run ids are time-ordered, so the random end of an id is
// the short name that stays unique); a malformed, unknown or ambiguous id is an ExitInvalid
// Error naming what (a flag or argument, e.g. "--baseline") and, for an
// ambiguous prefix, the runs it matches.
func LoadRun(ctx context.Context, db *models.DB, id, what string) (*models.Run, error) {
	uid, err := uuid.Parse(id)
	if err != nil {
		if uid, err = resolvePrefix(ctx, db, id, what); err != nil {
			return nil, err
		}
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

// minPrefix is the shortest run id prefix LoadRun resolves.
const minPrefix = 4

// resolvePrefix finds the one run whose id starts with prefix.
func resolvePrefix(ctx context.Context, db *models.DB, prefix, what string) (uuid.UUID, error) {
	const show = 5
	if len(prefix) < minPrefix || strings.Trim(strings.ToLower(prefix), "0123456789abcdef-") != "" {
		return uuid.Nil, &Error{Code: ExitInvalid, Err: fmt.Errorf("%s %q: not a run id (want a UUID from evalrun history, or at least %d of its last or first characters)", what, prefix, minPrefix)}
	}
	ids, err := db.RunIDsByPrefix(ctx, prefix, show+1)
	if err != nil {
		return uuid.Nil, &Error{Code: ExitInvalid, Err: err}
	}
	tail, err := db.RunIDsBySuffix(ctx, prefix, show+1)
	if err != nil {
		return uuid.Nil, &Error{Code: ExitInvalid, Err: err}
	}
	for _, id := range tail {
		if !slices.Contains(ids, id) {
			ids = append(ids, id)
		}
	}
	switch len(ids) {
	case 0:
		return uuid.Nil, &Error{Code: ExitInvalid, Err: fmt.Errorf("%s %s: no run id starts or ends with it in %s", what, prefix, db.URL)}
	case 1:
		return ids[0], nil
	}
	count := fmt.Sprintf("%d runs' ids", len(ids))
	if len(ids) > show {
		ids, count = ids[:show], fmt.Sprintf("more than %d runs' ids, among them", show)
	}
	names := make([]string, len(ids))
	for i, id := range ids {
		names[i] = id.String()
	}
	return uuid.Nil, &Error{Code: ExitInvalid, Err: fmt.Errorf("%s %s: ambiguous, it starts or ends %s %s; give more of the id (its last 8 characters are random)", what, prefix, count, strings.Join(names, ", "))}
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
