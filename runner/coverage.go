package runner

import (
	"slices"
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// Coverage says what a finished run did not check: questions where no
// metric was calculated, and metrics left uncalculated (grouped by why).
// A run can exit 0 while checking little or nothing (docs/architecture.md, Semantics), so
// evalrun prints this after the run's table.
type Coverage struct {
	// Questions is the number of questions in the run.
	Questions int
	// NotEvaluated counts questions with status not_evaluated.
	NotEvaluated int
	// Uncalculated lists the metrics not calculated on questions that did
	// not end in an agent error (an agent error is a failure of its own),
	// grouped by reason in order of first appearance.
	Uncalculated []Uncalculated
}

// Uncalculated is one reason metrics were not calculated.
type Uncalculated struct {
	// Reason is why, without the "not calculated: " prefix of the metric
	// rows' reason, e.g. "no judge configured" or "judge disabled by
	// --no-judge".
	Reason string
	// Metrics are the metric names, in order of first appearance.
	Metrics []string
	// Questions counts the questions with at least one of them; Passed
	// counts those that still show passed, on their other checks alone.
	Questions, Passed int
}

// NoJudge reports whether the reason is that no judge was configured.
func (u Uncalculated) NoJudge() bool {
	return u.Reason == strings.TrimPrefix(reasonNoJudge, models.NotCalculatedPrefix)
}

// JudgeDisabled reports whether the reason is that the suite's judge was
// switched off on purpose (ExecOptions.JudgeDisabled, evalrun --no-judge).
func (u Uncalculated) JudgeDisabled() bool {
	return u.Reason == strings.TrimPrefix(reasonJudgeDisabled, models.NotCalculatedPrefix)
}

// CoverageOf computes the coverage of a run record (as Execute returns it
// or models read it back).
func CoverageOf(run *models.Run) Coverage {
	cov := Coverage{Questions: len(run.Cases)}
	for _, c := range run.Cases {
		if c.Status == models.StatusNotEvaluated {
			cov.NotEvaluated++
		}
		if c.Status == models.StatusError {
			continue
		}
		seen := map[int]bool{}
		for _, m := range c.Metrics {
			if m.Calculated() {
				continue
			}
			reason := "not calculated"
			if m.Reason != nil {
				reason = strings.TrimPrefix(*m.Reason, models.NotCalculatedPrefix)
			}
			i := slices.IndexFunc(cov.Uncalculated, func(u Uncalculated) bool { return u.Reason == reason })
			if i < 0 {
				cov.Uncalculated = append(cov.Uncalculated, Uncalculated{Reason: reason})
				i = len(cov.Uncalculated) - 1
			}
			u := &cov.Uncalculated[i]
			if !slices.Contains(u.Metrics, m.Name) {
				u.Metrics = append(u.Metrics, m.Name)
			}
			if !seen[i] {
				seen[i] = true
				u.Questions++
				if c.Status == models.StatusPassed {
					u.Passed++
				}
			}
		}
	}
	return cov
}
