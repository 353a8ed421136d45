package compare

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// benchHistory is the size of the seeded history of BenchmarkFindBaseline.
const benchHistory = 100_000

// seedHistory writes benchHistory-1 runs of the same suite and agent, all
// newer than the one equivalent Ruby-shaped run, none equivalent: 97 in 100
// are Go runs of other digests (left out in SQL by the writer filter), and
// one in 100 each has another version, another case id (both left out in
// SQL) or another threshold (read and compared exactly in Go).
func seedHistory(b *testing.B, db *models.DB) {
	b.Helper()
	ctx := context.Background()
	stmts := []string{`INSERT INTO ruby_llm_evaluations_runs
		(id, suite, agent, version, suite_digest, status, started_at, finished_at, metadata, summary, created_at, updated_at)
		SELECT gen_random_uuid(), 'Customer support', 'SupportAgent', CASE WHEN g % 100 = 1 THEN '2' ELSE '1' END,
		       'bench-' || g, 'completed', ?::timestamp + g * interval '1 second', ?::timestamp + g * interval '1 second',
		       '{}', CASE WHEN g % 100 IN (1, 2, 3) THEN '{"score": 0.97}' ELSE '{"writer": "agentevals-go"}' END::jsonb,
		       now(), now()
		FROM generate_series(1, ?) AS g`,
		`INSERT INTO ruby_llm_evaluations_case_results
		(run_id, position, case_id, name, status, duration_ms, question, expected_answer, minimum_scores, metadata,
		 output, actions, created_at, updated_at)
		SELECT r.id, 0, CASE WHEN substr(r.suite_digest, 7)::int % 100 = 2 THEN 'returns-policy' ELSE 'returns' END,
		       'returns', 'passed', 12, '"How long do I have to return an item?"', '"You can return it within 30 days."',
		       CASE WHEN substr(r.suite_digest, 7)::int % 100 = 3 THEN '{"semantic_accuracy": 0.8}'
		            ELSE '{"semantic_accuracy": 0.9}' END::jsonb,
		       '{"failure_mode": "policy", "tags": ["returns"]}', '"Within 30 days."', '[]', now(), now()
		FROM ruby_llm_evaluations_runs r WHERE r.suite_digest LIKE 'bench-%'`,
		`INSERT INTO ruby_llm_evaluations_metric_results
		(case_result_id, position, name, threshold, score, passed, reason, created_at, updated_at)
		SELECT c.id, 0, 'semantic_accuracy', 0.9, 0.95, true, 'checked', now(), now()
		FROM ruby_llm_evaluations_case_results c JOIN ruby_llm_evaluations_runs r ON r.id = c.run_id
		WHERE r.suite_digest LIKE 'bench-%'`,
		`ANALYZE`,
	}
	args := [][]any{{runfixture.T0, runfixture.T0.Add(time.Second), benchHistory - 1}, nil, nil, nil}
	for i, s := range stmts {
		if _, err := db.ExecContext(ctx, s, args[i]...); err != nil {
			b.Fatalf("seed history: %v", err)
		}
	}
}

// BenchmarkFindBaseline times the baseline lookup of a new Go run over a
// history of 100,000 runs on PostgreSQL whose only equivalent run is the
// oldest, written by another implementation (the worst case: the search
// reads to the end). "previous" is the baseline measured in the same run:
// the same-digest lookup that the gem's Run#previous does; "prefilter-ids"
// is the SQL step alone (it leaves 1,000 near misses plus the answer).
func BenchmarkFindBaseline(b *testing.B) {
	ctx := context.Background()
	db := testdb.Postgres(b)
	want := returnsRun(uuid.NewString(), runfixture.T0, "ruby-sha256-5f1c", `{"score":0.97}`)
	want.Sequence = 0
	if err := db.InsertRun(ctx, want); err != nil {
		b.Fatal(err)
	}
	seedHistory(b, db)
	run := returnsRun(uuid.NewString(), runfixture.T0.Add(benchHistory*time.Second+time.Hour), "go-new", `{"writer":"`+goWriter+`"}`)
	b.Run("previous", func(b *testing.B) {
		for b.Loop() {
			if _, err := db.BaselineCandidates(ctx, models.BaselineQuery{Suite: run.Suite, Agent: run.Agent,
				Digest: want.SuiteDigest, Before: models.Cursor{StartedAt: run.StartedAt}, Limit: 1}); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("prefilter-ids", func(b *testing.B) {
		for b.Loop() {
			ids, err := db.BaselineCandidateIDs(ctx, models.BaselineQuery{Suite: run.Suite, Agent: run.Agent,
				Version: run.Version, CaseIDs: []string{"returns"}, NotWriter: goWriter, SkipInfrastructureFailures: true,
				Before: models.Cursor{StartedAt: run.StartedAt}})
			if err != nil || len(ids) != benchHistory/100+1 {
				b.Fatalf("candidates: %d, %v; want %d", len(ids), err, benchHistory/100+1)
			}
		}
	})
	b.Run("equivalent", func(b *testing.B) {
		for b.Loop() {
			got, err := FindBaseline(ctx, db, run, nil)
			if err != nil {
				b.Fatal(err)
			}
			if got == nil || got.ID != want.ID {
				b.Fatalf("baseline = %s, want %s", runfixture.IDOf(got), want.ID)
			}
		}
	})
}
