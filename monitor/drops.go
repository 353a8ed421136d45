package monitor

import (
	"fmt"
	"math"
	"sort"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/stats"
)

// DefaultAlpha is the family-wise false-alarm level of a window's drop
// tests: split evenly (Bonferroni) over its tests.
const DefaultAlpha = 0.01

// The statistics a metric is tested on.
const (
	PassRate = "pass_rate" // the share of cases that passed: a one-sided two-proportion z-test
	Mean     = "mean"      // the mean score: a one-sided Welch's t-test
)

// Drops compares one window with the previous windows of its monitor.
// The windows hold different traces, so the tests are unpaired: each
// metric's pass rate (two-proportion z-test) and mean score (Welch's t),
// each one-sided for a drop, at Alpha split over every test.
type Drops struct {
	Monitor string `json:"monitor"`
	Run     string `json:"run"`
	// Previous are the earlier windows pooled as the reference, newest first.
	Previous []string `json:"previous"`
	// Alpha is the family-wise level; each test is at Alpha / len(Tests).
	Alpha float64 `json:"alpha"`
	Tests []Test  `json:"tests"`
	// Alerts name the tests that fell beyond noise ("metric pass_rate").
	Alerts []string `json:"alerts"`
	// Note says why nothing was tested, when nothing was.
	Note string `json:"note,omitempty"`
}

// Test is one metric statistic of the window against the previous ones.
type Test struct {
	Metric    string  `json:"metric"`
	Statistic string  `json:"statistic"`
	Previous  float64 `json:"previous"`
	Current   float64 `json:"current"`
	// PreviousN and CurrentN count the cases that calculated the metric.
	PreviousN int `json:"previous_n"`
	CurrentN  int `json:"current_n"`
	// P is the one-sided p-value of a drop; nil when the test cannot be
	// made (a side without a calculated case).
	P *float64 `json:"p"`
	// Noise is the largest drop this test calls noise at its level: the
	// critical value times the standard error of the difference.
	Noise float64 `json:"noise"`
	Alert bool    `json:"alert"`
}

// values are one metric's calculated results in a set of windows.
type values struct {
	passed int
	scores []float64
}

// metricValues gathers every calculated result of each metric; an errored
// metric counts as a failure scoring 0, as the run summary counts it.
func metricValues(runs ...*models.Run) map[string]*values {
	out := map[string]*values{}
	for _, r := range runs {
		for _, c := range r.Cases {
			for _, m := range c.Metrics {
				if !m.Calculated() {
					continue
				}
				v := out[m.Name]
				if v == nil {
					v = &values{}
					out[m.Name] = v
				}
				s := 0.0
				if m.Score != nil && !m.Errored() {
					s = *m.Score
				}
				if m.Passed && !m.Errored() {
					v.passed++
				}
				v.scores = append(v.scores, s)
			}
		}
	}
	return out
}

// CompareWindows tests every metric of current against the pooled previous
// windows (newest first) at family-wise level alpha.
func CompareWindows(current *models.Run, previous []*models.Run, alpha float64) Drops {
	d := Drops{Monitor: current.Suite, Run: current.ID.String(), Alpha: alpha, Previous: []string{}, Tests: []Test{}, Alerts: []string{}}
	for _, p := range previous {
		d.Previous = append(d.Previous, p.ID.String())
	}
	if len(previous) == 0 {
		d.Note = "the first window of this monitor: nothing earlier to compare with"
		return d
	}
	cur, prev := metricValues(current), metricValues(previous...)
	names := make([]string, 0, len(cur))
	for name := range cur {
		if prev[name] != nil {
			names = append(names, name)
		}
	}
	sort.Strings(names)
	if len(names) == 0 {
		d.Note = "no metric calculated both in this window and in the previous ones"
		return d
	}
	level := alpha / float64(2*len(names))
	for _, name := range names {
		c, p := cur[name], prev[name]
		for _, t := range []Test{proportionTest(name, p, c, level), welchTest(name, p, c, level)} {
			if t.Alert {
				d.Alerts = append(d.Alerts, t.Metric+" "+t.Statistic)
			}
			d.Tests = append(d.Tests, t)
		}
	}
	return d
}

// proportionTest is the one-sided two-proportion z-test of a lower pass
// rate in c than in p, with the pooled standard error.
func proportionTest(name string, p, c *values, level float64) Test {
	n0, n1 := float64(len(p.scores)), float64(len(c.scores))
	t := Test{Metric: name, Statistic: PassRate, PreviousN: len(p.scores), CurrentN: len(c.scores)}
	if n0 == 0 || n1 == 0 {
		return t
	}
	t.Previous, t.Current = float64(p.passed)/n0, float64(c.passed)/n1
	pooled := float64(p.passed+c.passed) / (n0 + n1)
	se := math.Sqrt(pooled * (1 - pooled) * (1/n0 + 1/n1))
	t.Noise = stats.NormalQuantile(1-level) * se
	pv := oneSided(t.Previous-t.Current, se, func(z float64) float64 { return 0.5 * math.Erfc(z/math.Sqrt2) })
	t.P = &pv
	t.Alert = pv < level
	return t
}

// welchTest is the one-sided Welch's t-test of a lower mean score in c
// than in p.
func welchTest(name string, p, c *values, level float64) Test {
	t := Test{Metric: name, Statistic: Mean, PreviousN: len(p.scores), CurrentN: len(c.scores)}
	if len(p.scores) < 2 || len(c.scores) < 2 {
		return t
	}
	m0, v0 := stats.Mean(p.scores), stats.Variance(p.scores)
	m1, v1 := stats.Mean(c.scores), stats.Variance(c.scores)
	t.Previous, t.Current = m0, m1
	a, b := v0/float64(len(p.scores)), v1/float64(len(c.scores))
	se := math.Sqrt(a + b)
	df := 1.0
	if a+b > 0 {
		df = (a + b) * (a + b) / (a*a/float64(len(p.scores)-1) + b*b/float64(len(c.scores)-1))
	}
	t.Noise = stats.TQuantile(1-level, df) * se
	pv := oneSided(m0-m1, se, func(x float64) float64 { return 1 - stats.StudentTCDF(x, df) })
	t.P = &pv
	t.Alert = pv < level
	return t
}

// oneSided is the p-value of a drop of size drop with standard error se,
// upper the upper tail of the statistic; a drop with no spread at all is
// certain (0) and no drop is no evidence (1).
func oneSided(drop, se float64, upper func(float64) float64) float64 {
	switch {
	case se == 0 && drop > 0:
		return 0
	case se == 0:
		return 1
	}
	return upper(drop / se)
}

// Line is the one line a cron job's log keeps: which metrics fell, or
// that none did beyond noise.
func (d Drops) Line() string {
	if d.Note != "" {
		return "drops: " + d.Note
	}
	if len(d.Alerts) == 0 {
		return fmt.Sprintf("drops: no metric fell beyond noise against %d previous windows (alpha %g over %d tests)", len(d.Previous), d.Alpha, len(d.Tests))
	}
	return fmt.Sprintf("drops: %d fell beyond noise against %d previous windows: %s", len(d.Alerts), len(d.Previous), joinAlerts(d))
}

func joinAlerts(d Drops) string {
	s := ""
	for _, t := range d.Tests {
		if !t.Alert {
			continue
		}
		if s != "" {
			s += "; "
		}
		s += fmt.Sprintf("%s %s %.3f -> %.3f (drop %.3f, noise %.3f, p %.2g)", t.Metric, t.Statistic, t.Previous, t.Current, t.Previous-t.Current, t.Noise, *t.P)
	}
	return s
}
