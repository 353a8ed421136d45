package runner

// Helpers shared by the runner's internal tests.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"io"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// mustLoad writes a suite file into a temp dir and loads it.
func mustLoad(tb testing.TB, content string) *suite.Suite {
	tb.Helper()
	s, err := suite.Load(testfile.Write(tb, tb.TempDir(), "suite.json", content))
	if err != nil {
		tb.Fatalf("Load: %v", err)
	}
	return s
}

// shAgent writes a shell script and returns a command agent config running it.
func shAgent(tb testing.TB, typ, script string) suite.AgentConfig {
	tb.Helper()
	dir := tb.TempDir()
	testfile.Write(tb, dir, "agent.sh", script)
	return suite.AgentConfig{Name: "A", Type: typ, Command: []string{"sh", "agent.sh"}, Dir: dir}
}

// mustAgent builds an agent and closes it when the test ends.
func mustAgent(tb testing.TB, cfg suite.AgentConfig, opts adapter.Options) agent.Agent {
	tb.Helper()
	a, err := adapter.New(cfg, opts)
	if err != nil {
		tb.Fatal(err)
	}
	if c, ok := a.(io.Closer); ok {
		tb.Cleanup(func() { c.Close() })
	}
	return a
}

// agentErr is err as an *AgentError; anything else fails the test.
func agentErr(tb testing.TB, err error) *adapter.Error {
	tb.Helper()
	var ae *adapter.Error
	if !errors.As(err, &ae) {
		tb.Fatalf("err = %v, want an *AgentError", err)
	}
	return ae
}

// answers is a Go function agent answering from a map of id to output; a
// missing id is an agent error.
func answers(m map[string]string) agent.Func {
	return func(ctx context.Context, q agent.Question) (agent.Response, error) {
		out, ok := m[q.ID]
		if !ok {
			return agent.Response{}, fmt.Errorf("no answer for %s", q.ID)
		}
		b, _ := json.Marshal(out)
		return agent.Response{Output: b, Actions: []score.Action{}}, nil
	}
}

// summaryOf decodes the run summary.
func summaryOf(tb testing.TB, run *models.Run) map[string]any {
	tb.Helper()
	var m map[string]any
	if err := run.Summary.Decode(&m); err != nil {
		tb.Fatal(err)
	}
	return m
}

// mustExecute runs the suite and fails the test on an error.
func mustExecute(tb testing.TB, s *suite.Suite, a agent.Agent, opts ExecOptions) *models.Run {
	tb.Helper()
	run, err := Execute(context.Background(), s, a, opts)
	if err != nil {
		tb.Fatalf("Execute: %v", err)
	}
	return run
}

// questionsSuite is a judged suite of n questions with semantic_accuracy
// at threshold 0.5.
func questionsSuite(n int) string {
	var qs []string
	for i := range n {
		qs = append(qs, fmt.Sprintf(`{"id": "q%d", "question": "Question %d?", "expected_answer": "Answer %d.", "minimum_scores": {"semantic_accuracy": 0.5}}`, i, i, i))
	}
	return `{"suite": "Noise", "agent": {"name": "A", "command": ["true"]},
  "judge": {"provider": "openai", "model": "judge"},
  "questions": [` + strings.Join(qs, ",\n") + `]}`
}

// numberedAgent answers "answer-<i>." to question q<i>.
func numberedAgent() agent.Agent {
	return agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		out, _ := json.Marshal("answer-" + strings.TrimPrefix(q.ID, "q") + ".")
		return agent.Response{Output: out}, nil
	})
}
