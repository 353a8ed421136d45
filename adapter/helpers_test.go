package adapter

// Helpers shared by the agent's internal tests.

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"io"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// shAgent writes a shell script and returns a command agent config running it.
func shAgent(tb testing.TB, typ, script string) suite.AgentConfig {
	tb.Helper()
	dir := tb.TempDir()
	testfile.Write(tb, dir, "agent.sh", script)
	return suite.AgentConfig{Name: "A", Type: typ, Command: []string{"sh", "agent.sh"}, Dir: dir}
}

// mustAgent builds an agent and closes it when the test ends.
func mustAgent(tb testing.TB, cfg suite.AgentConfig, opts Options) agent.Agent {
	tb.Helper()
	a, err := New(cfg, opts)
	if err != nil {
		tb.Fatal(err)
	}
	if c, ok := a.(io.Closer); ok {
		tb.Cleanup(func() { c.Close() })
	}
	return a
}

// agentErr is err as an *Error; anything else fails the test.
func agentErr(tb testing.TB, err error) *Error {
	tb.Helper()
	var ae *Error
	if !errors.As(err, &ae) {
		tb.Fatalf("err = %v, want an *Error", err)
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

// testQuestion is the question the agent tests ask.
var testQuestion = agent.Question{ID: "q1", Name: "n", Question: json.RawMessage(`"How long?"`)}
