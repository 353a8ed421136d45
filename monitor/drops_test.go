package monitor

import (
	"math/rand/v2"
	"testing"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
)

// metricModel draws one metric's score for a case: a pass with
// probability pass scores in [0.8, 1], a failure in [0, 0.5); threshold
// 0.7.
type metricModel struct {
	name string
	pass float64
}

func window(rng *rand.Rand, n int, ms []metricModel) *models.Run {
	r := &models.Run{ID: uuid.New(), Suite: "shop"}
	for range n {
		c := &models.CaseResult{}
		for _, m := range ms {
			s := rng.Float64() * 0.5
			if rng.Float64() < m.pass {
				s = 0.8 + 0.2*rng.Float64()
			}
			c.Metrics = append(c.Metrics, &models.MetricResult{Name: m.name, Score: &s, Passed: s >= 0.7, Threshold: 0.7})
		}
		r.Cases = append(r.Cases, c)
	}
	return r
}

// alarms is the share of simulated windows that raise an alert: each
// window of n cases drawn from current, compared with 5 previous windows
// of n cases drawn from before.
func alarms(seed uint64, sims, n int, before, current []metricModel) float64 {
	rng := rand.New(rand.NewPCG(seed, 1))
	hits := 0
	for range sims {
		prev := make([]*models.Run, 5)
		for i := range prev {
			prev[i] = window(rng, n, before)
		}
		if d := CompareWindows(window(rng, n, current), prev, DefaultAlpha); len(d.Alerts) > 0 {
			hits++
		}
	}
	return float64(hits) / float64(sims)
}

// TestCompareWindows_FalseAlarmRate: with nothing changed, 2,000 seeded
// windows of 150 cases (three metrics passing 97 %, 90 % and 75 % of the
// time) raise an alert in at most the family-wise alpha (1 %); a drop of
// the first metric to 80 % is caught in at least 95 % of windows.
func TestCompareWindows_FalseAlarmRate(t *testing.T) {
	same := []metricModel{{"looked_up_order", 0.97}, {"no_error_spans", 0.90}, {"answered", 0.75}}
	fa := alarms(1, 2000, 150, same, same)
	t.Logf("false alarms: %.4f of 2000 unchanged windows (alpha %g)", fa, DefaultAlpha)
	if fa > DefaultAlpha {
		t.Errorf("false-alarm rate %.4f above alpha %g", fa, DefaultAlpha)
	}
	worse := []metricModel{{"looked_up_order", 0.80}, {"no_error_spans", 0.90}, {"answered", 0.75}}
	power := alarms(2, 500, 150, same, worse)
	t.Logf("power: %.3f of 500 windows with looked_up_order falling from 97 %% to 80 %% alerted", power)
	if power < 0.95 {
		t.Errorf("power %.3f below 0.95", power)
	}
}

func TestCompareWindows_Cases(t *testing.T) {
	score := func(v float64) *float64 { return &v }
	run := func(results ...bool) *models.Run {
		r := &models.Run{ID: uuid.New(), Suite: "shop"}
		for _, ok := range results {
			s := 0.0
			if ok {
				s = 1
			}
			r.Cases = append(r.Cases, &models.CaseResult{Metrics: []*models.MetricResult{{Name: "m", Score: score(s), Passed: ok}}})
		}
		return r
	}
	many := func(pass, fail int) *models.Run {
		var rs []bool
		for range pass {
			rs = append(rs, true)
		}
		for range fail {
			rs = append(rs, false)
		}
		return run(rs...)
	}
	tests := []struct {
		name      string
		cur       *models.Run
		prev      []*models.Run
		alerts    int
		wantNote  bool
		wantTests int
	}{
		{"first window", many(10, 0), nil, 0, true, 0},
		{"unchanged", many(95, 5), []*models.Run{many(96, 4), many(94, 6)}, 0, false, 2},
		{"rose", many(100, 0), []*models.Run{many(80, 20)}, 0, false, 2},
		{"fell", many(60, 40), []*models.Run{many(97, 3), many(96, 4)}, 2, false, 2},
		{"no shared metric", many(5, 5), []*models.Run{{ID: uuid.New()}}, 0, true, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			d := CompareWindows(tt.cur, tt.prev, DefaultAlpha)
			if len(d.Alerts) != tt.alerts || (d.Note != "") != tt.wantNote || len(d.Tests) != tt.wantTests {
				t.Errorf("alerts %v, note %q, %d tests; line: %s", d.Alerts, d.Note, len(d.Tests), d.Line())
			}
		})
	}
}
