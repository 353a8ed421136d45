package outcome

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/suite"
)

// StepInput is what a setup or teardown program reads on stdin: the
// question, without the agent's answer.
type StepInput struct {
	Phase          string          `json:"phase"` // "setup" or "teardown"
	RunID          string          `json:"run_id"`
	CaseID         string          `json:"case_id"`
	Name           string          `json:"name,omitempty"`
	Question       json.RawMessage `json:"question"`
	ExpectedAnswer json.RawMessage `json:"expected_answer"`
	Metadata       map[string]any  `json:"metadata"`
}

// StepError is a failed setup or teardown step of a question.
type StepError struct {
	Phase, Source, CaseID string
	Err                   error
}

func (e *StepError) Error() string {
	return fmt.Sprintf("%s of question %q failed (%s): %v", e.Phase, e.CaseID, e.Source, e.Err)
}

func (e *StepError) Unwrap() error { return e.Err }

// Setup runs the suite's setup steps for the case, in order, stopping at
// the first that fails.
func (rt *Runtime) Setup(ctx context.Context, c *suite.Case) error {
	return rt.steps(ctx, "setup", rt.suite.Setup, c)
}

// Teardown runs the suite's teardown steps for the case, every one of
// them, and returns their failures.
func (rt *Runtime) Teardown(ctx context.Context, c *suite.Case) error {
	return rt.steps(ctx, "teardown", rt.suite.Teardown, c)
}

func (rt *Runtime) steps(ctx context.Context, phase string, steps []suite.Step, c *suite.Case) error {
	if len(steps) == 0 {
		return nil
	}
	meta := decodeMetadata(c.Metadata)
	var errs []error
	for _, st := range steps {
		if err := rt.step(ctx, phase, st, c, meta); err != nil {
			errs = append(errs, &StepError{Phase: phase, Source: st.Source, CaseID: c.ID, Err: err})
			if phase == "setup" {
				break
			}
		}
	}
	return errors.Join(errs...)
}

// defaultStepTimeout bounds a step that states no timeout.
const defaultStepTimeout = 60 * time.Second

func (rt *Runtime) step(ctx context.Context, phase string, st suite.Step, c *suite.Case, meta map[string]any) error {
	timeout := time.Duration(st.Timeout)
	if timeout <= 0 {
		timeout = defaultStepTimeout
	}
	if st.Command == nil {
		args, err := argValues(st.Args, c.ID, rt.opts.RunID, meta)
		if err != nil {
			return err
		}
		return rt.dbs[st.Database].exec(ctx, timeout, st.SQL, args)
	}
	prog, err := rt.program(ProgramSpec{Command: st.Command, Env: st.Env, Dir: rt.suite.Dir, Timeout: timeout})
	if err != nil {
		return err
	}
	in, err := json.Marshal(StepInput{Phase: phase, RunID: rt.opts.RunID, CaseID: c.ID, Name: c.Name,
		Question: c.Question, ExpectedAnswer: c.ExpectedAnswer, Metadata: meta})
	if err != nil {
		return err
	}
	if _, err := prog.Exchange(ctx, in); err != nil {
		return fmt.Errorf("program %s: %w", strings.Join(st.Command, " "), err)
	}
	return nil
}

// decodeMetadata decodes a case's metadata object (numbers as float64).
func decodeMetadata(raw json.RawMessage) map[string]any {
	m := map[string]any{}
	_ = json.Unmarshal(raw, &m) // loaded metadata is always an object
	return m
}
