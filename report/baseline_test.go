package report

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/google/uuid"

	"agentevals/compare"
	"agentevals/internal/testdb"
	"agentevals/models"
)

// backends runs a test against a real PostgreSQL schema and a SQLite file.
func backends(t *testing.T, fn func(t *testing.T, db *models.DB)) {
	t.Run("postgres", func(t *testing.T) { fn(t, testdb.Postgres(t)) })
	t.Run("sqlite", func(t *testing.T) { fn(t, testdb.SQLite(t)) })
}

func saveRun(t *testing.T, db *models.DB, run *models.Run) *models.Run {
	t.Helper()
	run.Sequence = 0
	for _, c := range run.Cases {
		c.ID = 0
		for _, m := range c.Metrics {
			m.ID, m.CaseResultID = 0, 0
		}
	}
	if err := db.InsertRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	got, err := db.GetRun(context.Background(), run.ID)
	if err != nil {
		t.Fatal(err)
	}
	return got
}

func idOf(r *models.Run) string {
	if r == nil {
		return "none"
	}
	return r.ID.String()
}

func TestFindBaseline_NeverFromTheFuture(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		_, base := workedExample()
		at := func(id string, started time.Time) *models.Run {
			r := buildRun(id, 0, started, cdef{id: "returns", question: "How long do I have to return an item?",
				expected: "You can return it within 30 days.", output: "30 days",
				metrics: []mdef{metric("semantic_accuracy", 0.9, sc(0.95))}})
			r.SuiteDigest = base.SuiteDigest
			return r
		}
		a := saveRun(t, db, at("01900000-0000-7000-8000-000000000101", t0))
		b := saveRun(t, db, at("01900000-0000-7000-8000-000000000102", t0.Add(time.Hour)))
		c := saveRun(t, db, at("01900000-0000-7000-8000-000000000103", t0.Add(2*time.Hour)))
		// d starts in the same microsecond as b but was saved later.
		d := saveRun(t, db, at("01900000-0000-7000-8000-000000000104", t0.Add(time.Hour)))
		other := at("01900000-0000-7000-8000-000000000105", t0.Add(30*time.Minute))
		other.Agent = "OtherAgent"
		saveRun(t, db, other)
		changed := at("01900000-0000-7000-8000-000000000106", t0.Add(90*time.Minute))
		changed.SuiteDigest = "digest-2"
		changed.Cases[0].MinimumScores = models.JSON(`{"semantic_accuracy":0.8}`)
		saveRun(t, db, changed)

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
			got, err := compare.FindBaseline(ctx, db, tt.run, nil)
			if err != nil {
				t.Fatal(err)
			}
			if idOf(got) != idOf(tt.want) {
				t.Errorf("%s: baseline = %s, want %s", tt.name, idOf(got), idOf(tt.want))
			}
		}
		planned := at("01900000-0000-7000-8000-000000000107", time.Time{})
		planned.Cases[0].Metrics = nil // a planned run has no results yet
		got, err := compare.FindBaseline(ctx, db, planned, []string{"semantic_accuracy"})
		if err != nil || idOf(got) != idOf(c) {
			t.Errorf("planned run: baseline = %s, %v; want the newest run %s", idOf(got), err, idOf(c))
		}
		// An explicit baseline from the future, of another agent or of
		// another definition is rejected.
		for _, cand := range []*models.Run{c, other, changed, b} {
			if err := compare.CheckBaseline(b, cand, nil); !errors.Is(err, compare.ErrIncompatible) {
				t.Errorf("CheckBaseline(b, %s) = %v, want ErrIncompatible", cand.ID, err)
			}
		}
		if err := compare.CheckBaseline(c, a, nil); err != nil {
			t.Errorf("CheckBaseline(c, a) = %v", err)
		}
	})
}

// insertRubyRun writes a run the way ActiveRecord does: its own digest,
// Ruby nil as SQL NULL, jsonb keys reordered, integral floats as integers,
// a summary with keys of its own.
func insertRubyRun(t *testing.T, db *models.DB, id uuid.UUID, started time.Time, threshold string, score float64) {
	t.Helper()
	ctx := context.Background()
	now := started.Add(2 * time.Second)
	_, err := db.ExecContext(ctx, `INSERT INTO ruby_llm_evaluations_runs
		(id, suite, agent, version, suite_digest, status, started_at, finished_at, metadata, summary, created_at, updated_at)
		VALUES (?, 'Customer support', 'SupportAgent', '1', 'ruby-sha256-5f1c', 'completed', ?, ?, ?, ?, ?, ?)`,
		id.String(), started, now, `{"revision":"ruby"}`, `{"score":0.97,"ruby_only":{"x":1}}`, now, now)
	if err != nil {
		t.Fatal(err)
	}
	var caseID int64
	err = db.QueryRowContext(ctx, `INSERT INTO ruby_llm_evaluations_case_results
		(run_id, position, case_id, name, status, duration_ms, question, expected_answer, expected_actions,
		 minimum_scores, metadata, output, actions, response_metadata, error_details, input_tokens, output_tokens, cost,
		 created_at, updated_at)
		VALUES (?, 0, 'returns', 'returns', 'passed', 12, ?, ?, NULL, ?, ?, ?, NULL, NULL, NULL, NULL, NULL, NULL, ?, ?)
		RETURNING id`,
		id.String(), `"How long do I have to return an item?"`, `"You can return it within 30 days."`,
		`{"semantic_accuracy": `+threshold+`}`, `{"tags": ["returns"], "failure_mode": "policy"}`, `"Within 30 days."`,
		now, now).Scan(&caseID)
	if err != nil {
		t.Fatal(err)
	}
	_, err = db.ExecContext(ctx, `INSERT INTO ruby_llm_evaluations_metric_results
		(case_result_id, position, name, threshold, score, passed, reason, error_details, created_at, updated_at)
		VALUES (?, 0, 'semantic_accuracy', ?, ?, true, NULL, NULL, ?, ?)`, caseID, 0.9, score, now, now)
	if err != nil {
		t.Fatal(err)
	}
}

func TestFindBaseline_RubyWrittenRun(t *testing.T) {
	backends(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		rubyID := uuid.MustParse("5b3c2a10-0000-4000-8000-000000000001")
		insertRubyRun(t, db, rubyID, t0, "0.9", 0.98)
		// An older Go run with the Go digest: the newer Ruby run wins.
		goOld := buildRun("01900000-0000-7000-8000-000000000201", 0, t0.Add(-time.Hour), cdef{id: "returns",
			question: "How long do I have to return an item?", expected: "You can return it within 30 days.",
			meta: `{"failure_mode":"policy","tags":["returns"]}`, metrics: []mdef{metric("semantic_accuracy", 0.9, sc(0.9))}})
		saveRun(t, db, goOld)
		// A Ruby run of another definition (threshold 0.8) is never chosen.
		insertRubyRun(t, db, uuid.MustParse("5b3c2a10-0000-4000-8000-000000000002"), t0.Add(time.Minute), "0.8", 0.5)

		later := buildRun("01900000-0000-7000-8000-000000000202", 0, t0.Add(time.Hour), cdef{id: "returns",
			question: "How long do I have to return an item?", expected: "You can return it within 30 days.",
			meta: `{"failure_mode":"policy","tags":["returns"]}`, metrics: []mdef{metric("semantic_accuracy", 0.9, sc(0.92))}})
		later.Cases[0].ExpectedActions = models.JSON("null") // JSON null where Ruby wrote SQL NULL
		later = saveRun(t, db, later)

		base, err := compare.FindBaseline(ctx, db, later, nil)
		if err != nil {
			t.Fatal(err)
		}
		if idOf(base) != rubyID.String() {
			t.Fatalf("baseline = %s, want the Ruby run %s", idOf(base), rubyID)
		}
		cmp := compare.Compare(later, base, compare.Options{Tolerance: 0.02})
		if !cmp.Regressed() || cmp.Regressions()[0].Kind != compare.ScoreDrop {
			t.Fatalf("0.98 (Ruby) -> 0.92 (Go): findings %+v, want a score drop", cmp.Findings)
		}
		if cmp.BaselineTotals == nil || cmp.BaselineTotals.Passed != 1 || *cmp.BaselineTotals.Quality.Mean != 0.98 {
			t.Fatalf("baseline totals from Ruby rows = %+v", cmp.BaselineTotals)
		}
		r := mustRenderer(t)
		for _, f := range Formats() {
			if _, err := r.Bytes(f, compare.Compare(base, nil, compare.Options{})); err != nil {
				t.Errorf("render the Ruby run as %s: %v", f, err)
			}
		}
	})
}

func TestDescribeDifference(t *testing.T) {
	base := func() *models.Run {
		return buildRun("01900000-0000-7000-8000-000000000501", 1, t0,
			cdef{id: "returns", question: "How long?", metrics: []mdef{metric("exact", 1, sc(1))}},
			cdef{id: "greeting", question: "Hi", metrics: []mdef{metric("exact", 1, sc(1))}})
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
		if got := compare.DescribeDifference(a, b); got != tt.want {
			t.Errorf("%s: %q, want %q", tt.name, got, tt.want)
		}
		if err := compare.SameDefinition(a, b, nil, nil); (err == nil) != (tt.want == "") {
			t.Errorf("%s: SameDefinition %v disagrees", tt.name, err)
		}
	}
}
