package score

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// promptJudge keeps the prompts it is sent and answers with score, or
// fails when err is set.
type promptJudge struct {
	system, user string
	score        float64
	err          error
}

func (j *promptJudge) Assess(_ context.Context, system, user string) (Assessment, error) {
	j.system, j.user = system, user
	if j.err != nil {
		return Assessment{}, j.err
	}
	return Assessment{Score: j.score, Reason: "scripted"}, nil
}

func TestTaskCompletion_Prompt(t *testing.T) {
	calls := []Action{{Name: "issue_refund", Arguments: json.RawMessage(`{"order":1042}`)}}
	tests := []struct {
		name        string
		params      string
		sample      Sample
		want, avoid []string
	}{
		{"expected outcome from params", `{"expected_outcome": "Order 1042 is refunded."}`,
			Sample{Question: json.RawMessage(`"Refund order 1042"`), ExpectedAnswer: json.RawMessage(`"Done."`), Output: json.RawMessage(`"Refunded."`), Actions: calls},
			[]string{`[expected_outcome (untrusted reference)]` + "\n" + `"Order 1042 is refunded."`, `"name":"issue_refund"`, `[final_answer (untrusted)]` + "\n" + `"Refunded."`},
			[]string{"Done.", "[transcript"}},
		{"expected answer as the outcome", ``,
			Sample{Question: json.RawMessage(`"Refund order 1042"`), ExpectedAnswer: json.RawMessage(`"Done."`), Output: json.RawMessage(`"Refunded."`), Actions: []Action{}},
			[]string{"(untrusted reference: the expected answer)]\n\"Done.\"", "[tool_calls (untrusted; in the order made)]\n[]"}, nil},
		{"no outcome, not instrumented, with a transcript", ``,
			Sample{Question: json.RawMessage(`"Refund order 1042"`), Output: json.RawMessage(`"Refunded."`),
				ResponseMetadata: map[string]any{"transcript": []any{map[string]any{"role": "user", "content": "Refund it"}}}},
			[]string{"not recorded: the agent does not report its tool calls", `[transcript (untrusted; the conversation as the agent reported it)]` + "\n" + `[{"content":"Refund it","role":"user"}]`},
			[]string{"expected_outcome"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := &promptJudge{score: 0.75}
			sc, err := Builtins()["task_completion"].New(json.RawMessage(tt.params), j)
			if err != nil {
				t.Fatal(err)
			}
			a, err := sc.Score(context.Background(), tt.sample)
			if err != nil || a.Score != 0.75 || a.Details["metric_type"] != "task_completion" {
				t.Fatalf("assessment %+v, %v", a, err)
			}
			if !strings.Contains(j.system, "TASK COMPLETION") {
				t.Error("system prompt lacks the rubric")
			}
			for _, w := range tt.want {
				if !strings.Contains(j.user, w) {
					t.Errorf("user prompt lacks %q:\n%s", w, j.user)
				}
			}
			for _, w := range tt.avoid {
				if strings.Contains(j.user, w) {
					t.Errorf("user prompt has %q:\n%s", w, j.user)
				}
			}
		})
	}
	// A judge error is the metric's error.
	j := &promptJudge{err: &Error{Kind: KindTimeout, Message: "slow"}}
	sc, _ := Builtins()["task_completion"].New(nil, j)
	var se *Error
	if _, err := sc.Score(context.Background(), Sample{Output: json.RawMessage(`"x"`)}); !errors.As(err, &se) || se.Kind != KindTimeout {
		t.Errorf("judge error = %v", err)
	}
}

// TestRubricJudge_IgnoreLength: ignore_length adds the instruction to the
// system prompt; without it the prompt is as it was.
func TestRubricJudge_IgnoreLength(t *testing.T) {
	for _, tt := range []struct {
		params string
		want   bool
	}{{`{"rubric": "Polite?", "ignore_length": true}`, true}, {`{"rubric": "Polite?"}`, false}} {
		j := &promptJudge{score: 1}
		sc, err := Builtins()["llm_judge"].New(json.RawMessage(tt.params), j)
		if err != nil {
			t.Fatal(err)
		}
		if _, err := sc.Score(context.Background(), Sample{Output: json.RawMessage(`"Yes."`)}); err != nil {
			t.Fatal(err)
		}
		if got := strings.Contains(j.system, "Ignore length:"); got != tt.want {
			t.Errorf("%s: instruction present = %v, want %v", tt.params, got, tt.want)
		}
	}
}
