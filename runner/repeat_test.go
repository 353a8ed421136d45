package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"math"
	"strings"
	"sync"
	"testing"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// answerJudge scores by the answer it finds in the prompt: each answer
// "<id>#<n>" maps to a score, or to an error when the score is negative.
type answerJudge struct {
	scores map[string]float64
}

func (j answerJudge) Assess(_ context.Context, _, user string) (score.Assessment, error) {
	for answer, s := range j.scores {
		if strings.Contains(user, answer+".") {
			if s < 0 {
				return score.Assessment{}, &score.Error{Kind: score.KindInvalidReply, Message: "not a verdict"}
			}
			return score.Assessment{Score: s, Reason: "judged " + answer, Usage: &score.Usage{InputTokens: 10, OutputTokens: 1}}, nil
		}
	}
	return score.Assessment{}, fmt.Errorf("unscripted prompt %q", user)
}

// countingAgent answers "<id>#<n>." on its n-th call for a question (1-based)
// and fails the calls listed in fail.
func countingAgent(fail map[string]bool) agent.Agent {
	var mu sync.Mutex
	n := map[string]int{}
	return agent.Func(func(_ context.Context, q agent.Question) (agent.Response, error) {
		mu.Lock()
		n[q.ID]++
		answer := fmt.Sprintf("%s#%d", q.ID, n[q.ID])
		mu.Unlock()
		if fail[answer] {
			return agent.Response{}, &adapter.Error{Kind: "exit_status", Message: "scripted failure"}
		}
		out, _ := json.Marshal(answer + ".")
		in, cost := int64(5), 0.25
		return agent.Response{Output: out, InputTokens: &in, Cost: &cost}, nil
	})
}

const repeatSuite = `{
  "suite": "Repeats", "agent": {"name": "A", "command": ["true"]},
  "repeat": 3,
  "questions": [
    {"id": "mixed", "question": "q1", "expected_answer": "a", "minimum_scores": {"semantic_accuracy": 0.8}},
    {"id": "judge_error", "question": "q2", "expected_answer": "a", "minimum_scores": {"semantic_accuracy": 0.8}},
    {"id": "agent_error", "question": "q3", "expected_answer": "a", "minimum_scores": {"semantic_accuracy": 0.8}},
    {"id": "steady", "question": "q4", "expected_answer": "a", "minimum_scores": {"semantic_accuracy": 0.9}}
  ]
}`

func TestExecute_Repeats(t *testing.T) {
	s := mustLoad(t, repeatSuite)
	if s.Repeat != 3 {
		t.Fatalf("suite repeat = %d, want 3", s.Repeat)
	}
	judge := answerJudge{scores: map[string]float64{
		"mixed#1": 0.9, "mixed#2": 0.7, "mixed#3": 0.9,
		"judge_error#1": 0.9, "judge_error#2": -1, "judge_error#3": 0.8,
		"agent_error#1": 0.9, "agent_error#3": 0.9,
		"steady#1": 0.9, "steady#2": 0.9, "steady#3": 0.9,
	}}
	run := mustExecute(t, s, countingAgent(map[string]bool{"agent_error#2": true}), ExecOptions{Judge: judge, Concurrency: 2})
	byID := map[string]*models.CaseResult{}
	for _, c := range run.Cases {
		byID[c.CaseID] = c
	}
	type want struct {
		status  string
		score   *float64
		passed  bool
		reason  string
		at, hat any
		scores  []any
	}
	f := func(v float64) *float64 { return &v }
	tests := map[string]want{
		"mixed":       {models.StatusPassed, f((0.9 + 0.7 + 0.9) / 3), true, "mean of 3: 0.833 (0.90, 0.70, 0.90); first failing, repeat 2: judged mixed#2", true, false, []any{0.9, 0.7, 0.9}},
		"judge_error": {models.StatusError, nil, false, "error in 1 of 3 repeats (repeat 2: error: invalid_reply: not a verdict); mean of 2 scored of 3: 0.850 (0.90, 0.80)", true, false, []any{0.9, nil, 0.8}},
		"agent_error": {models.StatusError, f(0.9), false, "mean of 2 scored of 3: 0.900 (0.90, 0.90); 1 of 3 repeats not scored (not calculated: agent error), so it cannot pass; repeat 1: judged agent_error#1", true, false, []any{0.9, nil, 0.9}},
		"steady":      {models.StatusPassed, f(0.9), true, "mean of 3: 0.900 (0.90, 0.90, 0.90); repeat 1: judged steady#1", true, true, []any{0.9, 0.9, 0.9}},
	}
	for id, w := range tests {
		t.Run(id, func(t *testing.T) {
			c := byID[id]
			if c.Status != w.status {
				t.Errorf("status = %s, want %s (error %s)", c.Status, w.status, c.ErrorDetails)
			}
			m := c.Metrics[0]
			if (m.Score == nil) != (w.score == nil) || (m.Score != nil && math.Abs(*m.Score-*w.score) > 1e-12) {
				t.Errorf("score = %v, want %v", ptrText(m.Score), ptrText(w.score))
			}
			if m.Passed != w.passed {
				t.Errorf("passed = %v, want %v", m.Passed, w.passed)
			}
			if m.Reason == nil || *m.Reason != w.reason {
				t.Errorf("reason = %q\nwant     %q", ptrText(m.Reason), w.reason)
			}
			var meta struct {
				Repeats      []map[string]any `json:"repeats"`
				RepeatScores map[string][]any `json:"repeat_scores"`
				At           any              `json:"pass_at_k"`
				Hat          any              `json:"pass_hat_k"`
				JudgeUsage   map[string]models.CallAccount
			}
			if err := c.ResponseMetadata.Decode(&meta); err != nil {
				t.Fatal(err)
			}
			if len(meta.Repeats) != 3 || meta.At != w.at || meta.Hat != w.hat {
				t.Errorf("repeats %d, pass_at_k %v, pass_hat_k %v; want 3, %v, %v", len(meta.Repeats), meta.At, meta.Hat, w.at, w.hat)
			}
			if got := fmt.Sprint(meta.RepeatScores["semantic_accuracy"]); got != fmt.Sprint(w.scores) {
				t.Errorf("repeat_scores = %s, want %v", got, w.scores)
			}
			if got, want := string(c.Output), fmt.Sprintf(`"%s#1."`, id); got != want {
				t.Errorf("output = %s, want the first repeat's %s", got, want)
			}
		})
	}
	ae := byID["agent_error"]
	if !strings.Contains(string(ae.ErrorDetails), "repeat 2 (1 of 3 repeats failed)") || !strings.Contains(string(ae.ErrorDetails), `"kind":"exit_status"`) {
		t.Errorf("agent error details = %s", ae.ErrorDetails)
	}
	if got := *ae.InputTokens; got != 10 {
		t.Errorf("input tokens = %d, want 10 (two answered repeats of 5)", got)
	}
	if got := *byID["steady"].Cost; got != "0.75" {
		t.Errorf("cost = %v, want 0.75 (three repeats of 0.25)", got)
	}
	var je map[string]any
	if err := byID["judge_error"].Metrics[0].ErrorDetails.Decode(&je); err != nil || je["kind"] != score.KindInvalidReply || je["errored_repeats"] != 1.0 {
		t.Errorf("metric error details = %s", byID["judge_error"].Metrics[0].ErrorDetails)
	}
	sum := summaryOf(t, run)
	if sum["repeats"] != 3.0 || sum["pass_at_k"] != 1.0 || sum["pass_hat_k"] != 0.25 {
		t.Errorf("summary repeats %v, pass_at_k %v, pass_hat_k %v; want 3, 1, 0.25", sum["repeats"], sum["pass_at_k"], sum["pass_hat_k"])
	}
	ju, _ := sum["judge_usage"].(map[string]any)
	if ju["calls"] != 10.0 {
		t.Errorf("judge calls = %v, want 10 (12 repeats less the agent error and the judge error, which this scripted judge does not account)", ju["calls"])
	}
	if _, marked := sum[models.InfrastructureFailureKey]; marked {
		t.Errorf("summary marked as an infrastructure failure: %v", sum[models.InfrastructureFailureKey])
	}
}

func TestExecute_RepeatDoesNotChangeTheDigest(t *testing.T) {
	s := mustLoad(t, repeatSuite)
	once := mustLoad(t, strings.Replace(repeatSuite, `"repeat": 3,`, "", 1))
	calc := s.Calculated(true)
	if a, b := s.Plan(calc).SuiteDigest, once.Plan(calc).SuiteDigest; a != b {
		t.Errorf("digest with repeat 3 = %s, without = %s; want equal", a, b)
	}
	run := mustExecute(t, once, countingAgent(nil), ExecOptions{Judge: answerJudge{scores: map[string]float64{
		"mixed#1": 1, "judge_error#1": 1, "agent_error#1": 1, "steady#1": 1}}})
	sum := summaryOf(t, run)
	if _, ok := sum["repeats"]; ok {
		t.Errorf("a run without repeats has summary.repeats = %v", sum["repeats"])
	}
	if strings.Contains(string(run.Cases[0].ResponseMetadata), "repeat_scores") {
		t.Errorf("a run without repeats stores repeat evidence: %s", run.Cases[0].ResponseMetadata)
	}
}

// TestRepeatOf: every agent call of a repeated run sees its own repeat
// index and K in its context, whatever the concurrency; an unrepeated run
// reports (0, 1).
func TestRepeatOf(t *testing.T) {
	for _, k := range []int{1, 3} {
		t.Run(fmt.Sprint("repeat ", k), func(t *testing.T) {
			var mu sync.Mutex
			seen := map[string]int{}
			a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
				i, total := RepeatOf(ctx)
				mu.Lock()
				seen[fmt.Sprintf("%s %d/%d", q.ID, i, total)]++
				mu.Unlock()
				out, _ := json.Marshal(q.ID + "#1.")
				return agent.Response{Output: out}, nil
			})
			s := mustLoad(t, repeatSuite)
			mustExecute(t, s, a, ExecOptions{Repeat: k, Concurrency: 4, JudgeDisabled: true})
			if len(seen) != len(s.Cases)*k {
				t.Errorf("calls seen %v, want each of %d questions at each of %d repeats", seen, len(s.Cases), k)
			}
			for _, c := range s.Cases {
				for i := range k {
					if n := seen[fmt.Sprintf("%s %d/%d", c.ID, i, k)]; n != 1 {
						t.Errorf("%s repeat %d of %d: %d calls, want 1", c.ID, i, k, n)
					}
				}
			}
		})
	}
	if i, k := RepeatOf(context.Background()); i != 0 || k != 1 {
		t.Errorf("RepeatOf(background) = %d, %d; want 0, 1", i, k)
	}
}

func TestLoad_RepeatKey(t *testing.T) {
	for _, tc := range []struct{ value, want string }{
		{"0", "got 0"}, {"101", "got 101"}, {"2.5", "got 2.5"}, {`"3"`, `got "3"`}, {"null", "got null"},
	} {
		t.Run(tc.value, func(t *testing.T) {
			_, err := suite.Load(testfile.Write(t, t.TempDir(), "suite.json", strings.Replace(repeatSuite, `"repeat": 3`, `"repeat": `+tc.value, 1)))
			var ve *suite.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("err = %v, want a *ValidationError", err)
			}
			if msg := err.Error(); !strings.Contains(msg, "$.repeat") || !strings.Contains(msg, "from 1 to 100") || !strings.Contains(msg, tc.want) {
				t.Errorf("error = %q, want $.repeat, the rule and %q", msg, tc.want)
			}
		})
	}
}

func ptrText[T any](p *T) string {
	if p == nil {
		return "<nil>"
	}
	return fmt.Sprint(*p)
}
