package models_test

import (
	"context"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"
	"github.com/jackc/pgx/v5"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/schema"
)

const (
	benchCases   = 10_000
	benchMetrics = 3
)

// benchRun builds one run of 10,000 cases × 3 metrics with realistic values.
func benchRun(started time.Time) *models.Run {
	r := &models.Run{
		Suite: "bench", Agent: "BenchAgent", Version: "1", SuiteDigest: strings.Repeat("ab", 32),
		StartedAt: started, FinishedAt: started.Add(time.Minute),
		Metadata: models.JSON(`{"git":{"sha":"deadbeef"},"tags":["bench"]}`),
		Summary:  models.JSON(`{"quality":0.9,"pass_rate":0.8,"evaluated":10000}`),
	}
	names := []string{"semantic_accuracy", "answer_relevancy", "exact"}
	output := models.MustJSON("The answer to this question is a paragraph of ordinary length, " + strings.Repeat("with some detail ", 8))
	for i := range benchCases {
		c := &models.CaseResult{
			Position: i, CaseID: fmt.Sprintf("q%05d", i), Name: fmt.Sprintf("Question %d — ✓", i),
			Status: models.StatusPassed, DurationMS: float64(i%900) + 0.25,
			Question:         models.MustJSON(map[string]any{"text": fmt.Sprintf("How long do I have to return item %d?", i)}),
			ExpectedAnswer:   models.MustJSON("You can return it within 30 days."),
			MinimumScores:    models.JSON(`{"semantic_accuracy":0.9,"answer_relevancy":0.8,"exact":1}`),
			Metadata:         models.JSON(`{"important_facts":["The return deadline is 30 days."]}`),
			Output:           output,
			Actions:          models.JSON(`[]`),
			ResponseMetadata: models.JSON(`{}`),
			InputTokens:      ptr(int64(120 + i%50)), OutputTokens: ptr(int64(40 + i%20)), Cost: ptr(models.Decimal("0.000123")),
		}
		for j, n := range names {
			c.Metrics = append(c.Metrics, &models.MetricResult{
				Position: j, Name: n, Threshold: 0.8, Score: ptr(0.9), Passed: true, Reason: ptr("The answer states the deadline."),
			})
		}
		r.Cases = append(r.Cases, c)
	}
	return r
}

// copyRun writes the same rows with pgx CopyFrom in one transaction: the
// floor for bulk loading. Case ids are taken from the sequence up front,
// since COPY cannot return them and metric rows need them.
func copyRun(ctx context.Context, conn *pgx.Conn, r *models.Run) error {
	now := models.UTC(time.Now())
	if r.ID == uuid.Nil {
		r.ID = uuid.Must(uuid.NewV7())
	}
	tx, err := conn.Begin(ctx)
	if err != nil {
		return err
	}
	defer tx.Rollback(ctx)
	str := func(j models.JSON) any {
		if j == nil {
			return nil
		}
		return string(j)
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{models.RunsTable},
		[]string{"id", "suite", "agent", "version", "suite_digest", "status", "started_at", "finished_at", "metadata", "summary", "created_at", "updated_at"},
		pgx.CopyFromRows([][]any{{[16]byte(r.ID), r.Suite, r.Agent, r.Version, r.SuiteDigest, models.RunStatusCompleted,
			models.UTC(r.StartedAt), models.UTC(r.FinishedAt), str(r.Metadata), str(r.Summary), now, now}})); err != nil {
		return fmt.Errorf("copy run: %w", err)
	}
	rows, err := tx.Query(ctx, "SELECT nextval(pg_get_serial_sequence($1, 'id')) FROM generate_series(1, $2)", models.CaseResultsTable, len(r.Cases))
	if err != nil {
		return err
	}
	ids, err := pgx.CollectRows(rows, pgx.RowTo[int64])
	if err != nil {
		return err
	}
	caseRows := make([][]any, len(r.Cases))
	var metricRows [][]any
	for i, c := range r.Cases {
		c.ID = ids[i]
		caseRows[i] = []any{c.ID, [16]byte(r.ID), c.Position, c.CaseID, c.Name, c.Status, c.DurationMS,
			str(c.Question), str(c.ExpectedAnswer), str(c.ExpectedActions), str(c.MinimumScores), str(c.Metadata),
			str(c.Output), str(c.Actions), str(c.ResponseMetadata), str(c.ErrorDetails),
			c.InputTokens, c.OutputTokens, c.Cost, now, now}
		for _, m := range c.Metrics {
			metricRows = append(metricRows, []any{c.ID, m.Position, m.Name, m.Threshold, m.Score, m.Passed, m.Reason, str(m.ErrorDetails), now, now})
		}
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{models.CaseResultsTable},
		[]string{"id", "run_id", "position", "case_id", "name", "status", "duration_ms", "question", "expected_answer",
			"expected_actions", "minimum_scores", "metadata", "output", "actions", "response_metadata", "error_details",
			"input_tokens", "output_tokens", "cost", "created_at", "updated_at"},
		pgx.CopyFromRows(caseRows)); err != nil {
		return fmt.Errorf("copy case results: %w", err)
	}
	if _, err := tx.CopyFrom(ctx, pgx.Identifier{models.MetricResultsTable},
		[]string{"case_result_id", "position", "name", "threshold", "score", "passed", "reason", "error_details", "created_at", "updated_at"},
		pgx.CopyFromRows(metricRows)); err != nil {
		return fmt.Errorf("copy metric results: %w", err)
	}
	return tx.Commit(ctx)
}

// BenchmarkInsertRun10k inserts one run of 10,000 cases × 3 metrics per
// iteration. On PostgreSQL every iteration also writes the same rows with
// pgx CopyFrom and reports both times and their ratio (goal: InsertRun ≤
// 1.5× COPY); on SQLite it reports InsertRun's time.
//
//	go test -run '^$' -bench InsertRun10k -benchtime 5x ./models/
func BenchmarkInsertRun10k(b *testing.B) {
	ctx := context.Background()
	b.Run("postgres", func(b *testing.B) {
		url := testdb.PostgresURL(b)
		db, err := models.Open(ctx, url, models.OpenOptions{})
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		migrateForBench(b, db)
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			b.Fatal(err)
		}
		defer conn.Close(ctx)
		var insert, copying time.Duration
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			r1 := benchRun(time.Now())
			r2 := benchRun(time.Now())
			b.StartTimer()

			t0 := time.Now()
			if err := db.InsertRun(ctx, r1); err != nil {
				b.Fatal(err)
			}
			t1 := time.Now()
			if err := copyRun(ctx, conn, r2); err != nil {
				b.Fatal(err)
			}
			insert += t1.Sub(t0)
			copying += time.Since(t1)
		}
		b.ReportMetric(float64(insert.Milliseconds())/float64(b.N), "insert-ms/op")
		b.ReportMetric(float64(copying.Milliseconds())/float64(b.N), "copy-ms/op")
		b.ReportMetric(float64(insert)/float64(copying), "insert/copy")
	})
	b.Run("sqlite", func(b *testing.B) {
		db, err := models.Open(ctx, testdb.SQLiteURL(b), models.OpenOptions{})
		if err != nil {
			b.Fatal(err)
		}
		defer db.Close()
		migrateForBench(b, db)
		var insert time.Duration
		b.ResetTimer()
		for i := 0; i < b.N; i++ {
			b.StopTimer()
			r := benchRun(time.Now())
			b.StartTimer()
			t0 := time.Now()
			if err := db.InsertRun(ctx, r); err != nil {
				b.Fatal(err)
			}
			insert += time.Since(t0)
		}
		b.ReportMetric(float64(insert.Milliseconds())/float64(b.N), "insert-ms/op")
	})
}

func migrateForBench(b *testing.B, db *models.DB) {
	b.Helper()
	if err := schema.Migrate(context.Background(), db); err != nil {
		b.Fatal(err)
	}
}
