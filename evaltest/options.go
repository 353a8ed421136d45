package evaltest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/calibrate"
	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/prices"
	"github.com/agentevals-go/agentevals/score"
)

// Environment variables read by Run and NewJudge (besides the judge's,
// which are evalrun's: see the package documentation).
const (
	// EnvDatabaseURL names the database runs are saved to: a PostgreSQL
	// URL, sqlite:PATH, or "default" for evalrun's default SQLite file.
	// Unset: nothing is saved.
	EnvDatabaseURL = "EVALTEST_DATABASE_URL"
	// EnvFailOnRegression, when true (1, true), makes every Run fail on a
	// gating regression, as the FailOnRegression option does.
	EnvFailOnRegression = "EVALTEST_FAIL_ON_REGRESSION"
	// EnvGate, EnvTolerance, EnvAlpha, EnvMinEffect, EnvBaseline and
	// EnvFailOn set what evalrun run's --gate, --tolerance, --alpha,
	// --min-effect, --baseline and --fail-on set, for every Run whose
	// options do not (the Gate, Tolerance, Alpha, MinEffect, Baseline and
	// FailOn options win).
	EnvGate      = "EVALTEST_GATE"
	EnvTolerance = "EVALTEST_TOLERANCE"
	EnvAlpha     = "EVALTEST_ALPHA"
	EnvMinEffect = "EVALTEST_MIN_EFFECT"
	EnvBaseline  = "EVALTEST_BASELINE"
	EnvFailOn    = "EVALTEST_FAIL_ON"
)

// DefaultMinScore is the score a judge-backed assertion needs to pass
// unless MinScore says otherwise: the threshold of the gem's default
// metrics.
const DefaultMinScore = 0.9

// Option configures Run and NewJudge.
type Option func(*config)

// config is the options after they were applied.
type config struct {
	judge            score.Judge
	models           eval.Models
	catalog          *prices.Catalog // read by setup
	noJudge          bool
	minScore         float64
	databaseURL      string
	failOnRegression bool
	// gate is the gate of the options over the environment's; its FailOn
	// is "" until effectiveGate resolves it with failOnRegression.
	gate eval.Gate
	// calibration, when set, keeps judge metrics the labels do not vouch
	// for from gating (WithGateLabels).
	calibration *calibrate.Gate
	concurrency int
	timeout     time.Duration
	metadata    map[string]any
	getenv      func(string) string
}

// WithJudge scores judge-backed checks with j instead of the judge the
// environment and the suite configure, for example a provider.Judge built
// once for the whole package.
func WithJudge(j score.Judge) Option { return func(c *config) { c.judge = j } }

// WithModels builds what calls a model with m, usually modelkit.Models{}:
// the judge the environment and the suite configure, and a suite's llm
// agent. Without it evaltest links no model SDK, and a judge or llm agent
// the configuration asks for fails the test with this remedy.
func WithModels(m eval.Models) Option { return func(c *config) { c.models = m } }

// WithoutJudge leaves judge-backed checks not evaluated whatever the
// environment and the suite configure (evalrun --no-judge).
func WithoutJudge() Option { return func(c *config) { c.noJudge = true } }

// MinScore sets the score judge-backed assertions need to pass (0..1,
// inclusive; default DefaultMinScore). Run ignores it: a suite's
// minimum_scores are its thresholds.
func MinScore(s float64) Option { return func(c *config) { c.minScore = s } }

// SaveTo saves every run to the database at url (as EVALTEST_DATABASE_URL
// does, which it overrides).
func SaveTo(url string) Option { return func(c *config) { c.databaseURL = url } }

// FailOnRegression fails the test when the saved run regressed against its
// baseline under the gate (ci by default), even when every threshold
// holds: evalrun --fail-on-regression, which makes the fail-on rule both.
// It needs a database (SaveTo or EVALTEST_DATABASE_URL): without one the
// test fails, since a gate that cannot look at history would pass blindly.
func FailOnRegression() Option { return func(c *config) { c.failOnRegression = true } }

// FailOn sets what fails the test, as evalrun --fail-on does:
// "failures" (the default: a failed or errored check fails its question),
// "regressions" (only a gating regression against the baseline fails; a
// failed check is logged as not acted on) or "both". regressions and both
// need a database, as FailOnRegression does.
func FailOn(rule string) Option { return func(c *config) { c.gate.FailOn = rule } }

// Gate chooses the regression gate, as evalrun --gate does: "ci" (the
// default of evaltest, made for judged suites) or "strict" (the Ruby
// gem's rule, evalrun's default).
func Gate(mode string) Option { return func(c *config) { c.gate.Mode = mode } }

// Tolerance is the score decrease per metric that is not a regression
// (evalrun --tolerance; default 0). It never hides a new failure or error.
func Tolerance(t float64) Option { return func(c *config) { c.gate.Tolerance = t } }

// Alpha is the ci gate's significance level (evalrun --alpha; default
// 0.05, above 0 and below 0.5).
func Alpha(a float64) Option { return func(c *config) { c.gate.Alpha = a } }

// MinEffect is the ci gate's smallest mean drop that regresses (evalrun
// --min-effect; default 0.02, 0..1).
func MinEffect(d float64) Option { return func(c *config) { c.gate.MinEffect = &d } }

// Baseline compares with the run of this id instead of the automatic
// baseline (evalrun --baseline): an earlier run of the same definition in
// the database runs are saved to.
func Baseline(runID string) Option { return func(c *config) { c.gate.Baseline = runID } }

// WithGateLabels keeps the ci gate from gating on judge metrics that the
// human labels in path do not vouch for (evalrun run --gate-labels path
// --min-kappa minKappa): a judge metric gates only when the lower bound of
// its Cohen's kappa 95% interval against the labels reaches minKappa
// (-1..1). The labelled runs are read from the database runs are saved
// to, so it needs one, and the ci gate.
func WithGateLabels(path string, minKappa float64) Option {
	return func(c *config) {
		c.calibration = &calibrate.Gate{Labels: path, Source: "evaltest.WithGateLabels", MinKappa: minKappa}
	}
}

// WithConcurrency sets how many questions Run asks at once (default
// min(4, questions), as evalrun).
func WithConcurrency(n int) Option { return func(c *config) { c.concurrency = n } }

// WithTimeout bounds each agent call (default: the suite's agent.timeout,
// else 5m).
func WithTimeout(d time.Duration) Option { return func(c *config) { c.timeout = d } }

// WithMetadata adds keys to the saved run's metadata (e.g. a revision).
func WithMetadata(m map[string]any) Option {
	return func(c *config) {
		for k, v := range m {
			c.metadata[k] = v
		}
	}
}

// withEnv replaces os.Getenv (tests).
func withEnv(getenv func(string) string) Option { return func(c *config) { c.getenv = getenv } }

// newConfig applies opts over the defaults and the environment.
func newConfig(opts []Option) (*config, error) {
	probe := &config{metadata: map[string]any{}, getenv: os.Getenv}
	for _, o := range opts { // which environment the options read (withEnv)
		o(probe)
	}
	c := &config{minScore: DefaultMinScore, metadata: map[string]any{}, getenv: probe.getenv,
		gate: eval.Gate{Mode: compare.GateCI}}
	if err := readGateEnv(&c.gate, c.getenv); err != nil {
		return nil, err
	}
	for _, o := range opts { // over the environment's gate
		o(c)
	}
	if c.databaseURL == "" {
		c.databaseURL = strings.TrimSpace(c.getenv(EnvDatabaseURL))
	}
	if v := c.getenv(EnvFailOnRegression); v != "" {
		on, err := strconv.ParseBool(v)
		if err != nil {
			return nil, fmt.Errorf("%s=%q: want true or false (1 or 0)", EnvFailOnRegression, v)
		}
		c.failOnRegression = c.failOnRegression || on
	}
	if err := c.effectiveGate().Validate(); err != nil {
		return nil, fmt.Errorf("gate: %w", err)
	}
	if c.minScore < 0 || c.minScore > 1 || c.minScore != c.minScore {
		return nil, fmt.Errorf("MinScore(%v): want a number from 0 to 1", c.minScore)
	}
	if c.calibration != nil {
		if err := c.calibration.Validate(); err != nil {
			return nil, fmt.Errorf("WithGateLabels(%q, %v): min kappa: %w", c.calibration.Labels, c.calibration.MinKappa, err)
		}
		if g := c.effectiveGate(); g.Mode != compare.GateCI {
			return nil, fmt.Errorf("WithGateLabels: only the ci gate gates judge metrics in aggregate, and the gate is %s", g.Mode)
		}
	}
	if c.concurrency < 0 {
		return nil, fmt.Errorf("WithConcurrency(%d): want a whole number >= 0 (0 = default)", c.concurrency)
	}
	if c.timeout < 0 {
		return nil, fmt.Errorf("WithTimeout(%s): want a positive duration (0 = the suite's)", c.timeout)
	}
	return c, nil
}
