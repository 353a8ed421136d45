package evaltest

import (
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"agentevals/score"
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
	noJudge          bool
	minScore         float64
	databaseURL      string
	failOnRegression bool
	tolerance        float64
	concurrency      int
	timeout          time.Duration
	metadata         map[string]any
	getenv           func(string) string
}

// WithJudge scores judge-backed checks with j instead of the judge the
// environment and the suite configure, for example a judges.LLMJudge built
// once for the whole package.
func WithJudge(j score.Judge) Option { return func(c *config) { c.judge = j } }

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
// baseline under the ci gate, even when every threshold holds. It needs a
// database (SaveTo or EVALTEST_DATABASE_URL): without one the test fails,
// since a gate that cannot look at history would pass blindly.
func FailOnRegression() Option { return func(c *config) { c.failOnRegression = true } }

// Tolerance is the score decrease per metric that is not a regression
// (evalrun --tolerance; default 0). It never hides a new failure or error.
func Tolerance(t float64) Option { return func(c *config) { c.tolerance = t } }

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
	c := &config{minScore: DefaultMinScore, metadata: map[string]any{}, getenv: os.Getenv}
	for _, o := range opts {
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
	if c.minScore < 0 || c.minScore > 1 || c.minScore != c.minScore {
		return nil, fmt.Errorf("MinScore(%v): want a number from 0 to 1", c.minScore)
	}
	if c.concurrency < 0 {
		return nil, fmt.Errorf("WithConcurrency(%d): want a whole number >= 0 (0 = default)", c.concurrency)
	}
	if c.timeout < 0 {
		return nil, fmt.Errorf("WithTimeout(%s): want a positive duration (0 = the suite's)", c.timeout)
	}
	return c, nil
}
