package runner

// Benchmarks of a 1,000-case exact-match suite through Execute and
// InsertRun (SQLite). Run one at a time to read each one's peak RSS:
//
//	go test ./runner -run '^$' -bench 'Execute/func' -benchtime 5x
//	go test ./runner -run '^$' -bench 'Execute/command' -benchtime 1x
//	go test ./runner -run '^$' -bench 'Execute/worker' -benchtime 1x
//	go test ./runner -run '^$' -bench 'Execute/http' -benchtime 1x
//
// Reported metrics: us/case (wall time per case, persistence included),
// x-ideal (http: Execute's wall time over N×50ms/concurrency; x-ideal-saved
// includes the InsertRun transaction), peak-rss-MB (this
// process) and child-rss-MB (largest agent process).

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/suite"
)

const benchCases = 1000

func benchSuite(b *testing.B) *suite.Suite {
	b.Helper()
	var sb strings.Builder
	sb.WriteString(`{"suite": "Bench", "agent": {"name": "A", "command": ["true"]},
	  "evaluators": {"exact": {"type": "exact_match"}}, "questions": [`)
	for i := range benchCases {
		if i > 0 {
			sb.WriteString(",")
		}
		fmt.Fprintf(&sb, `{"id": "q%d", "question": "Question number %d?", "expected_answer": "ok"}`, i, i)
	}
	sb.WriteString("]}")
	return mustLoad(b, sb.String())
}

func BenchmarkExecute(b *testing.B) {
	okAnswer := json.RawMessage(`"ok"`)
	b.Run("func", func(b *testing.B) {
		benchRun(b, agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
			return agent.Response{Output: okAnswer}, nil
		}), DefaultConcurrency, 0)
	})
	b.Run("command", func(b *testing.B) {
		a := mustAgent(b, suite.AgentConfig{Name: "A", Type: suite.AgentCommand, Command: []string{"sh", "-c", "cat >/dev/null; echo ok"}, Dir: b.TempDir()}, adapter.Options{})
		benchRun(b, a, DefaultConcurrency, 0)
	})
	b.Run("worker", func(b *testing.B) {
		a := mustAgent(b, suite.AgentConfig{Name: "A", Type: suite.AgentWorker, Dir: b.TempDir(),
			Command: []string{"sh", "-c", `while IFS= read -r l; do echo '{"output":"ok"}'; done`}}, adapter.Options{Concurrency: DefaultConcurrency})
		benchRun(b, a, DefaultConcurrency, 0)
	})
	for _, conc := range []int{16, 64} {
		b.Run(fmt.Sprintf("http-50ms-c%d", conc), func(b *testing.B) {
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				time.Sleep(50 * time.Millisecond)
				w.Write([]byte(`{"output":"ok"}`))
			}))
			defer srv.Close()
			a := mustAgent(b, suite.AgentConfig{Name: "A", Type: suite.AgentHTTP, URL: srv.URL}, adapter.Options{Concurrency: conc})
			benchRun(b, a, conc, 50*time.Millisecond)
		})
	}
}

// benchRun executes the suite b.N times and saves each run.
func benchRun(b *testing.B, a agent.Agent, conc int, perRequest time.Duration) {
	s := benchSuite(b)
	db := testdb.SQLite(b)
	ctx := context.Background()
	b.ResetTimer()
	start := time.Now()
	var executing time.Duration
	for range b.N {
		t0 := time.Now()
		run, err := Execute(ctx, s, a, ExecOptions{Concurrency: conc})
		if err != nil {
			b.Fatal(err)
		}
		executing += time.Since(t0)
		if err := db.InsertRun(ctx, run); err != nil {
			b.Fatal(err)
		}
		var sum map[string]any
		if err := run.Summary.Decode(&sum); err != nil || sum["passed"] != float64(benchCases) {
			b.Fatalf("summary = %s", run.Summary)
		}
	}
	wall := time.Since(start) / time.Duration(b.N)
	b.StopTimer()
	b.ReportMetric(float64(wall.Microseconds())/benchCases, "us/case")
	if perRequest > 0 {
		ideal := perRequest * benchCases / time.Duration(conc)
		b.ReportMetric(float64(executing/time.Duration(b.N))/float64(ideal), "x-ideal")
		b.ReportMetric(float64(wall)/float64(ideal), "x-ideal-saved")
	}
	var self, children syscall.Rusage
	syscall.Getrusage(syscall.RUSAGE_SELF, &self)
	syscall.Getrusage(syscall.RUSAGE_CHILDREN, &children)
	b.ReportMetric(float64(self.Maxrss)/1024, "peak-rss-MB")
	b.ReportMetric(float64(children.Maxrss)/1024, "child-rss-MB")
}
