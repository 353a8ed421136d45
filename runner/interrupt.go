package runner

import (
	"cmp"
	"context"
	"fmt"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// stopped reports whether stop is closed.
func stopped(stop <-chan struct{}) bool {
	select {
	case <-stop:
		return true
	default:
		return false
	}
}

// interrupted is the InterruptedError of a run stopped early, with the
// finished cases as a run of their own when there are any.
func (e *executor) interrupted(ctx context.Context, conc int) error {
	cause := context.Cause(ctx)
	reason := ""
	if e.opts.StopReason != nil {
		reason = e.opts.StopReason()
	}
	if cause == nil {
		cause = fmt.Errorf("%s", cmp.Or(reason, "stopped"))
	}
	ie := &InterruptedError{Finished: e.finished, Total: len(e.suite.Cases), Cause: cause}
	if e.finished == 0 || e.opts.Stop == nil { // without Stop the caller keeps nothing of an interrupted run
		return ie
	}
	part := *e.run
	part.Cases = nil
	for i, c := range e.run.Cases {
		if e.done[i] {
			part.Cases = append(part.Cases, c)
		}
	}
	run, err := e.finish(&part, conc, &models.Interrupted{Finished: len(part.Cases), Planned: len(e.suite.Cases), Signal: cmp.Or(reason, cause.Error())})
	if err == nil {
		ie.Run = run
	}
	return ie
}

// finish writes the summary of a run whose cases are done.
func (e *executor) finish(run *models.Run, conc int, stop *models.Interrupted) (*models.Run, error) {
	var err error
	opts, repeat := e.opts, e.repeat
	summary := models.SummaryOf(run, conc, time.Duration(run.FinishedAt.Sub(run.StartedAt)))
	summary.Interrupted = stop
	if repeat > 1 {
		summary.RepeatSummary = models.RepeatSummaryOf(run, repeat)
	}
	summary.InfrastructureFailure = e.calls.failure(opts.Sanitize)
	summary.Provenance = opts.Provenance
	summary.JudgeSpend = e.spendSummary(run)
	if opts.ExtraSummary != nil {
		extra := opts.ExtraSummary()
		if more, ok := extra["judge_usage"].(models.CallAccount); ok { // pairwise calls made beside the run
			delete(extra, "judge_usage")
			sum := more
			if summary.JudgeUsage != nil {
				sum = summary.JudgeUsage.Add(more)
			}
			summary.JudgeUsage = &sum
		}
		if summary.Extra, err = rawValues(extra, keepKey); err != nil {
			return nil, fmt.Errorf("execute suite: summary: %w", err)
		}
	}
	if run.Summary, err = summary.Encode(); err != nil {
		return nil, fmt.Errorf("execute suite: summary: %w", err)
	}
	return run, nil
}
