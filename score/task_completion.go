package score

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
)

// TranscriptKeys are the reply metadata keys a conversation transcript
// may be stored under, in the order they are looked for. A transcript is
// optional: without one the judge reads the answer and the tool calls.
var TranscriptKeys = []string{"transcript", "conversation"}

// TaskCompletion asks the judge whether the agent finished the job: the
// answer, every tool call it made and, when the reply carries one, the
// conversation transcript, against the expected outcome when there is one
// (the evaluator's expected_outcome, else the question's expected answer).
type TaskCompletion struct {
	outcome string
	judge   Judge
}

var _ Scorer = (*TaskCompletion)(nil)

const taskCompletionRubric = `TASK COMPLETION: did the agent finish the task the user asked for, not just produce plausible text?
Steps:
1. State the task and, when an expected outcome is given, what finishing it means.
2. Go through the tool calls (and the transcript, when given): name the steps that moved the task forward, the steps that failed or were skipped, and any action the user did not ask for.
3. Decide whether the final state meets the task (or the expected outcome): completed, partly completed or not completed.
Score: 1.0 when the task is completed; in between for partial completion, in proportion to what is left undone; 0 when it is not completed or the agent only claims to have done it without the calls that would do it.`

func newTaskCompletion(params json.RawMessage, judge Judge) (Scorer, error) {
	var p struct {
		ExpectedOutcome string `json:"expected_outcome"`
	}
	if err := decodeParams(params, &p, false); err != nil {
		return nil, fmt.Errorf(`%w: task_completion takes only {"expected_outcome": "..."}`, ErrInvalidParams)
	}
	if judge == nil {
		return nil, fmt.Errorf("%w: task_completion needs a judge", ErrInvalidParams)
	}
	return &TaskCompletion{outcome: strings.TrimSpace(p.ExpectedOutcome), judge: judge}, nil
}

func addTaskCompletion(r Registry) {
	r["task_completion"] = Definition{NeedsJudge: true, New: newTaskCompletion, Doc: Doc{
		Summary: "Judge: the agent finished the task, read from its answer, its tool calls and the reply's transcript when present, against the expected outcome when one is given.",
		Params: []Param{{Name: "expected_outcome", Schema: nonEmptyString,
			Description: "What finishing the task means; without it the question's expected_answer, and without that the question alone."}},
		Example: json.RawMessage(`{"expected_outcome": "A refund is issued for order 1042."}`)}}
}

// Score asks the judge once.
func (t *TaskCompletion) Score(ctx context.Context, s Sample) (Assessment, error) {
	a, err := t.judge.Assess(ctx, systemPrompt(taskCompletionRubric), t.prompt(s))
	if err != nil {
		return Assessment{}, err
	}
	details := map[string]any{"metric_type": "task_completion"}
	for k, v := range a.Details {
		details[k] = v
	}
	a.Details = details
	return a, nil
}

// prompt lays out the task's evidence, every value JSON-encoded.
func (t *TaskCompletion) prompt(s Sample) string {
	var b strings.Builder
	b.WriteString(contextBegin)
	section := func(label string, v any) { writeSection(&b, label, v) }
	section("task (untrusted; the question the agent was given)", rawOrText(s.Question))
	switch {
	case t.outcome != "":
		section("expected_outcome (untrusted reference)", t.outcome)
	case !isNull(s.ExpectedAnswer):
		section("expected_outcome (untrusted reference: the expected answer)", rawOrText(s.ExpectedAnswer))
	}
	if s.Actions == nil {
		section("tool_calls (untrusted)", "not recorded: the agent does not report its tool calls")
	} else {
		section("tool_calls (untrusted; in the order made)", s.Actions)
	}
	for _, k := range TranscriptKeys {
		if tr, ok := s.ResponseMetadata[k]; ok && tr != nil {
			section("transcript (untrusted; the conversation as the agent reported it)", tr)
			break
		}
	}
	section("final_answer (untrusted)", rawOrText(s.Output))
	b.WriteString("\nEND UNTRUSTED EVALUATION CONTEXT\n\nGrade the task completion with the rubric (task_completion) and reply with the JSON object only.")
	return b.String()
}
