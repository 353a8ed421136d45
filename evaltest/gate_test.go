package evaltest

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/eval"
)

// TestConfig_gate: the gate comes from the EVALTEST_* variables that match
// evalrun run's gate flags, options win over them, FailOnRegression (or
// its variable) turns failures into both as --fail-on-regression does, and
// the default is the ci gate failing on failures.
func TestConfig_gate(t *testing.T) {
	env := func(kv ...string) Option {
		m := map[string]string{}
		for i := 0; i < len(kv); i += 2 {
			m[kv[i]] = kv[i+1]
		}
		return withEnv(func(k string) string { return m[k] })
	}
	effect := func(v float64) *float64 { return &v }
	tests := []struct {
		name string
		opts []Option
		want eval.Gate
	}{
		{"default", []Option{env()}, eval.Gate{Mode: compare.GateCI, FailOn: eval.FailOnFailures}},
		{"environment", []Option{env(EnvGate, "strict", EnvTolerance, "0.1", EnvAlpha, "0.01", EnvMinEffect, "0",
			EnvBaseline, "0190a3c8-0000-7000-8000-000000000000", EnvFailOn, "regressions")},
			eval.Gate{Mode: compare.GateStrict, Tolerance: 0.1, Alpha: 0.01, MinEffect: effect(0),
				Baseline: "0190a3c8-0000-7000-8000-000000000000", FailOn: eval.FailOnRegressions}},
		{"options win", []Option{env(EnvGate, "strict", EnvAlpha, "0.01", EnvFailOn, "regressions"), Gate("ci"), Alpha(0.2), FailOn("both")},
			eval.Gate{Mode: compare.GateCI, Alpha: 0.2, FailOn: eval.FailOnBoth}},
		{"option before the environment function", []Option{Tolerance(0.3), env(EnvTolerance, "0.1")},
			eval.Gate{Mode: compare.GateCI, Tolerance: 0.3, FailOn: eval.FailOnFailures}},
		{"FailOnRegression", []Option{env(), FailOnRegression()}, eval.Gate{Mode: compare.GateCI, FailOn: eval.FailOnBoth}},
		{"its variable", []Option{env(EnvFailOnRegression, "1")}, eval.Gate{Mode: compare.GateCI, FailOn: eval.FailOnBoth}},
		{"with regressions", []Option{env(EnvFailOnRegression, "1", EnvFailOn, "regressions")},
			eval.Gate{Mode: compare.GateCI, FailOn: eval.FailOnRegressions}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			c, err := newConfig(tt.opts)
			if err != nil {
				t.Fatal(err)
			}
			got := c.effectiveGate()
			if got.Mode != tt.want.Mode || got.Tolerance != tt.want.Tolerance || got.Alpha != tt.want.Alpha ||
				got.Baseline != tt.want.Baseline || got.FailOn != tt.want.FailOn ||
				(got.MinEffect == nil) != (tt.want.MinEffect == nil) || (got.MinEffect != nil && *got.MinEffect != *tt.want.MinEffect) {
				t.Errorf("gate %+v, want %+v", got, tt.want)
			}
		})
	}
}

// TestConfig_gateRefused: invalid gate settings fail Run before anything
// runs, naming the variable or the setting; and a gate that needs history
// says so when no database is configured.
func TestConfig_gateRefused(t *testing.T) {
	for _, tt := range []struct {
		env  map[string]string
		opts []Option
		want string
	}{
		{map[string]string{EnvAlpha: "a lot"}, nil, `EVALTEST_ALPHA="a lot": want a number`},
		{map[string]string{EnvGate: "lenient"}, nil, `gate: gate "lenient": want "strict" or "ci"`},
		{nil, []Option{Alpha(0.7)}, "gate: alpha 0.7: want a significance level above 0 and below 0.5"},
		{nil, []Option{FailOn("never")}, `gate: fail on "never"`},
		{nil, []Option{WithGateLabels("labels.jsonl", 1.5)}, `WithGateLabels("labels.jsonl", 1.5): min kappa: want a number from -1 to 1`},
		{nil, []Option{WithGateLabels("labels.jsonl", 0.6), Gate("strict")}, "WithGateLabels: only the ci gate gates judge metrics in aggregate, and the gate is strict"},
	} {
		env := tt.env
		_, err := newConfig(append([]Option{withEnv(func(k string) string { return env[k] })}, tt.opts...))
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%v %d options: error %v, want %q", tt.env, len(tt.opts), err, tt.want)
		}
	}
	for _, tt := range []struct {
		opts []Option
		want string
	}{
		{[]Option{FailOnRegression()}, "FailOnRegression needs a database to find the baseline in: set EVALTEST_DATABASE_URL or pass evaltest.SaveTo"},
		{[]Option{FailOn("regressions")}, "fail on regressions needs a database"},
		{[]Option{Baseline("0190a3c8-0000-7000-8000-000000000000")}, "needs the database it was saved to"},
		{[]Option{WithGateLabels("labels.jsonl", 0.6)}, "WithGateLabels reads the labelled runs from the database"},
		{nil, ""},
	} {
		c, err := newConfig(append([]Option{withEnv(func(string) string { return "" })}, tt.opts...))
		if err != nil {
			t.Fatal(err)
		}
		err = c.needsDatabase(c.effectiveGate())
		if (tt.want == "") != (err == nil) || (err != nil && !strings.Contains(err.Error(), tt.want)) {
			t.Errorf("needsDatabase: %v, want %q", err, tt.want)
		}
	}
}
