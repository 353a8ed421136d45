// Package eval runs one evaluation end to end, the same way for every
// caller: baseline lookup, execution, save, comparison, reports and the
// exit decision.
package eval

import (
	"context"
	"errors"
	"time"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/money"
	"github.com/agentevals-go/agentevals/otlp"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// Task is one evaluation to run.
type Task struct {
	// Suite is the loaded and validated suite, already restricted to the
	// questions to ask (suite.Select, suite.Shard).
	Suite *suite.Suite
	// Agent answers the questions; the caller builds and closes it.
	Agent agent.Agent
	// Judge scores judge-backed metrics; nil calculates none of them.
	Judge score.Judge
	// Store is where the run goes.
	Store Store
	// Exec tunes how the questions are asked.
	Exec Exec
	// Gate chooses the baseline, the gate and the exit rule.
	Gate Gate
	// Reports are written after the comparison, in order.
	Reports []Report
	// Preflight, when set, is called once the baseline is resolved and
	// before the first agent call; an error stops the run (ExitInvalid).
	Preflight func(ctx context.Context) error
}

// Exec tunes how the questions are asked: runner.ExecOptions, whose Judge
// is Task.Judge, and the hooks that follow the execution.
type Exec struct {
	// Concurrency is how many questions run at once (0: the default).
	Concurrency int
	// Timeout bounds each agent call (0: the suite's agent.timeout).
	Timeout time.Duration
	// Repeat is how many times every question is answered and judged (0:
	// the suite's "repeat" key, else 1).
	Repeat int
	// Metadata is the run's metadata.
	Metadata map[string]any
	// Sanitize is what the sanitizer does beyond repair and credential
	// redaction (run --redact-pii).
	Sanitize sanitize.Policy
	// JudgeDisabled says Judge is nil on purpose (--no-judge).
	JudgeDisabled bool
	// JudgeSpend caps what the judge's metric calls may cost (nil: no
	// cap; runner.ExecOptions.JudgeSpend).
	JudgeSpend *money.Meter
	// ExtraSummary adds keys to the run summary after the last question.
	ExtraSummary func() map[string]any
	// Provenance is where the run is made (provenance.Collect); nil
	// records none.
	Provenance *models.Provenance
	// Record records the agent's requests instead of replaying fixtures.
	Record *suite.Recordings
	// Traces receives the agent's spans (nil: tracing off).
	Traces *otlp.Receiver
	// Stop, when closed, starts no further question; the running ones
	// finish and the finished cases are kept (runner.ExecOptions.Stop).
	// StopReason names what closed it.
	Stop       <-chan struct{}
	StopReason func() string
	// Observed gives each case's answer as already observed (production
	// traces): the agent is not called.
	Observed func(caseID string) (runner.Observed, bool)
	// Started is called just before the first question is asked, Progress
	// after each question (one call at a time), Finished when the
	// execution ended, successfully or not, before anything is saved.
	Started  func()
	Progress func(runner.Progress)
	Finished func()
}

// Result is what Run did.
type Result struct {
	// Run is the executed run, prepared for saving (ids and timestamps set).
	Run *models.Run
	// Calculated is the sorted set of metric names the run calculated.
	Calculated []string
	// Baseline is the run compared with; nil when there is none (or no
	// database to look one up in).
	Baseline *models.Run
	// Origin says where Baseline came from and what is doubtful about it
	// (nil without a baseline).
	Origin *models.GateBaseline
	// NoBaseline says why there is no automatic baseline when the reason is
	// not the usual one (the first run of the definition); "" otherwise.
	NoBaseline string
	// Comparison is the run compared with Baseline under the gate.
	Comparison *compare.Comparison
	// Evidence says where the run went.
	Evidence Evidence
	// Reports are the reports written, in order.
	Reports []Written
	// Notes are problems that did not stop the run (flaky questions not
	// marked, annotations without locations), one line each.
	Notes []string
	// Outage lists why the run failed from infrastructure (every agent
	// call or every judge call failed); empty when it did not.
	Outage []string
	// Decision is the exit code and the line that says why.
	Decision Decision
}

// Run evaluates the task: it resolves the baseline (before any agent
// call), runs Preflight, asks every question, keeps the run in the store,
// compares it with the baseline, writes the reports and decides the exit
// code. An error is an *Error with its exit code; when the run was executed
// the Result so far comes with it (Comparison is nil when the error came
// before the comparison).
func Run(ctx context.Context, t Task) (*Result, error) {
	if err := t.Gate.Validate(); err != nil {
		return nil, failure(StageOptions, ExitInvalid, err)
	}
	if err := t.Store.validate(); err != nil {
		return nil, failure(StageOptions, ExitInvalid, err)
	}
	res := &Result{Calculated: t.Suite.Calculated(t.Judge != nil)}
	db := t.Store.DB
	plan := t.Suite.Plan(res.Calculated) // planned once: the baseline is looked up with it, then it is executed
	base, origin, err := t.Gate.FindBaseline(ctx, db, plan, res.Calculated)
	if err != nil {
		return nil, err
	}
	res.Baseline, res.Origin = base, origin
	if t.Preflight != nil {
		if err := t.Preflight(ctx); err != nil {
			return nil, failure(StagePreflight, ExitInvalid, err)
		}
	}
	run, err := execute(ctx, t, plan, res.Calculated)
	if err != nil {
		return nil, err
	}
	res.Run = run
	res.Outage = compare.InfrastructureFailures(run)
	res.Comparison, res.NoBaseline = t.Gate.compare(ctx, db, res)
	res.Comparison.Ungate(t.Gate.Uncalibrated)
	res.Decision = t.Gate.decide(res.Comparison, len(res.Outage) > 0, false)
	if db != nil || t.Gate.BaselineFrom != "" { // a baseline was looked for: the decision is the run's
		if err := t.Gate.record(res, t.Exec.Provenance); err != nil {
			return res, failure(StageSave, ExitFailed, err)
		}
	}
	if res.Evidence, err = t.Store.keep(ctx, run, t.Suite, res.Calculated); err != nil {
		res.Comparison, res.Decision = nil, Decision{} // nothing more is done with a run that could not be kept
		return res, err
	}
	if res.Evidence.Kept == Spooled {
		res.Decision = t.Gate.decide(res.Comparison, len(res.Outage) > 0, true)
	}
	written, notes, err := writeReports(t.Reports, res.Comparison, t.Suite.Path)
	res.Reports, res.Notes = written, append(res.Notes, notes...)
	if err != nil {
		return res, failure(StageReport, ExitInvalid, err)
	}
	return res, nil
}

// execute asks every question of the suite. An interrupted run is an
// ExitFailed Error, whose finished cases are kept in an evidence file
// (Store.keepInterrupted); any other failure is ExitInvalid.
func execute(ctx context.Context, t Task, plan *models.Run, calculated []string) (*models.Run, error) {
	e := t.Exec
	opts := runner.ExecOptions{Judge: t.Judge, JudgeDisabled: e.JudgeDisabled, JudgeSpend: e.JudgeSpend, Concurrency: e.Concurrency,
		Timeout: e.Timeout, Metadata: e.Metadata, Progress: e.Progress, ExtraSummary: e.ExtraSummary,
		Repeat: e.Repeat, Record: e.Record, Provenance: e.Provenance, Traces: e.Traces, Sanitize: e.Sanitize,
		Stop: e.Stop, StopReason: e.StopReason, Observed: e.Observed, Plan: plan}
	if e.Started != nil {
		e.Started()
	}
	run, err := runner.Execute(ctx, t.Suite, t.Agent, opts)
	if e.Finished != nil {
		e.Finished()
	}
	if err == nil {
		return run, nil
	}
	var interrupted *runner.InterruptedError
	if errors.As(err, &interrupted) {
		if interrupted.Run != nil {
			err = t.Store.keepInterrupted(interrupted, t.Suite, calculated)
		}
		return nil, &Error{Code: ExitFailed, Stage: StageExecute, Err: err}
	}
	return nil, &Error{Code: ExitInvalid, Stage: StageExecute, Err: err}
}
