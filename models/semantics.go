package models

// The scoring semantics (docs/architecture.md) as read from rows. The runner
// uses them to write a case's status and the run summary; the reports and
// the dashboard use them to recompute what a summary written by another
// implementation does not say.

// Value is what the metric contributes to quality: its score, or 0 when it
// errored. ok is false when the metric was not calculated.
func (m *MetricResult) Value() (v float64, ok bool) {
	switch {
	case m.Errored():
		return 0, true
	case m.Score != nil:
		return *m.Score, true
	}
	return 0, false
}

// NotCalculatedPrefix starts the reason stored for a metric that was not
// calculated ("not calculated: no judge configured"); readers that show the
// state themselves strip it.
const NotCalculatedPrefix = "not calculated: "

// AgentErrored reports whether the agent call of the case failed.
func (c *CaseResult) AgentErrored() bool { return !c.ErrorDetails.IsNull() }

// DeriveStatus computes the case's status from its rows alone: "error" for
// an agent error or an errored metric; "not_evaluated" when no metric was
// calculated; "failed" when a calculated metric missed its threshold;
// "passed" otherwise.
func (c *CaseResult) DeriveStatus() string {
	if c.AgentErrored() {
		return StatusError
	}
	calculated, failed, errored := 0, false, false
	for _, m := range c.Metrics {
		if !m.Calculated() {
			continue
		}
		calculated++
		switch {
		case m.Errored():
			errored = true
		case !m.Passed:
			failed = true
		}
	}
	switch {
	case calculated == 0:
		return StatusNotEvaluated
	case errored:
		return StatusError
	case failed:
		return StatusFailed
	}
	return StatusPassed
}

// Quality is the mean of the case's calculated metric values (an errored
// metric counts 0); 0 after an agent error; nil when nothing was calculated.
func (c *CaseResult) Quality() *float64 {
	if c.AgentErrored() {
		zero := 0.0
		return &zero
	}
	sum, n := 0.0, 0
	for _, m := range c.Metrics {
		if v, ok := m.Value(); ok {
			sum += v
			n++
		}
	}
	if n == 0 {
		return nil
	}
	q := sum / float64(n)
	return &q
}
