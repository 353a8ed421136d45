package compare

import (
	"encoding/json"
	"errors"
	"fmt"
	"maps"
	"slices"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// ErrIncompatible is returned when a run cannot be compared with another:
// a different suite, agent or definition, or a run from the future.
var ErrIncompatible = errors.New("incompatible baseline")

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
	return slices.Sorted(maps.Keys(seen))
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
	if d := definitionDiff(a, b, aCalculated, bCalculated); d != nil {
		return d.err()
	}
	return nil
}

// DescribeDifference explains to a person why runs a and b cannot be
// compared question by question ("" when they share a definition), naming
// them run A and run B.
func DescribeDifference(a, b *models.Run) string {
	if d := definitionDiff(a, b, nil, nil); d != nil {
		return d.describe()
	}
	return ""
}

// difference is the first thing that differs between the definitions of
// run a and run b: what (a column or property), and both sides.
type difference struct {
	what    string // suite, digest, version, count, case_id, column, metrics
	caseID  string // column: the question; case_id: its 1-based position
	index   int
	column  string
	av, bv  string
	writer  string
	jsonErr error
}

func definitionDiff(a, b *models.Run, aCalculated, bCalculated []string) *difference {
	if a.Suite != b.Suite {
		return &difference{what: "suite", av: a.Suite, bv: b.Suite}
	}
	if a.SuiteDigest == b.SuiteDigest {
		return nil
	}
	if w := WriterOf(a); w != "" && w == WriterOf(b) {
		return &difference{what: "digest", av: a.SuiteDigest, bv: b.SuiteDigest, writer: w}
	}
	if a.Version != b.Version {
		return &difference{what: "version", av: a.Version, bv: b.Version}
	}
	if len(a.Cases) != len(b.Cases) {
		return &difference{what: "count", av: fmt.Sprint(len(a.Cases)), bv: fmt.Sprint(len(b.Cases))}
	}
	for i, ca := range a.Cases {
		cb := b.Cases[i]
		if ca.CaseID != cb.CaseID {
			return &difference{what: "case_id", index: i + 1, av: ca.CaseID, bv: cb.CaseID}
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
			eq, err := JSONEqual(col.av, col.bv, col.object)
			if err != nil || !eq {
				return &difference{what: "column", caseID: ca.CaseID, column: col.name, jsonErr: err}
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
		return &difference{what: "metrics", av: fmt.Sprint(aCalculated), bv: fmt.Sprint(bCalculated)}
	}
	return nil
}

// err is the difference as an error wrapping ErrIncompatible (b measured
// against a, as a baseline check reads it).
func (d *difference) err() error {
	switch d.what {
	case "suite":
		return fmt.Errorf("%w: suite %q is not %q", ErrIncompatible, d.bv, d.av)
	case "digest":
		return fmt.Errorf("%w: suite_digest %s is not %s (both runs were written by %s, so the definitions differ)",
			ErrIncompatible, d.bv, d.av, d.writer)
	case "version":
		return fmt.Errorf("%w: version %q is not %q", ErrIncompatible, d.bv, d.av)
	case "count":
		return fmt.Errorf("%w: %s questions, not %s", ErrIncompatible, d.bv, d.av)
	case "case_id":
		return fmt.Errorf("%w: question %d is %q, not %q", ErrIncompatible, d.index, d.bv, d.av)
	case "column":
		if d.jsonErr != nil {
			return fmt.Errorf("%w: question %q: %s: %w", ErrIncompatible, d.caseID, d.column, d.jsonErr)
		}
		return fmt.Errorf("%w: question %q: %s differs", ErrIncompatible, d.caseID, d.column)
	}
	return fmt.Errorf("%w: calculated metrics %s, not %s", ErrIncompatible, d.bv, d.av)
}

// questions writes a count of questions given as text.
func questions(n string) string {
	if n == "1" {
		return "1 question"
	}
	return n + " questions"
}

// columnWords names the definition columns for people.
var columnWords = map[string]string{
	"question": "question text", "expected_answer": "expected answer", "expected_actions": "expected actions",
	"minimum_scores": "minimum scores", "metadata": "metadata",
}

func (d *difference) describe() string {
	switch d.what {
	case "suite":
		return fmt.Sprintf("Run A evaluates the suite %q and run B the suite %q.", d.av, d.bv)
	case "digest":
		return "The suite definition changed between the runs (its questions, expected answers, minimum scores, " +
			"replay fixtures or calculated metrics differ)."
	case "version":
		return fmt.Sprintf("Run A evaluates version %q of the suite and run B version %q.", d.av, d.bv)
	case "count":
		return fmt.Sprintf("Run A has %s and run B has %s.", questions(d.av), questions(d.bv))
	case "case_id":
		return fmt.Sprintf("Question %d is %q in run A and %q in run B.", d.index, d.av, d.bv)
	case "column":
		return fmt.Sprintf("The question %q differs in its %s between the two runs.", d.caseID, columnWords[d.column])
	}
	return fmt.Sprintf("Run A calculated the metrics %s and run B %s (for example, one run had no LLM judge).", d.av, d.bv)
}

// WriterOf returns the implementation that wrote the run, from its summary's
// writer (the Go runner writes models.GoWriter), or "" when the summary
// names none, as in runs written by the Ruby gem.
func WriterOf(run *models.Run) string {
	s, err := models.DecodeRunSummary(run.Summary)
	if err != nil {
		return ""
	}
	return s.Writer
}

// CheckBaseline reports whether candidate may be the baseline of run: same
// suite and agent, the same definition (see SameDefinition) and strictly
// earlier in (started_at, sequence) order. calculated is the run's set of
// calculated metric names (nil: derive it from the run's rows).
func CheckBaseline(run, candidate *models.Run, calculated []string) error {
	if candidate.ID == run.ID {
		return fmt.Errorf("%w: run %s cannot be its own baseline", ErrIncompatible, run.ID)
	}
	if models.IsProduction(run) != models.IsProduction(candidate) {
		return fmt.Errorf("%w: %s", ErrIncompatible, productionMismatch(run, candidate))
	}
	if candidate.Agent != run.Agent {
		return fmt.Errorf("%w: agent %q is not %q", ErrIncompatible, candidate.Agent, run.Agent)
	}
	if !Earlier(candidate, run) {
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

// Earlier reports whether a comes strictly before b in (started_at,
// sequence) order; a planned b (no sequence yet) follows every run that
// started at or before its start.
func Earlier(a, b *models.Run) bool {
	bs := startOf(b)
	if a.StartedAt.Equal(bs) {
		return b.Sequence == 0 || a.Sequence < b.Sequence
	}
	return a.StartedAt.Before(bs)
}

// MarshalJSON is json.Marshal for values that always encode.
func MarshalJSON(v any) []byte {
	b, err := json.Marshal(v)
	if err != nil {
		return []byte("null")
	}
	return b
}
