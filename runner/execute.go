package runner

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"net/http"
	"sync"
	"time"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/money"
	"github.com/agentevals-go/agentevals/otlp"
	"github.com/agentevals-go/agentevals/outcome"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// DefaultConcurrency is how many cases run at once unless told otherwise:
// agents are mostly waiting on remote models whose rate limits punish
// bursts, process agents boot an interpreter per case and CI machines often
// have two cores; four gives most of the speed-up of parallelism without
// tripping rate limits. Raise it with --concurrency for fast local agents.
const DefaultConcurrency = 4

// Concurrency is how many of cases cases run at once when n are asked for:
// n, or min(DefaultConcurrency, cases) when n <= 0, never more than cases
// and at least 1.
func Concurrency(n, cases int) int {
	if n <= 0 {
		n = DefaultConcurrency
	}
	return max(1, min(n, cases))
}

// ExecOptions tune Execute.
type ExecOptions struct {
	// Judge scores judge-backed metrics; nil means none is configured and
	// those metrics are not calculated.
	Judge score.Judge
	// JudgeSpend, when set, caps what the judge's metric calls may cost
	// (runner/spend.go): once it is reached no judged metric starts, and
	// the rest are not calculated.
	JudgeSpend *money.Meter
	// JudgeDisabled says Judge is nil because the caller switched the
	// judge off on purpose (evalrun --no-judge); the reasons of the metrics
	// that were not calculated then say so.
	JudgeDisabled bool
	// Concurrency is how many cases run at once (default
	// min(DefaultConcurrency, number of cases)).
	Concurrency int
	// Timeout bounds each agent call when positive (on top of the agent's own).
	Timeout time.Duration
	// Metadata is the run's metadata (a JSON object; default {}).
	Metadata map[string]any
	// Sanitize is what the sanitizer does to every stored column beyond
	// repair and credential redaction (PII: personal data too).
	Sanitize sanitize.Policy
	// Progress, when set, is called after each case finishes, one call at a time.
	Progress func(Progress)
	// ExtraSummary, when set, is called after every case finished; its keys
	// are added to the run summary (e.g. judge cache hits). It never
	// replaces a key the runner computes, except that a models.CallAccount
	// under "judge_usage" (judge calls made outside the metrics, such as
	// pairwise verdicts) is added to the summary's judge_usage.
	ExtraSummary func() map[string]any
	// Provenance, when set, is saved as the summary's provenance.
	Provenance *models.Provenance
	// Repeat is how many times every question is answered and judged
	// (1..MaxRepeat); 0 means the suite's "repeat" key, else 1. With more
	// than one the case row holds the mean of the repeats (see
	// mergeRepeats in runner/repeat.go).
	Repeat int
	// Record, when set, records instead of replaying: every case's requests
	// go to their real hosts (through Upstream) and are kept in Record,
	// declared api_interactions are not used (runner/record.go).
	Record *suite.Recordings
	// Simulator plays the user of scenario questions; nil: the judge, when
	// it can (runner/simulate.go).
	Simulator UserSimulator
	// Upstream carries recorded requests to their hosts (nil:
	// http.DefaultTransport).
	Upstream http.RoundTripper
	// Traces, when set, gives every agent call its own trace on this
	// receiver and reads the agent's spans (runner/trace.go).
	Traces *otlp.Receiver
	// Stop, when closed, starts no further question: the questions being
	// asked finish (ctx still bounds them) and Execute returns an
	// *InterruptedError holding the finished cases. StopReason says why
	// (the signal), for the summary's interrupted record.
	Stop       <-chan struct{}
	StopReason func() string
	// Observed, when set, gives each case's observed answer: no agent call (runner/observed.go).
	Observed func(caseID string) (Observed, bool)
	// Plan, when set, is the suite's Plan for the calculated metrics,
	// already made by the caller (to look the baseline up): Execute fills
	// it in and returns it instead of planning again.
	Plan *models.Run
}

// caseHook prepares one case (a replay session): it returns the context for
// the agent call (e.g. with WithEnv or WithHTTPClient) and an optional
// function that sees the agent's reply, may turn it into an agent error and
// returns the case's replay evidence. An error makes the case an agent
// error.
type caseHook func(ctx context.Context, c *suite.Case) (context.Context, afterCall, error)

// afterCall sees an agent's reply (or error) and returns them with the
// case's replay evidence.
type afterCall func(agent.Response, error) (agent.Response, *models.APIReplay, error)

// Progress reports one finished case.
type Progress struct {
	Done, Total int
	Case        *models.CaseResult
}

// InterruptedError is returned by Execute when its context ends, or Stop
// is closed, before every case finished. Run, when not nil, holds the
// finished cases (at their suite positions) with a summary marked
// interrupted (models.Interrupted): evidence to keep, never a baseline. It
// is set only when ExecOptions.Stop was given.
type InterruptedError struct {
	Finished, Total int
	Cause           error
	Run             *models.Run
}

// Error says how many cases finished and that nothing was saved.
func (e *InterruptedError) Error() string {
	cases := "cases"
	if e.Total == 1 {
		cases = "case"
	}
	kept := "nothing was saved"
	if e.Run != nil {
		kept = "the finished ones are kept"
	}
	return fmt.Sprintf("execute suite: interrupted (%v): %d of %d %s finished, %d unfinished; %s",
		e.Cause, e.Finished, e.Total, cases, e.Total-e.Finished, kept)
}

// Unwrap returns the context's cause (context.Canceled, a signal, …).
func (e *InterruptedError) Unwrap() error { return e.Cause }

// Reasons written for metrics that were not calculated.
const (
	reasonNoJudge       = models.NotCalculatedPrefix + "no judge configured"
	reasonJudgeDisabled = models.NotCalculatedPrefix + "judge disabled for this run"
	reasonAgentError    = models.NotCalculatedPrefix + "agent error"
	reasonSpendCap      = models.NotCalculatedPrefix + "judge spend cap reached"
)

// Execute runs every case of the suite against the agent, scores the
// answers and returns the finished run record (cases and metrics in suite
// order) ready for models.DB.InsertRun. All agent and scorer calls have
// finished when it returns. When ctx ends first it returns an
// *InterruptedError and no run.
func Execute(ctx context.Context, s *suite.Suite, a agent.Agent, opts ExecOptions) (*models.Run, error) {
	calculated := s.Calculated(opts.Judge != nil)
	run := opts.Plan
	if run == nil {
		run = s.Plan(calculated)
	}
	meta := opts.Metadata
	if meta == nil {
		meta = map[string]any{}
	}
	var err error
	if run.Metadata, err = models.NewJSON(meta); err != nil {
		return nil, fmt.Errorf("execute suite: run metadata: %w", err)
	}
	// --metadata and experiment variant metadata are operator text: stored
	// and shown redacted like every other string.
	if out, _ := opts.Sanitize.JSON(run.Metadata); out != nil {
		run.Metadata = models.JSON(out)
	}
	conc := Concurrency(opts.Concurrency, len(s.Cases))
	oc, scorers, err := runScorers(ctx, s, run, conc, calculated, opts.Judge != nil) // runner/outcome.go
	if err != nil {
		return nil, err
	}
	defer oc.Close()
	ctx = score.WithJudge(ctx, opts.Judge)              // the judge that judge-backed scorers ask
	hook, closeReplay, err := installReplay(s, a, opts) // runner/replay.go
	if err != nil {
		return nil, err
	}
	defer closeReplay()
	repeat, err := repeatCount(opts.Repeat, s.Repeat)
	if err != nil {
		return nil, err
	}
	e := &executor{suite: s, agent: a, opts: opts, hook: hook, scorers: scorers, run: run,
		repeat: repeat, judgeMetrics: JudgeMetrics(s, calculated), outcome: oc, done: make([]bool, len(s.Cases))}
	run.StartedAt = time.Now()
	jobs := make(chan int)
	pool := &slots{ch: make(chan struct{}, conc)}
	pool.start(ctx, conc, func(ctx context.Context, w *worker) {
		for i := range jobs {
			if !w.acquire(ctx) {
				continue // interrupted: the feeder stops and closes jobs
			}
			e.runCase(ctx, i)
			w.release()
			if w.replaced {
				return
			}
		}
	})
feed:
	for i := range s.Cases {
		if stopped(opts.Stop) { // before offering the next question: select picks at random among ready cases
			break
		}
		select {
		case jobs <- i:
		case <-ctx.Done():
			break feed
		case <-opts.Stop:
			break feed
		}
	}
	close(jobs)
	pool.wait()
	run.FinishedAt = time.Now()
	if ctx.Err() != nil || (stopped(opts.Stop) && e.finished < len(s.Cases)) {
		return nil, e.interrupted(ctx, conc)
	}
	return e.finish(run, conc, nil)
}

type executor struct {
	suite   *suite.Suite
	agent   agent.Agent
	opts    ExecOptions
	hook    caseHook // nil when no case replays fixtures
	scorers ScorerSet
	run     *models.Run
	// repeat is how many times each question is answered (>= 1).
	repeat int
	// judgeMetrics are the calculated metrics scored by the judge.
	judgeMetrics map[string]bool
	// calls counts agent and judge outcomes for the infrastructure check.
	calls callCounter
	// outcome runs setup and teardown steps (nil: the suite has none).
	outcome *outcome.Runtime

	mu       sync.Mutex
	finished int
	done     []bool // by case index: the case finished (set under mu)
}

func (e *executor) runCase(ctx context.Context, i int) {
	c, rec := e.suite.Cases[i], e.run.Cases[i]
	if e.repeat <= 1 {
		e.answerStepped(ctx, c, rec) // runner/outcome.go: setup, answer, teardown
	} else {
		reps := make([]*models.CaseResult, e.repeat)
		for r := range reps {
			reps[r] = &models.CaseResult{}
			e.answerStepped(withRepeat(ctx, r, e.repeat), c, reps[r])
			scrubCase(reps[r], e.opts.Sanitize)
		}
		mergeRepeats(rec, c, reps)
	}
	scrubCase(rec, e.opts.Sanitize)
	e.mu.Lock()
	defer e.mu.Unlock()
	if ctx.Err() != nil {
		return
	}
	e.finished++
	e.done[i] = true
	if e.opts.Progress != nil {
		e.opts.Progress(Progress{Done: e.finished, Total: len(e.suite.Cases), Case: rec})
	}
}

// answer asks the agent once and scores the reply into rec: output,
// usage, duration, metrics, status and response metadata.
func (e *executor) answer(ctx context.Context, c *suite.Case, rec *models.CaseResult) {
	if c.Conversation != nil { // runner/conversation.go
		e.converse(ctx, c, rec)
		return
	}
	resp, ev, tr, dur, answered, agentErr := e.ask(ctx, c)
	e.calls.agent(agentErr)
	rec.DurationMS = float64(dur.Microseconds()) / 1000
	if agentErr != nil {
		rec.Status = models.StatusError
		rec.ErrorDetails = agentErrorJSON(agentErr)
		var agentMeta map[string]any
		if answered { // the agent answered but the case failed (e.g. strict replay): keep the answer as evidence
			agentMeta = storeReply(rec, resp)
		}
		meta := models.CaseMetadata{APIReplay: ev}
		if tr != nil {
			meta.Trace = tr.Record
		}
		if agentMeta == nil && (ev != nil || tr != nil) { // replay and trace evidence survive agent errors
			agentMeta = map[string]any{}
		}
		setResponseMetadata(rec, agentMeta, meta)
		for pos, m := range c.Metrics {
			rec.Metrics = append(rec.Metrics, notCalculated(pos, m, reasonAgentError))
		}
	} else {
		e.record(ctx, c, rec, resp, ev, nil, tr)
		e.calls.judged(rec, e.judgeMetrics)
	}
}

// ask calls the agent for one case with the case's deadline, a copy of the
// question and the case hook, and checks the reply. answered says the agent
// returned a valid reply, even if the case hook then failed the case; ev is
// the case's replay evidence (nil without replay), tr what its spans said
// (nil without tracing).
func (e *executor) ask(ctx context.Context, c *suite.Case) (resp agent.Response, ev *models.APIReplay, tr *otlp.Evidence, dur time.Duration, answered bool, err error) {
	if e.opts.Observed != nil {
		return e.observed(ctx, c)
	}
	runCtx := ctx
	if e.opts.Timeout > 0 {
		var cancel context.CancelFunc
		ctx, cancel = context.WithTimeout(ctx, e.opts.Timeout)
		defer cancel()
	}
	var after afterCall
	if e.hook != nil {
		var err error
		if ctx, after, err = e.hook(ctx, c); err != nil {
			return agent.Response{}, nil, nil, 0, false, &adapter.Error{Kind: "setup", Message: err.Error()}
		}
	}
	q := agent.Question{ID: c.ID, Name: c.Name, Question: append(json.RawMessage(nil), c.Question...)}
	tc, ctx := e.beginTrace(ctx)
	start := time.Now()
	resp, err = call(ctx, e.agent, q)
	dur = time.Since(start)
	tr = endTrace(runCtx, tc)
	if err == nil {
		if cerr := adapter.CheckResponse(&resp); cerr != nil {
			err = &adapter.Error{Kind: "bad_response", Message: cerr.Error()}
		}
	}
	answered = err == nil
	if after != nil {
		resp, ev, err = after(resp, err)
	}
	if err != nil && ctx.Err() != nil && !isAgentError(err) {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			err = &adapter.Error{Kind: "timeout", Message: fmt.Sprintf("no answer within %s: %v", e.opts.Timeout, err)}
		} else {
			err = &adapter.Error{Kind: "interrupted", Message: err.Error()}
		}
	}
	return resp, ev, tr, dur, answered, err
}

func isAgentError(err error) bool {
	var ae *adapter.Error
	return errors.As(err, &ae)
}
