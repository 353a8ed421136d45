package runner

import (
	"context"
	"encoding/json"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/otlp"
)

// TestExecute_waitForSpansFreesTheSlot: at -j 1 a case whose spans never
// come waits for late spans without its slot, so the next case is asked
// while it waits, and both are scored.
func TestExecute_waitForSpansFreesTheSlot(t *testing.T) {
	r, err := otlp.Start(otlp.Limits{Quiet: 400 * time.Millisecond, MaxWait: 2 * time.Second})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { _ = r.Close() })
	s := mustLoad(t, `{"suite": "Slots", "agent": {"name": "A"}, "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [{"id": "first", "question": "q1", "expected_answer": "ok"}, {"id": "second", "question": "q2", "expected_answer": "ok"}]}`)
	var finished atomic.Int32
	finishedAtSecond := int32(-1)
	a := agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		if q.ID == "second" {
			finishedAtSecond = finished.Load()
		}
		return agent.Response{Output: json.RawMessage(`"ok"`)}, nil
	})
	run := mustExecute(t, s, a, ExecOptions{Concurrency: 1, Traces: r, Progress: func(Progress) { finished.Add(1) }})
	if finishedAtSecond != 0 {
		t.Errorf("the second case was asked after %d cases finished; want 0: the first case's wait for spans held the only slot", finishedAtSecond)
	}
	for _, c := range run.Cases {
		if c.Status != "passed" {
			t.Errorf("case %s: %s", c.CaseID, c.Status)
		}
	}
}
