package evaltest

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/calibrate"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/suite"
)

// readGateEnv sets the gate from the environment (EnvGate …), as evalrun
// run's gate flags set it; unset variables leave it as it is.
func readGateEnv(g *eval.Gate, getenv func(string) string) error {
	if v := strings.TrimSpace(getenv(EnvGate)); v != "" {
		g.Mode = v
	}
	if v := strings.TrimSpace(getenv(EnvBaseline)); v != "" {
		g.Baseline = v
	}
	if v := strings.TrimSpace(getenv(EnvFailOn)); v != "" {
		g.FailOn = v
	}
	for _, n := range []struct {
		name string
		set  func(float64)
	}{
		{EnvTolerance, func(v float64) { g.Tolerance = v }},
		{EnvAlpha, func(v float64) { g.Alpha = v }},
		{EnvMinEffect, func(v float64) { g.MinEffect = &v }},
	} {
		v := strings.TrimSpace(getenv(n.name))
		if v == "" {
			continue
		}
		f, err := strconv.ParseFloat(v, 64)
		if err != nil {
			return fmt.Errorf("%s=%q: want a number such as 0.05", n.name, v)
		}
		n.set(f)
	}
	return nil
}

// effectiveGate is the gate with its fail-on rule resolved: FailOn, with
// FailOnRegression (or EVALTEST_FAIL_ON_REGRESSION) adding regressions to
// it, as evalrun --fail-on-regression does.
func (c *config) effectiveGate() eval.Gate {
	g := c.gate
	switch {
	case c.failOnRegression && (g.FailOn == "" || g.FailOn == eval.FailOnFailures):
		g.FailOn = eval.FailOnBoth
	case g.FailOn == "":
		g.FailOn = eval.FailOnFailures
	}
	return g
}

// needsDatabase refuses a gate that needs history when no database is
// configured: one that acts on regressions would pass blindly, and a
// named baseline cannot be read.
func (c *config) needsDatabase(g eval.Gate) error {
	switch {
	case g.FailOn != eval.FailOnFailures && c.failOnRegression:
		return errors.New("FailOnRegression needs a database to find the baseline in: set " + EnvDatabaseURL + " or pass evaltest.SaveTo")
	case g.FailOn != eval.FailOnFailures:
		return fmt.Errorf("fail on %s needs a database to find the baseline in: set %s or pass evaltest.SaveTo", g.FailOn, EnvDatabaseURL)
	case g.Baseline != "":
		return fmt.Errorf("baseline %s needs the database it was saved to: set %s or pass evaltest.SaveTo", g.Baseline, EnvDatabaseURL)
	case c.calibration != nil:
		return fmt.Errorf("WithGateLabels reads the labelled runs from the database: set %s or pass evaltest.SaveTo", EnvDatabaseURL)
	}
	return nil
}

// uncalibrated calibrates the suite's judge metrics against the labels of
// WithGateLabels, logs on t which gate and which do not, and returns those
// the gate must not gate on (eval.Gate.Uncalibrated); nil without the
// option.
func (c *config) uncalibrated(t *testing.T, db *models.DB, s *suite.Suite) (map[string]string, error) {
	t.Helper()
	if c.calibration == nil {
		return nil, nil
	}
	verdicts, err := c.calibration.Check(t.Context(), db, calibrate.SuiteJudgeMetrics(s))
	if err != nil {
		return nil, err
	}
	for _, v := range verdicts {
		if v.Gates {
			t.Logf("ci gate: judge metric %s is calibrated: %s", sanitize.EscapeText(v.Metric), v.Why)
		} else {
			t.Logf("ci gate: not gating on judge metric %s: %s in %s", sanitize.EscapeText(v.Metric), v.Why, sanitize.EscapeText(c.calibration.Labels))
		}
	}
	return c.calibration.Uncalibrated(verdicts), nil
}
