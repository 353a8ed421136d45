package models

// Totals are a run's counts and rates computed from its case and metric
// rows alone (docs/architecture.md, Semantics). TotalsOf is the one place that computes
// them: the runner's summary, reports, compare, history and the dashboard
// all call it, so a summary written by another implementation (which may
// lack keys or disagree with its rows) never shows different numbers in
// different places.
type Totals struct {
	Cases        int
	Passed       int
	Failed       int
	Errored      int
	NotEvaluated int
	// Evaluated counts every case that is not "not_evaluated".
	Evaluated int
	// Quality is the mean case quality over evaluated cases; nil when none
	// was evaluated.
	Quality *float64
	// PassRate is Passed/Evaluated; nil when none was evaluated.
	PassRate *float64
	// Qualities are the evaluated cases' qualities in case order (the
	// values behind Quality, for confidence intervals).
	Qualities []float64
	// Agent usage totals; nil when no case reported any.
	InputTokens, OutputTokens *int64
	// Cost is the exact sum of the cases' costs (USD).
	Cost *Decimal
}

// EffectiveStatus returns the case's persisted status when it is one of
// the four known statuses, and otherwise derives it from the rows (see
// DeriveStatus).
func (c *CaseResult) EffectiveStatus() string {
	switch c.Status {
	case StatusPassed, StatusFailed, StatusError, StatusNotEvaluated:
		return c.Status
	}
	return c.DeriveStatus()
}

// TotalsOf computes the totals of cases from their rows: statuses as
// EffectiveStatus reads them, quality as the mean of the evaluated cases'
// Quality, and agent usage summed over every case (a question that was not
// evaluated still cost what the agent reported).
func TotalsOf(cases []*CaseResult) Totals {
	var t Totals
	var sum float64
	for _, c := range cases {
		t.Cases++
		// Usage was spent whether or not a metric was calculated.
		t.InputTokens = AddTokens(t.InputTokens, c.InputTokens)
		t.OutputTokens = AddTokens(t.OutputTokens, c.OutputTokens)
		t.Cost = AddCost(t.Cost, c.Cost)
		switch c.EffectiveStatus() {
		case StatusPassed:
			t.Passed++
		case StatusFailed:
			t.Failed++
		case StatusError:
			t.Errored++
		case StatusNotEvaluated:
			t.NotEvaluated++
			continue
		}
		t.Evaluated++
		if q := c.Quality(); q != nil {
			t.Qualities = append(t.Qualities, *q)
			sum += *q
		}
	}
	if t.Evaluated > 0 {
		q := sum / float64(t.Evaluated)
		r := float64(t.Passed) / float64(t.Evaluated)
		t.Quality, t.PassRate = &q, &r
	}
	return t
}

// AddTokens adds a nullable token count v to a nullable total: a nil v
// leaves the total as it is (unknown stays unknown only while every value
// is unknown).
func AddTokens(total, v *int64) *int64 {
	if v == nil {
		return total
	}
	s := *v
	if total != nil {
		s += *total
	}
	return &s
}

// AddCost adds a nullable exact cost v to a nullable total, by the rule of
// AddTokens.
func AddCost(total, v *Decimal) *Decimal {
	if v == nil {
		return total
	}
	s := *v
	if total != nil {
		s = total.Add(*v)
	}
	return &s
}
