package evidence

import (
	"context"
	"fmt"
	"path/filepath"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// benchRun is sampleRun with a third metric on every case: 2,500
// questions × 3 metrics in the benchmark.
func benchRun(tb testing.TB, n int) (*models.Run, Definition) {
	run, def := sampleRun(tb, n)
	def.CalculatedMetrics = []string{"exact", "has", "judge"}
	for _, c := range run.Cases {
		one, reason := 1.0, "found"
		c.MinimumScores = models.JSON(`{"exact":1,"judge":0.5,"has":0.5}`)
		c.Metrics = append(c.Metrics, &models.MetricResult{Position: 2, Name: "has", Threshold: 0.5, Score: &one, Passed: true, Reason: &reason})
	}
	run.Summary = mustSummary(tb, models.SummaryOf(run, 4, time.Minute))
	return run, def
}

// writeFiles writes the run as one whole file and as 4 shard files under
// fresh run ids, and returns their paths.
func writeFiles(b *testing.B, dir string, run *models.Run, def Definition) (whole string, shards []string) {
	b.Helper()
	run.ID = uuid.New()
	for _, c := range run.Cases {
		c.RunID = run.ID
	}
	whole = filepath.Join(dir, "whole.json")
	if err := (&File{Run: run, Definition: def}).Write(whole); err != nil {
		b.Fatal(err)
	}
	for i := 1; i <= 4; i++ {
		r := *run
		r.ID, r.Cases = uuid.New(), nil
		for _, c := range run.Cases {
			if c.Position%4 == i-1 {
				cp := *c
				cp.RunID = r.ID
				r.Cases = append(r.Cases, &cp)
			}
		}
		r.Summary = mustSummary(b, models.SummaryOf(&r, 4, time.Minute))
		p := filepath.Join(dir, fmt.Sprintf("shard-%d.json", i))
		if err := (&File{Run: &r, Definition: def, Shard: &Shard{Index: i, Count: 4}}).Write(p); err != nil {
			b.Fatal(err)
		}
		shards = append(shards, p)
	}
	return whole, shards
}

// BenchmarkMergeImport times, in the same iteration and database, what
// db:import does with a 2,500-question × 3-metric run saved whole (read,
// validate, insert) and as 4 shards (read and validate 4 files, merge,
// insert) into PostgreSQL, and reports both and their ratio.
func BenchmarkMergeImport(b *testing.B) {
	ctx := context.Background()
	db := testdb.Postgres(b)
	run, def := benchRun(b, 2500)
	dir := b.TempDir()
	var whole, merged time.Duration
	for b.Loop() {
		b.StopTimer()
		wholePath, shardPaths := writeFiles(b, dir, run, def)
		b.StartTimer()

		start := time.Now()
		f, err := Read(wholePath)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Import(ctx, db, f, models.SaveOptions{}); err != nil {
			b.Fatal(err)
		}
		whole += time.Since(start)

		start = time.Now()
		var files []*File
		for _, p := range shardPaths {
			f, err := Read(p)
			if err != nil {
				b.Fatal(err)
			}
			files = append(files, f)
		}
		m, err := Merge(files, shardPaths)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := Import(ctx, db, m, models.SaveOptions{}); err != nil {
			b.Fatal(err)
		}
		merged += time.Since(start)
	}
	b.ReportMetric(float64(whole.Milliseconds())/float64(b.N), "whole-ms/op")
	b.ReportMetric(float64(merged.Milliseconds())/float64(b.N), "merged-ms/op")
	b.ReportMetric(merged.Seconds()/whole.Seconds(), "merged/whole")
}
