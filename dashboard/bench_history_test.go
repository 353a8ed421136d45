package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// seedSameSuite stores n runs of one suite and agent on SQLite, ten cases
// and one metric each, one INSERT … SELECT per table, and returns the
// newest run's id. Their summaries name writer ("" as the Ruby gem's
// runs); the newest run has a new digest, so no earlier run shares it and
// the baseline search looks for an equivalent run of another writer.
func seedSameSuite(b *testing.B, rw *models.DB, n int, writer string) string {
	b.Helper()
	ctx := context.Background()
	for _, stmt := range []string{
		`WITH RECURSIVE g(i) AS (SELECT 1 UNION ALL SELECT i + 1 FROM g WHERE i < {N})
		 INSERT INTO ruby_llm_evaluations_runs (id, suite, agent, version, suite_digest, status, started_at, finished_at,
			metadata, summary, created_at, updated_at)
		 SELECT printf('%08x-0000-4000-8000-%012x', i, i), 'Suite', 'Agent', '1', CASE WHEN i = {N} THEN 'digest-new' ELSE 'digest' END, 'completed',
			strftime('%Y-%m-%d %H:%M:%f', '2024-01-01', '+' || i || ' minutes'),
			strftime('%Y-%m-%d %H:%M:%f', '2024-01-01', '+' || i || ' minutes', '+30 seconds'),
			'{}', json_object('writer', '` + writer + `', 'cases', 10, 'passed', 9, 'failed', 1, 'errored', 0,
			'not_evaluated', 0, 'quality', 0.9, 'pass_rate', 0.9), '2024-01-01', '2024-01-01'
		 FROM g`,
		`INSERT INTO ruby_llm_evaluations_case_results (run_id, position, case_id, name, status, duration_ms, question,
			expected_answer, metadata, output, actions, created_at, updated_at)
		 WITH RECURSIVE p(i) AS (SELECT 0 UNION ALL SELECT i + 1 FROM p WHERE i < 9)
		 SELECT r.id, p.i, 'case-' || p.i, 'Case ' || p.i, CASE WHEN p.i = 9 THEN 'failed' ELSE 'passed' END, 100,
			json_quote('Question ' || p.i), json_quote('Answer ' || p.i), '{}', json_quote('Answer ' || p.i), '[]',
			'2024-01-01', '2024-01-01'
		 FROM ruby_llm_evaluations_runs AS r CROSS JOIN p`,
		`INSERT INTO ruby_llm_evaluations_metric_results (case_result_id, position, name, threshold, score, passed, reason,
			created_at, updated_at)
		 SELECT c.id, 0, 'exact_match', 1, CASE WHEN c.status = 'passed' THEN 1 ELSE 0 END, c.status = 'passed', 'compared',
			'2024-01-01', '2024-01-01'
		 FROM ruby_llm_evaluations_case_results AS c`,
		`ANALYZE`,
	} {
		if _, err := rw.ExecContext(ctx, strings.ReplaceAll(stmt, "{N}", strconv.Itoa(n))); err != nil {
			b.Fatalf("seed %d runs: %v", n, err)
		}
	}
	return fmt.Sprintf("%08x-0000-4000-8000-%012x", n, n)
}

// BenchmarkRunPageHistory serves the newest run's page (baseline, flaky
// questions and all) after 100 and after 10,000 earlier runs of the same
// suite and agent on SQLite, for runs of the Go runner and of the Ruby
// gem; the two sizes are requested alternately and their ratio is
// reported (goal: the page's work does not grow with the history).
func BenchmarkRunPageHistory(b *testing.B) {
	for _, w := range []struct{ name, writer string }{{"go", models.GoWriter}, {"ruby", ""}} {
		b.Run(w.name, func(b *testing.B) { benchRunPageHistory(b, w.writer) })
	}
}

func benchRunPageHistory(b *testing.B, writer string) {
	sizes := []int{100, 10000}
	handlers := make([]http.Handler, len(sizes))
	paths := make([]string, len(sizes))
	for i, n := range sizes {
		rw, ro := MustOpenDBs(b, "sqlite")
		paths[i] = "/runs/" + seedSameSuite(b, rw, n, writer)
		srv, err := New(Config{DB: ro})
		if err != nil {
			b.Fatal(err)
		}
		handlers[i] = srv
	}
	took := make([]time.Duration, len(sizes))
	b.ResetTimer()
	for range b.N {
		for i, h := range handlers {
			rec := httptest.NewRecorder()
			start := time.Now()
			h.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, paths[i], nil))
			took[i] += time.Since(start)
			if rec.Code != http.StatusOK {
				b.Fatalf("%s: %d\n%s", paths[i], rec.Code, rec.Body.String())
			}
		}
	}
	for i, n := range sizes {
		b.ReportMetric(float64(took[i].Microseconds())/float64(b.N)/1000, "ms/page@"+strconv.Itoa(n))
	}
	b.ReportMetric(float64(took[1])/float64(took[0]), "ratio")
}
