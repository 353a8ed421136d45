package compare

import (
	"context"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
)

// candidatePage is how many candidate runs (with their rows) FindBaseline
// loads at a time; it goes on until the candidates are exhausted.
const candidatePage = 50

// FindBaseline returns the automatic baseline of run: the newest earlier run
// of the same suite and agent with the same definition, ties broken by
// sequence, never a run from the future, never a run whose summary records
// an infrastructure failure. A planned run (zero Sequence) is placed at its
// StartedAt, or now when that is zero. calculated is the run's set of
// calculated metric names (nil: derive it from its rows). It returns nil
// and no error when there is no baseline.
//
// The search has no limit: the newest run with an equal digest comes from
// one indexed query; runs written by another implementation are pre-filtered
// in SQL (same version, the same case ids in the same order, not written by
// the run's own writer, newer than that exact match) in one query that
// returns their ids, and only those runs are loaded, a page at a time, and
// compared exactly until one is equivalent or none is left.
func FindBaseline(ctx context.Context, db *models.DB, run *models.Run, calculated []string) (*models.Run, error) {
	return FindBaselineOnBranch(ctx, db, run, calculated, "")
}

// FindBaselineOnBranch is FindBaseline restricted to the runs whose
// provenance names the git branch (every run when branch is ""): in CI, the
// newest compatible run of the pull request's target branch, so that one
// pull request is never compared with another's run. The branch is a
// filter of the same queries, so the search reads no more than
// FindBaseline's.
func FindBaselineOnBranch(ctx context.Context, db *models.DB, run *models.Run, calculated []string, branch string) (*models.Run, error) {
	if calculated == nil {
		calculated = CalculatedMetrics(run)
	}
	before := models.Cursor{StartedAt: startOf(run), Sequence: run.Sequence}
	if run.Sequence == 0 {
		// "Strictly before StartedAt" would miss runs saved in the same
		// microsecond as a planned run's start; a planned run follows them.
		before.StartedAt = before.StartedAt.Add(time.Microsecond)
	}
	exact, err := db.BaselineCandidates(ctx, models.BaselineQuery{
		Suite: run.Suite, Agent: run.Agent, Digest: run.SuiteDigest, Before: before, Limit: 1,
		SkipInfrastructureFailures: true, Branch: branch, Kind: models.KindOf(run),
	})
	if err != nil {
		return nil, fmt.Errorf("find baseline: %w", err)
	}
	var best *models.Run
	for _, c := range exact {
		if c.ID != run.ID && CheckBaseline(run, c, calculated) == nil {
			best = c
		}
	}
	// A newer run written by another implementation (different digest)
	// with an equivalent definition wins over an older exact match.
	ids := make([]string, len(run.Cases))
	for i, c := range run.Cases {
		ids[i] = c.CaseID
	}
	q := models.BaselineQuery{
		Suite: run.Suite, Agent: run.Agent, Version: run.Version, CaseIDs: ids, NotWriter: WriterOf(run),
		SkipInfrastructureFailures: true, Before: before, Branch: branch, Kind: models.KindOf(run),
	}
	if best != nil {
		q.After = &models.Cursor{StartedAt: best.StartedAt, Sequence: best.Sequence}
	}
	candidates, err := db.BaselineCandidateIDs(ctx, q)
	if err != nil {
		return nil, fmt.Errorf("find baseline: %w", err)
	}
	for start := 0; start < len(candidates); start += candidatePage {
		page, err := db.GetRuns(ctx, candidates[start:min(start+candidatePage, len(candidates))])
		if err != nil {
			return nil, fmt.Errorf("find baseline: %w", err)
		}
		for _, c := range page {
			if c.ID != run.ID && CheckBaseline(run, c, calculated) == nil {
				return c, nil
			}
		}
	}
	return best, nil
}

// GemPrevious returns the baseline the Ruby gem itself gives run
// (Run#previous): the newest earlier run of the same suite and agent with
// the same suite_digest, ties broken by sequence, nil when there is none.
// For a run written by the gem this can differ from FindBaseline, which
// also accepts equivalent runs written by other implementations (and skips
// infrastructure failures): the gem's CI gated on this one.
func GemPrevious(ctx context.Context, db *models.DB, run *models.Run) (*models.Run, error) {
	runs, err := db.BaselineCandidates(ctx, models.BaselineQuery{Suite: run.Suite, Agent: run.Agent,
		Digest: run.SuiteDigest, Before: models.Cursor{StartedAt: run.StartedAt, Sequence: run.Sequence}, Limit: 1})
	if err != nil {
		return nil, fmt.Errorf("find the gem's previous run: %w", err)
	}
	if len(runs) == 0 {
		return nil, nil
	}
	return runs[0], nil
}

// maxAncestorCandidates bounds how many of a branch's newest compatible
// runs FindAncestorBaseline reads (their run rows only).
const maxAncestorCandidates = 20

// FindAncestorBaseline is the newest of the newest maxAncestorCandidates
// runs of branch with run's digest whose recorded commit isAncestor
// accepts (at or before the merge base of a pull request), checked as
// FindBaseline checks candidates; nil when none is.
func FindAncestorBaseline(ctx context.Context, db *models.DB, run *models.Run, calculated []string, branch string, isAncestor func(commit string) bool) (*models.Run, error) {
	before := models.Cursor{StartedAt: startOf(run), Sequence: run.Sequence}
	if run.Sequence == 0 {
		before.StartedAt = before.StartedAt.Add(time.Microsecond)
	}
	heads, err := db.BaselineCandidateHeaders(ctx, models.BaselineQuery{Suite: run.Suite, Agent: run.Agent, Digest: run.SuiteDigest,
		Before: before, Limit: maxAncestorCandidates, SkipInfrastructureFailures: true, Branch: branch})
	if err != nil {
		return nil, fmt.Errorf("find baseline: %w", err)
	}
	for _, h := range heads {
		s, err := models.DecodeRunSummary(h.Summary)
		if err != nil || s.Provenance == nil || !isAncestor(s.Provenance.Commit) {
			continue
		}
		runs, err := db.GetRuns(ctx, []uuid.UUID{h.ID})
		if err != nil {
			return nil, fmt.Errorf("find baseline: %w", err)
		}
		if len(runs) == 1 && runs[0].ID != run.ID && CheckBaseline(run, runs[0], calculated) == nil {
			return runs[0], nil
		}
	}
	return nil, nil
}
