package runner

import (
	"context"
	"errors"
	"fmt"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/outcome"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// reasonSetupFailed is the reason of the metrics of a question whose setup
// failed: the agent was not asked.
const reasonSetupFailed = models.NotCalculatedPrefix + "setup failed"

// runScorers gathers the run's scorers (built when the suite was loaded),
// with the suite's outcome checks bound to the run when it has any (the
// runtime is then not nil; Close on a nil runtime does nothing).
func runScorers(ctx context.Context, s *suite.Suite, run *models.Run, conc int, calculated []string, withJudge bool) (*outcome.Runtime, ScorerSet, error) {
	scorers, err := Scorers(s, calculated, withJudge)
	if err != nil {
		return nil, ScorerSet{}, err
	}
	oc, err := openOutcome(ctx, s, run, conc)
	if err != nil {
		return nil, ScorerSet{}, fmt.Errorf("execute suite: %w", err)
	}
	if oc == nil {
		return nil, scorers, nil
	}
	if scorers, err = scorers.bind(s, oc.Bind(s.Registry)); err != nil {
		oc.Close()
		return nil, ScorerSet{}, err
	}
	return oc, scorers, nil
}

// answerStepped is answer between the suite's setup and teardown steps.
func (e *executor) answerStepped(ctx context.Context, c *suite.Case, rec *models.CaseResult) {
	e.withSetup(ctx, c, rec, func() { e.answer(ctx, c, rec) })
}

// openOutcome binds the suite's outcome checks, databases and steps to the
// run (package outcome); nil when the suite has none. The run gets its id
// now, so that checks and steps can scope their data to it.
func openOutcome(ctx context.Context, s *suite.Suite, run *models.Run, conc int) (*outcome.Runtime, error) {
	if !outcome.Used(s) {
		return nil, nil
	}
	if err := findPrograms(s); err != nil {
		return nil, err
	}
	if run.ID == uuid.Nil {
		id, err := uuid.NewV7()
		if err != nil {
			return nil, err
		}
		run.ID = id
	}
	return outcome.Open(ctx, s, outcome.Options{RunID: run.ID.String(), NewProgram: func(spec outcome.ProgramSpec) outcome.Exchanger {
		return programExchanger{adapter.NewProgram(adapter.ProgramConfig{Command: spec.Command, Dir: spec.Dir, Env: spec.Env,
			Timeout: spec.Timeout, Worker: spec.Worker, Concurrency: conc})}
	}})
}

// programExchanger reports the adapter's errors as outcome.ProgramError.
type programExchanger struct{ p *adapter.Program }

var _ outcome.Exchanger = programExchanger{}

func (x programExchanger) Exchange(ctx context.Context, in []byte) ([]byte, error) {
	out, err := x.p.Exchange(ctx, in)
	var ae *adapter.Error
	if errors.As(err, &ae) {
		return nil, &outcome.ProgramError{Kind: ae.Kind, Message: ae.Message, Details: ae.Details}
	}
	return out, err
}

func (x programExchanger) Close() error { return x.p.Close() }

// teardownGrace bounds teardown after the run was interrupted.
const teardownGrace = 30 * time.Second

// withSetup runs the suite's setup for the case, then answer, then the
// teardown, which runs even when the agent failed. A failed setup makes
// the case an error whose metrics are not calculated; a failed teardown
// makes it an error too, its metrics kept.
func (e *executor) withSetup(ctx context.Context, c *suite.Case, rec *models.CaseResult, answer func()) {
	if e.outcome == nil {
		answer()
		return
	}
	if err := e.outcome.Setup(ctx, c); err != nil {
		rec.Status = models.StatusError
		rec.ErrorDetails = agentErrorJSON(&adapter.Error{Kind: "setup", Message: err.Error()})
		for pos, m := range c.Metrics {
			rec.Metrics = append(rec.Metrics, notCalculated(pos, m, reasonSetupFailed))
		}
	} else {
		answer()
	}
	tctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), teardownGrace)
	defer cancel()
	if err := e.outcome.Teardown(tctx, c); err != nil && rec.Status != models.StatusError {
		rec.Status = models.StatusError
		rec.ErrorDetails = agentErrorJSON(&adapter.Error{Kind: "teardown", Message: err.Error()})
	}
}

// findPrograms refuses, before any question is asked, a verifier or step
// whose program does not exist, naming the file and field.
func findPrograms(s *suite.Suite) error {
	find := func(where string, command []string) error {
		err := adapter.FindProgram(suite.AgentConfig{Type: suite.AgentCommand, Command: command, Dir: s.Dir})
		if err != nil {
			return fmt.Errorf("%s.command: %w", where, err)
		}
		return nil
	}
	verifier := func(where string, ev suite.Evaluator) error {
		if ev.Type != score.Verifier {
			return nil
		}
		p, _, err := score.ParseVerifier(ev.Params)
		if err != nil {
			return fmt.Errorf("%s: %w", where, err)
		}
		return find(where, p.Command)
	}
	for _, st := range append(append([]suite.Step(nil), s.Setup...), s.Teardown...) {
		if st.Command != nil {
			if err := find(st.Source, st.Command); err != nil {
				return err
			}
		}
	}
	for _, ev := range s.Evaluators {
		if err := verifier(s.Path+": "+suite.Child(suite.Child("$.evaluators", ev.Name), "params"), ev); err != nil {
			return err
		}
	}
	for _, c := range s.Cases {
		for i, ev := range c.Checks {
			if err := verifier(fmt.Sprintf("%s.checks[%d]", c.Source, i), ev); err != nil {
				return err
			}
		}
	}
	return nil
}
