package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

const threeQuestions = `{"suite": "S", "agent": {"name": "A", "command": ["true"]},
  "questions": [
    {"id": "a", "question": "1?", "expected_answer": "one", "minimum_scores": {"exact_match": 1}},
    {"id": "b", "question": "2?", "expected_answer": "two", "minimum_scores": {"exact_match": 1, "semantic_accuracy": 0.9}},
    {"id": "c", "question": "3?", "expected_answer": "three", "minimum_scores": {"semantic_accuracy": 0.9}}
  ]}`

func TestExecute_StatusesAndSummaryWithoutJudge(t *testing.T) {
	s := mustLoad(t, threeQuestions)
	run := mustExecute(t, s, answers(map[string]string{"a": "one", "b": "TWO!", "c": "three"}), ExecOptions{})
	statuses := []string{run.Cases[0].Status, run.Cases[1].Status, run.Cases[2].Status}
	if want := []string{"passed", "failed", "not_evaluated"}; strings.Join(statuses, ",") != strings.Join(want, ",") {
		t.Errorf("statuses = %v, want %v", statuses, want)
	}
	sem := run.Cases[2].Metrics[0]
	if sem.Score != nil || sem.Passed || !sem.ErrorDetails.IsSQLNull() || sem.Reason == nil || *sem.Reason != reasonNoJudge {
		t.Errorf("uncalculated metric = %+v", sem)
	}
	sum := summaryOf(t, run)
	checks := map[string]any{"cases": 3.0, "passed": 1.0, "failed": 1.0, "errors": 0.0, "not_evaluated": 1.0,
		"quality": 0.5, "pass_rate": 0.5, "cost": nil, "input_tokens": nil, "judge_usage": nil, "writer": suite.GoWriter}
	for k, want := range checks {
		if got := sum[k]; got != want {
			t.Errorf("summary[%s] = %v, want %v", k, got, want)
		}
	}
	if _, err := s.Digest(nil); err != nil {
		t.Fatal(err)
	}
	if want, _ := s.Digest([]string{"exact_match"}); run.SuiteDigest != want {
		t.Errorf("digest does not cover the calculated set {exact_match}")
	}
	if got := string(run.Cases[1].MinimumScores); got != `{"exact_match":1,"semantic_accuracy":0.9}` {
		t.Errorf("minimum_scores column = %s", got)
	}
}

// TestExecute_WriterMarker checks that the planned and the saved run both
// carry the writer marker, which ExtraSummary cannot replace.
func TestExecute_WriterMarker(t *testing.T) {
	s := mustLoad(t, threeQuestions)
	extra := func() map[string]any { return map[string]any{"writer": "someone-else", "judge_cache": "kept"} }
	run := mustExecute(t, s, answers(map[string]string{"a": "one"}), ExecOptions{ExtraSummary: extra})
	sum := summaryOf(t, run)
	if sum["writer"] != suite.GoWriter || sum["judge_cache"] != "kept" {
		t.Errorf("summary writer, judge_cache = %v, %v; want %q, kept", sum["writer"], sum["judge_cache"], suite.GoWriter)
	}
	if got := summaryOf(t, s.Plan(s.Calculated(false)))["writer"]; got != suite.GoWriter {
		t.Errorf("planned run's summary writer = %v, want %q", got, suite.GoWriter)
	}
}

func TestExecute_NothingEvaluated(t *testing.T) {
	s := mustLoad(t, `{"suite": "S", "agent": {"name": "A", "command": ["true"]}, "questions": [{"question": "Hi", "expected_answer": "Hello"}]}`)
	run := mustExecute(t, s, answers(map[string]string{"Hi": "Hello"}), ExecOptions{})
	if got := run.Cases[0].Status; got != models.StatusNotEvaluated {
		t.Errorf("status = %s, want not_evaluated", got)
	}
	sum := summaryOf(t, run)
	if sum["quality"] != nil || sum["pass_rate"] != nil {
		t.Errorf("quality, pass_rate = %v, %v, want null", sum["quality"], sum["pass_rate"])
	}
	if len(run.Cases[0].Metrics) != 2 {
		t.Errorf("default metrics not listed: %d rows", len(run.Cases[0].Metrics))
	}
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

func TestExecute_JudgeUsageIsSeparate(t *testing.T) {
	s := mustLoad(t, threeQuestions)
	j := &scriptedJudge{score: 0.95}
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		in, cost := int64(7), 0.5
		return agent.Response{Output: json.RawMessage(`"one"`), InputTokens: &in, Cost: &cost}, nil
	})
	run := mustExecute(t, s, a, ExecOptions{Judge: j})
	if got := j.calls.Load(); got != 2 {
		t.Errorf("judge calls = %d, want 2", got)
	}
	sum := summaryOf(t, run)
	if sum["cost"] != 1.5 || sum["input_tokens"] != 21.0 || sum["output_tokens"] != nil {
		t.Errorf("agent usage = cost %v, input %v, output %v", sum["cost"], sum["input_tokens"], sum["output_tokens"])
	}
	ju, _ := sum["judge_usage"].(map[string]any)
	if ju["input_tokens"] != 200.0 || ju["output_tokens"] != 20.0 || ju["cost"] != 0.002 {
		t.Errorf("judge_usage = %v", sum["judge_usage"])
	}
	var meta map[string]map[string]map[string]any
	if err := run.Cases[2].ResponseMetadata.Decode(&meta); err != nil || meta["judge_usage"]["semantic_accuracy"]["input_tokens"] != 100.0 {
		t.Errorf("response_metadata = %s", run.Cases[2].ResponseMetadata)
	}
	if got := run.Cases[2].Status; got != models.StatusPassed {
		t.Errorf("judged case status = %s", got)
	}
}

func TestExecute_MetricErrorAndAgentError(t *testing.T) {
	s := mustLoad(t, `{"suite": "S", "agent": {"name": "A", "command": ["true"]}, "questions": [
	  {"id": "act", "question": "q", "expected_answer": "x",
	   "expected_actions": [{"group": "g", "name": "lookup"}], "minimum_scores": {"exact_match": 1, "action_group": 1}},
	  {"id": "boom", "question": "q2", "expected_answer": "x", "minimum_scores": {"exact_match": 1}},
	  {"id": "panic", "question": "q3", "expected_answer": "x", "minimum_scores": {"exact_match": 1}}]}`)
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		switch q.ID {
		case "boom":
			return agent.Response{}, errors.New("model unavailable")
		case "panic":
			panic("agent bug")
		}
		return agent.Response{Output: json.RawMessage(`"x"`)}, nil // actions nil: not instrumented
	})
	run := mustExecute(t, s, a, ExecOptions{})
	act := run.Cases[0]
	if act.Status != models.StatusError || !act.Actions.IsSQLNull() {
		t.Errorf("act: status %s, actions %s", act.Status, act.Actions)
	}
	if m := act.Metrics[1]; m.Score != nil || m.ErrorDetails.IsNull() || m.Passed {
		t.Errorf("action_group metric = %+v", m)
	}
	if q := act.Quality(); q == nil || *q != 0.5 {
		t.Errorf("quality with one errored metric = %v, want 0.5", q)
	}
	for i, kind := range []string{"agent_error", "panic"} {
		c := run.Cases[i+1]
		var e struct{ Kind, Message string }
		_ = json.Unmarshal(c.ErrorDetails, &e)
		if c.Status != models.StatusError || e.Kind != kind {
			t.Errorf("%s: status %s, error %s", c.CaseID, c.Status, c.ErrorDetails)
		}
		if m := c.Metrics[0]; m.Calculated() || *m.Reason != reasonAgentError {
			t.Errorf("%s: metric after agent error = %+v", c.CaseID, m)
		}
		if q := c.Quality(); q == nil || *q != 0 {
			t.Errorf("%s: quality = %v, want 0", c.CaseID, q)
		}
	}
	sum := summaryOf(t, run)
	if sum["errors"] != 3.0 || sum["quality"] != 0.5/3 {
		t.Errorf("errors %v, quality %v", sum["errors"], sum["quality"])
	}
}

func TestExecute_Timeout(t *testing.T) {
	s := mustLoad(t, `{"suite": "S", "agent": {"name": "A", "command": ["true"]}, "questions": [
	  {"id": "slow", "question": "q", "expected_answer": "ok", "minimum_scores": {"exact_match": 1}},
	  {"id": "deaf", "question": "q2", "expected_answer": "ok", "minimum_scores": {"exact_match": 1}},
	  {"id": "fast", "question": "q3", "expected_answer": "ok", "minimum_scores": {"exact_match": 1}}]}`)
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		switch q.ID {
		case "slow":
			<-ctx.Done()
			return agent.Response{}, ctx.Err()
		case "deaf": // ignores its context
			time.Sleep(3 * time.Second)
		}
		return agent.Response{Output: json.RawMessage(`"ok"`)}, nil
	})
	start := time.Now()
	run := mustExecute(t, s, a, ExecOptions{Timeout: 100 * time.Millisecond, Concurrency: 3})
	if el := time.Since(start); el > 2500*time.Millisecond {
		t.Errorf("Execute waited %s for an agent that ignores its context", el)
	}
	for i, want := range []string{"error", "error", "passed"} {
		c := run.Cases[i]
		if c.Status != want {
			t.Errorf("%s: status %s, want %s", c.CaseID, c.Status, want)
		}
		if want == "error" && !strings.Contains(string(c.ErrorDetails), `"kind":"timeout"`) {
			t.Errorf("%s: error_details = %s", c.CaseID, c.ErrorDetails)
		}
		deaf := c.CaseID == "deaf"
		if said := strings.Contains(string(c.ErrorDetails), "the agent did not return") &&
			strings.Contains(string(c.ErrorDetails), `"agent_returned":false`); said != deaf {
			t.Errorf("%s: error_details = %s; want it to say the agent did not return: %v", c.CaseID, c.ErrorDetails, deaf)
		}
	}
}

func TestExecute_ConcurrencyKeepsSuiteOrder(t *testing.T) {
	var b strings.Builder
	b.WriteString(`{"suite": "S", "agent": {"name": "A", "command": ["true"]}, "questions": [`)
	const n = 40
	for i := range n {
		if i > 0 {
			b.WriteString(",")
		}
		fmt.Fprintf(&b, `{"id": "q%02d", "question": "%d", "expected_answer": "%d", "minimum_scores": {"exact_match": 1}}`, i, i, i)
	}
	b.WriteString("]}")
	s := mustLoad(t, b.String())
	var inFlight, peak atomic.Int64
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		cur := inFlight.Add(1)
		defer inFlight.Add(-1)
		for {
			p := peak.Load()
			if cur <= p || peak.CompareAndSwap(p, cur) {
				break
			}
		}
		var i int
		fmt.Sscanf(q.ID, "q%d", &i)
		time.Sleep(time.Duration(n-i) * time.Millisecond) // later cases finish first
		return agent.Response{Output: q.Question}, nil
	})
	var mu sync.Mutex
	var progress []int
	run := mustExecute(t, s, a, ExecOptions{Concurrency: 8, Progress: func(p Progress) {
		mu.Lock()
		progress = append(progress, p.Done)
		mu.Unlock()
	}})
	for i, c := range run.Cases {
		if want := fmt.Sprintf("q%02d", i); c.CaseID != want || c.Position != i || c.Status != models.StatusPassed {
			t.Fatalf("case %d = %s at %d (%s), want %s", i, c.CaseID, c.Position, c.Status, want)
		}
	}
	if got := peak.Load(); got != 8 {
		t.Errorf("peak concurrency = %d, want 8", got)
	}
	if len(progress) != n || progress[n-1] != n {
		t.Errorf("progress calls = %v", progress)
	}
	if got := summaryOf(t, run)["concurrency"]; got != 8.0 {
		t.Errorf("summary concurrency = %v", got)
	}
}

func TestExecute_Interrupted(t *testing.T) {
	s := mustLoad(t, `{"suite": "S", "agent": {"name": "A", "command": ["true"]}, "questions": [
	  {"id": "a", "question": "1", "expected_answer": "1", "minimum_scores": {"exact_match": 1}},
	  {"id": "b", "question": "2", "expected_answer": "2", "minimum_scores": {"exact_match": 1}},
	  {"id": "c", "question": "3", "expected_answer": "3", "minimum_scores": {"exact_match": 1}},
	  {"id": "d", "question": "4", "expected_answer": "4", "minimum_scores": {"exact_match": 1}}]}`)
	ctx, cancel := context.WithCancel(context.Background())
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		if q.ID == "c" {
			cancel() // Ctrl-C arrives while c runs
			<-ctx.Done()
			return agent.Response{}, ctx.Err()
		}
		return agent.Response{Output: json.RawMessage(`""`)}, nil
	})
	run, err := Execute(ctx, s, a, ExecOptions{Concurrency: 1})
	var ie *InterruptedError
	if !errors.As(err, &ie) || run != nil {
		t.Fatalf("Execute = %v, %v, want an *InterruptedError and no run", run, err)
	}
	if ie.Finished != 2 || ie.Total != 4 || !errors.Is(err, context.Canceled) {
		t.Errorf("interrupted: %+v", ie)
	}
	if !strings.Contains(err.Error(), "2 of 4 cases finished, 2 unfinished; nothing was saved") {
		t.Errorf("message = %q", err)
	}
}

func TestExecute_AgentCannotAlterSuite(t *testing.T) {
	s := mustLoad(t, `{"suite": "S", "agent": {"name": "A", "command": ["true"]}, "questions": [
	  {"id": "a", "question": {"text": "hi"}, "expected_answer": "x", "metadata": {"secret": "s"}, "minimum_scores": {"exact_match": 1}}]}`)
	var seen []byte
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		seen, _ = json.Marshal(q)
		for i := range q.Question {
			q.Question[i] = 'X'
		}
		return agent.Response{Output: json.RawMessage(`"x"`)}, nil
	})
	run := mustExecute(t, s, a, ExecOptions{})
	if got := string(s.Cases[0].Question); got != `{"text":"hi"}` {
		t.Errorf("suite question after the agent ran = %s", got)
	}
	if got := string(run.Cases[0].Question); got != `{"text":"hi"}` {
		t.Errorf("persisted question = %s", got)
	}
	if want := `{"id":"a","name":"Question 1","question":{"text":"hi"}}`; string(seen) != want {
		t.Errorf("agent saw %s, want %s", seen, want)
	}
}

func TestConcurrency(t *testing.T) {
	for _, tc := range []struct{ n, cases, want int }{
		{0, 10, DefaultConcurrency},
		{-1, 10, DefaultConcurrency},
		{0, 2, 2},
		{8, 3, 3},
		{2, 10, 2},
		{0, 0, 1},
	} {
		if got := Concurrency(tc.n, tc.cases); got != tc.want {
			t.Errorf("Concurrency(%d, %d) = %d, want %d", tc.n, tc.cases, got, tc.want)
		}
	}
}
