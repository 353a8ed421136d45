package compare

import "fmt"

// Gate modes of the regression gate.
const (
	// GateStrict is the Ruby gem's rule: every regression finding gates, a
	// per-case score drop beyond the tolerance, a newly failed threshold or
	// a new error.
	GateStrict = "strict"
	// GateCI tells judge noise from regressions: judge metrics gate only in
	// aggregate (paired test of the score differences, McNemar test of
	// pass/fail flips), deterministic checks and agent errors question by
	// question; see the package documentation, "The ci gate".
	GateCI = "ci"
)

// ScoreEpsilon absorbs floating-point noise in score differences, so that
// 0.98-0.96 is not "more than 0.02".
const ScoreEpsilon = 1e-9

// Options tune Compare. The zero value is a strict gate with tolerance 0.
type Options struct {
	// Tolerance is the score decrease (and increase) ignored per metric.
	// It never hides a new failure or a new error.
	Tolerance float64
	// Gate is GateStrict (default) or GateCI.
	Gate string
	// Resamples and Seed tune the bootstrap (defaults 1,000 and DefaultSeed).
	Resamples int
	Seed      uint64
	// Alpha is the significance level of the ci gate's one-sided tests
	// (0: DefaultAlpha).
	Alpha float64
	// MinEffect is the smallest mean drop of a metric the ci gate calls a
	// regression (nil: DefaultMinEffect; 0 gates on significance alone).
	MinEffect *float64
	// Judged says which metric names are judge-backed (noisy); nil derives
	// it from the score registry and the runs' judge usage evidence.
	Judged func(metric string) bool
	// Flaky marks questions whose status went back and forth in recent
	// compatible runs of the same commit (see FlakyQuestions), by case id.
	// Under the ci gate their judged findings do not gate one by one.
	Flaky map[string]Flakiness
	// SliceBy is the case metadata key whose values the ci gate tests as
	// slices ("": SliceFailureMode).
	SliceBy string
}

// SliceByOrDefault is SliceBy, or SliceFailureMode when it is empty.
func (o Options) SliceByOrDefault() string {
	if o.SliceBy == "" {
		return SliceFailureMode
	}
	return o.SliceBy
}

// AlphaOrDefault is Alpha, or DefaultAlpha when it is 0.
func (o Options) AlphaOrDefault() float64 {
	if o.Alpha <= 0 {
		return DefaultAlpha
	}
	return o.Alpha
}

// MinEffectOrDefault is MinEffect, or DefaultMinEffect when it is nil.
func (o Options) MinEffectOrDefault() float64 {
	if o.MinEffect == nil {
		return DefaultMinEffect
	}
	return *o.MinEffect
}

func (o Options) withDefaults() Options {
	if o.Gate == "" {
		o.Gate = GateStrict
	}
	if o.Resamples <= 0 {
		o.Resamples = DefaultResamples
	}
	if o.Seed == 0 {
		o.Seed = DefaultSeed
	}
	return o
}

// Validate reports invalid options (a negative tolerance, an unknown gate).
func (o Options) Validate() error {
	if o.Tolerance < 0 || o.Tolerance > 1 || o.Tolerance != o.Tolerance {
		return fmt.Errorf("tolerance %v: want a number from 0 to 1", o.Tolerance)
	}
	if o.Alpha < 0 || o.Alpha >= 0.5 || o.Alpha != o.Alpha {
		return fmt.Errorf("alpha %v: want a significance level above 0 and below 0.5, such as 0.05", o.Alpha)
	}
	if m := o.MinEffect; m != nil && (*m < 0 || *m > 1 || *m != *m) {
		return fmt.Errorf("min effect %v: want a score difference from 0 to 1, such as 0.02", *m)
	}
	switch o.Gate {
	case "", GateStrict, GateCI:
		return nil
	}
	return fmt.Errorf("gate %q: want %q or %q", o.Gate, GateStrict, GateCI)
}
