package dashboard

import (
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
)

// monitorWindows is how many of a monitor's windows its trend reads: the
// newest up to and including the window shown, so the page's work does
// not grow with the monitor's history.
const monitorWindows = 50

// monitorTrend is a production window's monitor across its windows: each
// metric's pass rate and mean score per window, as a chart per metric and
// as a table linking every window.
type monitorTrend struct {
	Monitor string
	Metrics []string
	Charts  []trendChart
	Windows []monitorWindow
	// Limited: the monitor has more windows than the newest monitorWindows.
	Limited bool
	Max     int
}

// monitorWindow is one window of the table, newest first.
type monitorWindow struct {
	Link, Started string
	Current       bool
	Cases         int
	// Cells hold one metric each, in Metrics order ("—" when the window
	// did not score that metric).
	Cells []string
}

// windowMetric is one metric of one window.
type windowMetric struct {
	PassRate, Mean *float64
}

// newMonitorTrend reads the monitor's windows up to run; nil for a run
// that is not production scoring.
func (s *Server) newMonitorTrend(ctx context.Context, b BasePage, run *models.Run) (*monitorTrend, error) {
	if !models.IsProduction(run) {
		return nil, nil
	}
	runs, more, err := s.rows.ListRuns(ctx, models.RunFilter{Suite: run.Suite, Agent: run.Agent, Kind: models.KindProduction,
		Before: &models.Cursor{StartedAt: run.StartedAt, Sequence: run.Sequence + 1}, Limit: monitorWindows})
	if err != nil {
		return nil, unavailable(err)
	}
	ids := runIDs(runs)
	cases, err := s.rows.CaseTotalsOf(ctx, ids)
	if err != nil {
		return nil, unavailable(err)
	}
	tr := &monitorTrend{Monitor: run.Suite, Limited: more != nil, Max: monitorWindows}
	windows := make([]windowRun, len(runs))
	seen := map[string]bool{}
	// Oldest first, so that the metrics are listed in first-seen order.
	for i := len(runs) - 1; i >= 0; i-- {
		if err := budgetLeft(ctx); err != nil {
			return nil, err
		}
		w := windowRun{run: runs[i], at: windowStart(runs[i]), metrics: map[string]windowMetric{}}
		for _, st := range compare.MetricStats(cases[runs[i].ID], compare.Options{Resamples: 1}) {
			wm := windowMetric{Mean: st.Mean}
			if n := st.Passed + st.Failed + st.Errored; n > 0 {
				wm.PassRate = ptr(float64(st.Passed) / float64(n))
			}
			w.metrics[st.Name] = wm
			if !seen[st.Name] {
				seen[st.Name] = true
				tr.Metrics = append(tr.Metrics, st.Name)
			}
		}
		windows[i] = w
	}
	// Windows are placed by the time their traces start, newest first,
	// whatever order they were scored in.
	slices.SortStableFunc(windows, func(a, b windowRun) int { return b.at.Compare(a.at) })
	for i, name := range tr.Metrics {
		inputs := make([]trendInput, 0, len(windows))
		for j := len(windows) - 1; j >= 0; j-- {
			wm := windows[j].metrics[name]
			inputs = append(inputs, trendInput{At: windows[j].at, Quality: wm.Mean, PassRate: wm.PassRate})
		}
		tr.Charts = append(tr.Charts, metricChart(fmt.Sprintf("monitor-%d", i+1), run.Suite, name, inputs))
	}
	for _, wr := range windows {
		r := wr.run
		w := monitorWindow{Link: b.Path("runs", r.ID.String()), Started: formatTime(wr.at), Current: r.ID == run.ID,
			Cases: len(cases[r.ID])}
		for _, name := range tr.Metrics {
			wm, ok := wr.metrics[name]
			if !ok {
				w.Cells = append(w.Cells, "—")
				continue
			}
			w.Cells = append(w.Cells, fmt.Sprintf("%s passed · mean %s", formatPercent(wm.PassRate), formatScore(wm.Mean)))
		}
		tr.Windows = append(tr.Windows, w)
	}
	return tr, nil
}

// windowRun is one window read for the trend.
type windowRun struct {
	run     *models.Run
	at      time.Time
	metrics map[string]windowMetric
}

// windowStart is when a window's traces start (its production record),
// else when it was scored.
func windowStart(r *models.Run) time.Time {
	if s, err := models.DecodeRunSummary(r.Summary); err == nil {
		if p, err := models.ProductionOf(s); err == nil && p != nil && !p.WindowStart.IsZero() {
			return p.WindowStart.UTC()
		}
	}
	return r.StartedAt
}

// metricChart is a trend chart of one metric across a monitor's windows:
// its mean score where the suite charts draw quality.
func metricChart(id, monitor, metric string, windows []trendInput) trendChart {
	c := buildTrendChart(id, monitor, metric, windows)
	c.Title = fmt.Sprintf("Mean score and pass rate of %s across the windows of %s", metric, monitor)
	if len(c.Series) > 0 {
		c.Series[0].Name = "Mean score"
	}
	c.Description = strings.Replace(strings.ReplaceAll(c.Description, " runs", " windows"), "quality (", "mean score (", 1)
	return c
}
