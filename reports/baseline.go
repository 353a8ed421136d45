package reports

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"time"

	"agentevals/models"
)

// ErrIncompatible is returned when a run cannot be compared with another:
// a different suite, agent or definition, or a run from the future.
var ErrIncompatible = errors.New("incompatible baseline")

// maxCandidatePages bounds how many pages of earlier runs FindBaseline reads
// while looking for an equivalent run written by another implementation.
const maxCandidatePages = 25

// CalculatedMetrics returns the sorted set of metric names that the run
// calculated (a row with a score or error details) in at least one case.
func CalculatedMetrics(run *models.Run) []string {
	seen := map[string]bool{}
	for _, c := range run.Cases {
		for _, m := range c.Metrics {
			if m.Calculated() {
				seen[m.Name] = true
			}
		}
	}
	names := make([]string, 0, len(seen))
	for n := range seen {
		names = append(names, n)
	}
	slices.Sort(names)
	return names
}

// SameDefinition reports whether a and b evaluate the same definition: equal
// suite_digest, or (when at least one run was written by another
// implementation, whose digest is computed differently) the same suite and
// version, the same case ids in the same order with equal question,
// expected_answer, expected_actions, minimum_scores and metadata compared as
// JSON values, and the same set of calculated metric names. Two runs whose
// summaries name the same writer (see Writer) have comparable digests, so
// for them only equal digests count: their digests also cover what the rows
// do not keep, such as replay fixture bytes and retrieval context.
// aCalculated and bCalculated may be nil to derive the sets from the rows.
// A nil error means the same definition; otherwise the error says what
// differs and wraps ErrIncompatible.
func SameDefinition(a, b *models.Run, aCalculated, bCalculated []string) error {
	if a.Suite != b.Suite {
		return fmt.Errorf("%w: suite %q is not %q", ErrIncompatible, b.Suite, a.Suite)
	}
	if a.SuiteDigest == b.SuiteDigest {
		return nil
	}
	if w := Writer(a); w != "" && w == Writer(b) {
		return fmt.Errorf("%w: suite_digest %s is not %s (both runs were written by %s, so the definitions differ)",
			ErrIncompatible, b.SuiteDigest, a.SuiteDigest, w)
	}
	if a.Version != b.Version {
		return fmt.Errorf("%w: version %q is not %q", ErrIncompatible, b.Version, a.Version)
	}
	if len(a.Cases) != len(b.Cases) {
		return fmt.Errorf("%w: %d questions, not %d", ErrIncompatible, len(b.Cases), len(a.Cases))
	}
	for i, ca := range a.Cases {
		cb := b.Cases[i]
		if ca.CaseID != cb.CaseID {
			return fmt.Errorf("%w: question %d is %q, not %q", ErrIncompatible, i+1, cb.CaseID, ca.CaseID)
		}
		cols := []struct {
			name   string
			av, bv models.JSON
			object bool
		}{
			{"question", ca.Question, cb.Question, false},
			{"expected_answer", ca.ExpectedAnswer, cb.ExpectedAnswer, false},
			{"expected_actions", ca.ExpectedActions, cb.ExpectedActions, false},
			{"minimum_scores", ca.MinimumScores, cb.MinimumScores, false},
			{"metadata", ca.Metadata, cb.Metadata, true},
		}
		for _, col := range cols {
			eq, err := jsonEqual(col.av, col.bv, col.object)
			if err != nil {
				return fmt.Errorf("%w: question %q: %s: %w", ErrIncompatible, ca.CaseID, col.name, err)
			}
			if !eq {
				return fmt.Errorf("%w: question %q: %s differs", ErrIncompatible, ca.CaseID, col.name)
			}
		}
	}
	if aCalculated == nil {
		aCalculated = CalculatedMetrics(a)
	}
	if bCalculated == nil {
		bCalculated = CalculatedMetrics(b)
	}
	if !slices.Equal(aCalculated, bCalculated) {
		return fmt.Errorf("%w: calculated metrics %v, not %v", ErrIncompatible, bCalculated, aCalculated)
	}
	return nil
}

// Writer returns the implementation that wrote the run, from its summary's
// "writer" key (the Go runner writes runner.Writer), or "" when the summary
// names none, as in runs written by the Ruby gem.
func Writer(run *models.Run) string {
	var sum struct {
		Writer string `json:"writer"`
	}
	if run.Summary.IsNull() || json.Unmarshal(run.Summary, &sum) != nil {
		return ""
	}
	return sum.Writer
}

// jsonEqual compares two JSON column values as JSON values (key order and
// number spelling do not matter). SQL NULL and JSON null are alike; for
// object columns (metadata) they also equal {}.
func jsonEqual(a, b models.JSON, object bool) (bool, error) {
	var av, bv any
	if err := a.Decode(&av); err != nil {
		return false, err
	}
	if err := b.Decode(&bv); err != nil {
		return false, err
	}
	if object {
		if av == nil {
			av = map[string]any{}
		}
		if bv == nil {
			bv = map[string]any{}
		}
	}
	return reflect.DeepEqual(av, bv), nil
}

// CheckBaseline reports whether candidate may be the baseline of run: same
// suite and agent, the same definition (see SameDefinition) and strictly
// earlier in (started_at, sequence) order. calculated is the run's set of
// calculated metric names (nil: derive it from the run's rows).
func CheckBaseline(run, candidate *models.Run, calculated []string) error {
	if candidate.ID == run.ID {
		return fmt.Errorf("%w: run %s cannot be its own baseline", ErrIncompatible, run.ID)
	}
	if candidate.Agent != run.Agent {
		return fmt.Errorf("%w: agent %q is not %q", ErrIncompatible, candidate.Agent, run.Agent)
	}
	if !earlier(candidate, run) {
		return fmt.Errorf("%w: run %s started at %s, not before %s", ErrIncompatible,
			candidate.ID, candidate.StartedAt.Format(time.RFC3339Nano), startOf(run).Format(time.RFC3339Nano))
	}
	return SameDefinition(run, candidate, calculated, nil)
}

// startOf is the run's start, or now for a planned run that has none yet.
func startOf(run *models.Run) time.Time {
	if run.StartedAt.IsZero() {
		return models.UTC(time.Now())
	}
	return run.StartedAt
}

// earlier reports whether a comes strictly before b in (started_at,
// sequence) order; a planned b (no sequence yet) follows every run that
// started at or before its start.
func earlier(a, b *models.Run) bool {
	bs := startOf(b)
	if a.StartedAt.Equal(bs) {
		return b.Sequence == 0 || a.Sequence < b.Sequence
	}
	return a.StartedAt.Before(bs)
}

// FindBaseline returns the automatic baseline of run: the newest earlier run
// of the same suite and agent with the same definition, ties broken by
// sequence, never a run from the future. A planned run (zero Sequence) is
// placed at its StartedAt, or now when that is zero. calculated is the run's
// set of calculated metric names (nil: derive it from its rows). It returns
// nil and no error when there is no baseline.
func FindBaseline(ctx context.Context, db *models.DB, run *models.Run, calculated []string) (*models.Run, error) {
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
	for page := 0; page < maxCandidatePages; page++ {
		cands, err := db.BaselineCandidates(ctx, models.BaselineQuery{
			Suite: run.Suite, Agent: run.Agent, Before: before, Limit: 20,
		})
		if err != nil {
			return nil, fmt.Errorf("find baseline: %w", err)
		}
		for _, c := range cands {
			if best != nil && !earlier(best, c) {
				return best, nil
			}
			if c.ID != run.ID && CheckBaseline(run, c, calculated) == nil {
				return c, nil
			}
		}
		if len(cands) < 20 {
			break
		}
		last := cands[len(cands)-1]
		before = models.Cursor{StartedAt: last.StartedAt, Sequence: last.Sequence}
	}
	return best, nil
}

// marshalJSON is json.Marshal for values that always encode.
func marshalJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}
