package compare

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// backends runs a test against a real PostgreSQL schema and a SQLite file.
// report's tests have the same helper: it needs internal/testkit/testdb, which
// internal/testkit/runfixture does not import.
func backends(t *testing.T, fn func(t *testing.T, db *models.DB)) {
	t.Run("postgres", func(t *testing.T) { fn(t, testdb.Postgres(t)) })
	t.Run("sqlite", func(t *testing.T) { fn(t, testdb.SQLite(t)) })
}

func TestFindBaseline_NeverFromTheFuture(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		_, base := runfixture.WorkedExample()
		at := func(id string, started time.Time) *models.Run {
			r := runfixture.Build(id, 0, started, runfixture.Case{ID: "returns", Question: "How long do I have to return an item?",
				Expected: "You can return it within 30 days.", Output: "30 days",
				Metrics: []runfixture.Metric{runfixture.NewMetric("semantic_accuracy", 0.9, runfixture.Score(0.95))}})
			r.SuiteDigest = base.SuiteDigest
			return r
		}
		a := runfixture.SaveRun(t, db, at("01900000-0000-7000-8000-000000000101", runfixture.T0))
		b := runfixture.SaveRun(t, db, at("01900000-0000-7000-8000-000000000102", runfixture.T0.Add(time.Hour)))
		c := runfixture.SaveRun(t, db, at("01900000-0000-7000-8000-000000000103", runfixture.T0.Add(2*time.Hour)))
		// d starts in the same microsecond as b but was saved later.
		d := runfixture.SaveRun(t, db, at("01900000-0000-7000-8000-000000000104", runfixture.T0.Add(time.Hour)))
		other := at("01900000-0000-7000-8000-000000000105", runfixture.T0.Add(30*time.Minute))
		other.Agent = "OtherAgent"
		runfixture.SaveRun(t, db, other)
		changed := at("01900000-0000-7000-8000-000000000106", runfixture.T0.Add(90*time.Minute))
		changed.SuiteDigest = "digest-2"
		changed.Cases[0].MinimumScores = models.JSON(`{"semantic_accuracy":0.8}`)
		runfixture.SaveRun(t, db, changed)

		tests := []struct {
			name string
			run  *models.Run
			want *models.Run
		}{
			{"first run", a, nil},
			{"b follows a", b, a},
			{"same start, later sequence", d, b},
			{"c follows d", c, d},
		}
		for _, tt := range tests {
			got, err := FindBaseline(ctx, db, tt.run, nil)
			if err != nil {
				t.Fatal(err)
			}
			if runfixture.IDOf(got) != runfixture.IDOf(tt.want) {
				t.Errorf("%s: baseline = %s, want %s", tt.name, runfixture.IDOf(got), runfixture.IDOf(tt.want))
			}
		}
		planned := at("01900000-0000-7000-8000-000000000107", time.Time{})
		planned.Cases[0].Metrics = nil // a planned run has no results yet
		got, err := FindBaseline(ctx, db, planned, []string{"semantic_accuracy"})
		if err != nil || runfixture.IDOf(got) != runfixture.IDOf(c) {
			t.Errorf("planned run: baseline = %s, %v; want the newest run %s", runfixture.IDOf(got), err, runfixture.IDOf(c))
		}
		// An explicit baseline from the future, of another agent or of
		// another definition is rejected.
		for _, cand := range []*models.Run{c, other, changed, b} {
			if err := CheckBaseline(b, cand, nil); !errors.Is(err, ErrIncompatible) {
				t.Errorf("CheckBaseline(b, %s) = %v, want ErrIncompatible", cand.ID, err)
			}
		}
		if err := CheckBaseline(c, a, nil); err != nil {
			t.Errorf("CheckBaseline(c, a) = %v", err)
		}
	})
}

func TestDescribeDifference(t *testing.T) {
	base := func() *models.Run {
		return runfixture.Build("01900000-0000-7000-8000-000000000501", 1, runfixture.T0,
			runfixture.Case{ID: "returns", Question: "How long?", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(1))}},
			runfixture.Case{ID: "greeting", Question: "Hi", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(1))}})
	}
	tests := []struct {
		name   string
		change func(b *models.Run)
		want   string
	}{
		{"same", func(*models.Run) {}, ""},
		{"suite", func(b *models.Run) { b.Suite = "Billing" },
			`Run A evaluates the suite "Customer support" and run B the suite "Billing".`},
		{"version", func(b *models.Run) { b.SuiteDigest, b.Version = "other", "2" },
			`Run A evaluates version "1" of the suite and run B version "2".`},
		{"count", func(b *models.Run) { b.SuiteDigest, b.Cases = "other", b.Cases[:1] }, "Run A has 2 questions and run B has 1 question."},
		{"case id", func(b *models.Run) { b.SuiteDigest, b.Cases[1].CaseID = "other", "hello" },
			`Question 2 is "greeting" in run A and "hello" in run B.`},
		{"column", func(b *models.Run) { b.SuiteDigest, b.Cases[0].MinimumScores = "other", models.JSON(`{"exact":0.5}`) },
			`The question "returns" differs in its minimum scores between the two runs.`},
	}
	for _, tt := range tests {
		a, b := base(), base()
		tt.change(b)
		if got := DescribeDifference(a, b); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
		if err := SameDefinition(a, b, nil, nil); (err == nil) != (tt.want == "") {
			t.Errorf("%s: SameDefinition %v disagrees", tt.name, err)
		}
	}
}
