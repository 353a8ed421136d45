package runfixture

import (
	"context"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
)

// SaveRun inserts a built run (its sequence and row ids left to the
// database) and returns it as read back.
func SaveRun(t testing.TB, db *models.DB, run *models.Run) *models.Run {
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

// IDOf is a run's id for messages, "none" for no run.
func IDOf(r *models.Run) string {
	if r == nil {
		return "none"
	}
	return r.ID.String()
}

// InsertRubyRun writes a run the way ActiveRecord does: its own digest,
// Ruby nil as SQL NULL, jsonb keys reordered, integral floats as integers,
// a summary with keys of its own.
func InsertRubyRun(t testing.TB, db *models.DB, id uuid.UUID, started time.Time, threshold string, score float64) {
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
