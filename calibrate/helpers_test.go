package calibrate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sync/atomic"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// mustLoad writes a suite file into a temp dir and loads it.
func mustLoad(tb testing.TB, content string) *suite.Suite {
	tb.Helper()
	path := filepath.Join(tb.TempDir(), "suite.json")
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		tb.Fatal(err)
	}
	s, err := suite.Load(path)
	if err != nil {
		tb.Fatalf("Load: %v", err)
	}
	return s
}

// mustExecute runs the suite and fails the test on an error.
func mustExecute(tb testing.TB, s *suite.Suite, a agent.Agent, opts runner.ExecOptions) *models.Run {
	tb.Helper()
	run, err := runner.Execute(context.Background(), s, a, opts)
	if err != nil {
		tb.Fatalf("Execute: %v", err)
	}
	return run
}

func ptrText[T any](p *T) string {
	if p == nil {
		return "<nil>"
	}
	return fmt.Sprint(*p)
}

// scriptedJudge answers every Assess with a fixed verdict and usage.
type scriptedJudge struct {
	score float64
	calls atomic.Int64
}

func (j *scriptedJudge) Assess(ctx context.Context, system, user string) (score.Assessment, error) {
	j.calls.Add(1)
	cost := 0.001
	return score.Assessment{Score: j.score, Reason: "scripted", Usage: &score.Usage{InputTokens: 100, OutputTokens: 10, Cost: &cost}}, nil
}
