package eval

import (
	"errors"
	"fmt"
)

// Exit codes of a decision and of an Error.
const (
	ExitOK      = 0
	ExitFailed  = 1 // failed or errored checks, a gated regression, an interrupted run or an outage
	ExitInvalid = 2 // invalid suite, options, configuration or baseline, or a failed preflight
	// ExitNotSaved: the run finished but the database save failed; its
	// evidence file was written instead.
	ExitNotSaved = 3
)

// Stage names the step of the pipeline an Error comes from.
type Stage string

// The stages of Run, in order.
const (
	StageOptions   Stage = "options"   // the Task is invalid
	StageBaseline  Stage = "baseline"  // the baseline could not be resolved
	StagePreflight Stage = "preflight" // Task.Preflight refused
	StageExecute   Stage = "execute"   // the questions could not be asked, or the run was interrupted
	StageSave      Stage = "save"      // the run could be kept nowhere, or the save was interrupted
	StageReport    Stage = "report"    // a report could not be written
)

// Error is a failure of Run with the exit code it calls for. Its message
// is Err's: the stage is for callers that add context, never part of the
// text. A nil Err exits quietly with Code.
type Error struct {
	Code  int
	Stage Stage
	Err   error
}

func (e *Error) Error() string {
	if e.Err == nil {
		return fmt.Sprintf("exit %d", e.Code)
	}
	return e.Err.Error()
}

func (e *Error) Unwrap() error { return e.Err }

// failure is err as an Error of stage with code; an err that already is
// (or wraps) an Error is returned as it is, with its own code.
func failure(stage Stage, code int, err error) error {
	var e *Error
	if errors.As(err, &e) {
		return err
	}
	return &Error{Code: code, Stage: stage, Err: err}
}
