package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"slices"
	"strconv"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/schema"
)

// benchSizes are the history sizes compared: 1,000 runs against
// EVALDASH_BENCH_RUNS (default 2,000 so a plain -bench run stays small; the
// issue's figure is EVALDASH_BENCH_RUNS=100000, i.e. 1,000,000 case results).
func benchSizes(b *testing.B) []int {
	n := 2000
	if v := os.Getenv("EVALDASH_BENCH_RUNS"); v != "" {
		var err error
		if n, err = strconv.Atoi(v); err != nil || n < 1000 {
			b.Fatalf("EVALDASH_BENCH_RUNS=%q: want a number of runs >= 1000", v)
		}
	}
	return []int{1000, n}
}

// seedBench fills a fresh PostgreSQL schema with n runs of 10 cases and one
// metric each, in three INSERT … SELECT statements. Every tenth run has an
// empty (Ruby-style) summary, so the history page recomputes it from rows.
func seedBench(b *testing.B, n int) (*models.DB, string) {
	b.Helper()
	ctx := context.Background()
	url := testdb.PostgresURL(b)
	rw, err := models.Open(ctx, url, models.OpenOptions{})
	if err != nil {
		b.Fatal(err)
	}
	defer rw.Close()
	if err := schema.Migrate(ctx, rw); err != nil {
		b.Fatal(err)
	}
	start := time.Now()
	if err := seedSQL(ctx, rw, n); err != nil {
		b.Fatal(err)
	}
	b.Logf("seeded %d runs, %d case results in %s", n, n*10, time.Since(start).Round(time.Millisecond))
	ro, err := models.Open(ctx, url, models.OpenOptions{ReadOnly: true})
	if err != nil {
		b.Fatal(err)
	}
	b.Cleanup(func() { ro.Close() })
	var newest string
	if err := ro.QueryRowContext(ctx, `SELECT id::text FROM ruby_llm_evaluations_runs ORDER BY started_at DESC, sequence DESC LIMIT 1`).Scan(&newest); err != nil {
		b.Fatal(err)
	}
	explainHistory(b, ro)
	return ro, newest
}

// seedSQL inserts n runs of 10 cases with one metric each in three
// INSERT … SELECT statements and analyzes the tables.
func seedSQL(ctx context.Context, rw *models.DB, n int) error {
	for _, stmt := range []string{
		`INSERT INTO ruby_llm_evaluations_runs (id, suite, agent, version, suite_digest, status, started_at, finished_at,
			metadata, summary, created_at, updated_at)
		 SELECT gen_random_uuid(), 'Suite ' || (g % 5), 'Agent ' || (g % 3), '1', 'digest-' || (g % 5), 'completed',
			timestamp '2024-01-01' + g * interval '1 minute', timestamp '2024-01-01' + g * interval '1 minute' + interval '30 seconds',
			'{}', CASE WHEN g % 10 = 0 THEN '{}'::jsonb ELSE jsonb_build_object('cases', 10, 'passed', 9, 'failed', 1,
			'errored', 0, 'not_evaluated', 0, 'quality', 0.9, 'pass_rate', 0.9) END, now(), now()
		 FROM generate_series(1, %d) AS g`,
		`INSERT INTO ruby_llm_evaluations_case_results (run_id, position, case_id, name, status, duration_ms, question,
			expected_answer, metadata, output, actions, created_at, updated_at)
		 SELECT r.id, p, 'case-' || p, 'Case ' || p, CASE WHEN p = 9 THEN 'failed' ELSE 'passed' END, 100 + p,
			to_jsonb('Question ' || p), to_jsonb('Answer ' || p), '{}', to_jsonb('Answer ' || p), '[]', now(), now()
		 FROM ruby_llm_evaluations_runs AS r CROSS JOIN generate_series(0, 9) AS p`,
		`INSERT INTO ruby_llm_evaluations_metric_results (case_result_id, position, name, threshold, score, passed, reason,
			created_at, updated_at)
		 SELECT c.id, 0, 'exact_match', 1, CASE WHEN c.status = 'passed' THEN 1 ELSE 0 END, c.status = 'passed', 'compared',
			now(), now()
		 FROM ruby_llm_evaluations_case_results AS c`,
		`ANALYZE`,
	} {
		if _, err := rw.ExecContext(ctx, strings.ReplaceAll(stmt, "%d", strconv.Itoa(n))); err != nil {
			return fmt.Errorf("seed %d runs: %w", n, err)
		}
	}
	return nil
}

// explainHistory checks that the first history page reads the
// (started_at, sequence) index backwards instead of sorting the table.
func explainHistory(b *testing.B, db *models.DB) {
	b.Helper()
	rows, err := db.QueryContext(context.Background(), `EXPLAIN SELECT r.* FROM ruby_llm_evaluations_runs AS r
		ORDER BY r.started_at DESC, r.sequence DESC LIMIT 51`)
	if err != nil {
		b.Fatal(err)
	}
	defer rows.Close()
	var plan []string
	for rows.Next() {
		var line string
		if err := rows.Scan(&line); err != nil {
			b.Fatal(err)
		}
		plan = append(plan, line)
	}
	text := strings.Join(plan, "\n")
	b.Logf("history query plan:\n%s", text)
	if !strings.Contains(text, "Index Scan Backward") || strings.Contains(text, "Sort") {
		b.Errorf("the history query does not use the (started_at, sequence) index:\n%s", text)
	}
}

// sample serves path through the dashboard in-process and returns the
// server time of the request.
func sample(b *testing.B, h http.Handler, path string) time.Duration {
	req := httptest.NewRequest(http.MethodGet, path, nil)
	rec := httptest.NewRecorder()
	start := time.Now()
	h.ServeHTTP(rec, req)
	d := time.Since(start)
	if rec.Code != http.StatusOK {
		b.Fatalf("GET %s: %d", path, rec.Code)
	}
	return d
}

func percentiles(samples []time.Duration) (p50, p99 time.Duration) {
	slices.Sort(samples)
	return samples[len(samples)/2], samples[min(len(samples)-1, len(samples)*99/100)]
}

// BenchmarkPages measures the history, run and search pages at 1,000 runs
// and at EVALDASH_BENCH_RUNS runs. The two sizes are requested alternately
// in one loop, so load from other processes weighs on both alike, and the
// ratios (large/small) are reported next to the medians and 99th percentiles.
func BenchmarkPages(b *testing.B) {
	sizes := benchSizes(b)
	type target struct {
		handler http.Handler
		newest  string
	}
	var targets []target
	for _, n := range sizes {
		db, newest := seedBench(b, n)
		s, err := New(Config{DB: db, MountPath: mount})
		if err != nil {
			b.Fatal(err)
		}
		targets = append(targets, target{s, newest})
	}
	for _, page := range []struct {
		name string
		path func(target) string
	}{
		{"history", func(target) string { return mount + "/" }},
		{"run", func(t target) string { return mount + "/runs/" + t.newest }},
		// A text in one question of ten: 500 runs searched, 100 hits listed.
		{"search", func(target) string { return mount + "/search?q=question+3" }},
	} {
		b.Run(page.name, func(b *testing.B) {
			samples := make([][]time.Duration, len(targets))
			for _, t := range targets { // warm up connections and caches
				sample(b, t.handler, page.path(t))
			}
			for b.Loop() {
				for i, t := range targets {
					samples[i] = append(samples[i], sample(b, t.handler, page.path(t)))
				}
			}
			small50, small99 := percentiles(samples[0])
			large50, large99 := percentiles(samples[1])
			ms := func(d time.Duration) float64 { return float64(d.Microseconds()) / 1000 }
			b.ReportMetric(ms(small50), fmt.Sprintf("p50-ms@%d", sizes[0]))
			b.ReportMetric(ms(small99), fmt.Sprintf("p99-ms@%d", sizes[0]))
			b.ReportMetric(ms(large50), fmt.Sprintf("p50-ms@%d", sizes[1]))
			b.ReportMetric(ms(large99), fmt.Sprintf("p99-ms@%d", sizes[1]))
			b.ReportMetric(float64(large50)/float64(small50), "p50-ratio")
			b.ReportMetric(float64(large99)/float64(small99), "p99-ratio")
		})
	}
}
