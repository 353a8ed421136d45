package dashboard

import (
	"fmt"
	"strings"
)

// Chart geometry, in SVG user units.
const (
	chartWidth  = 640
	chartHeight = 180
	chartLeft   = 40
	chartRight  = 12
	chartTop    = 12
	chartBottom = 24
)

// chartPoint is one run on a trend chart. Value is nil when the run has no
// calculated value: such runs are gaps in the line, never zeros.
type chartPoint struct {
	X     float64
	Y     float64 // meaningful only when Value != nil
	Value *float64
	Label string // accessible text: run time and value
	Link  string
}

// chartSeries is one line (quality or pass rate) split into segments at gaps.
type chartSeries struct {
	Name     string
	Class    string
	Points   []chartPoint
	Segments []string // SVG polyline "points" values
	Missing  int
}

// trendChart is the inline SVG of one suite/agent's quality and pass rate
// across the runs on the page, oldest first.
type trendChart struct {
	ID           string
	Suite, Agent string
	Width        int
	Height       int
	Series       []chartSeries
	Description  string
	GridLines    []gridLine
	XLabels      []axisLabel
	Runs         int
	// The plot area: the zero line is at PlotBottom, 1.0 at PlotTop.
	PlotLeft, PlotRight, PlotTop, PlotBottom float64
}

// axisLabel names the first and last run's date under the x axis.
type axisLabel struct {
	X      float64
	Text   string
	Anchor string
}

type gridLine struct {
	Y     float64
	Label string
}

// trendInput is one run as the chart sees it.
type trendInput struct {
	When     string
	Day      string
	Link     string
	Quality  *float64
	PassRate *float64
}

// buildTrendChart lays out the runs (oldest first) of one suite/agent.
func buildTrendChart(id, suite, agent string, runs []trendInput) trendChart {
	c := trendChart{ID: id, Suite: suite, Agent: agent, Width: chartWidth, Height: chartHeight, Runs: len(runs),
		PlotLeft: chartLeft, PlotRight: chartWidth - chartRight, PlotTop: chartTop, PlotBottom: chartHeight - chartBottom}
	plotW := float64(chartWidth - chartLeft - chartRight)
	plotH := float64(chartHeight - chartTop - chartBottom)
	for _, v := range []float64{0, 0.5, 1} {
		c.GridLines = append(c.GridLines, gridLine{Y: chartTop + plotH*(1-v), Label: fmt.Sprintf("%.1f", v)})
	}
	x := func(i int) float64 {
		if len(runs) == 1 {
			return chartLeft + plotW/2
		}
		return chartLeft + plotW*float64(i)/float64(len(runs)-1)
	}
	series := []struct {
		name, class string
		get         func(trendInput) *float64
		format      func(*float64) string
	}{
		{"Quality", "quality", func(t trendInput) *float64 { return t.Quality }, formatScore},
		{"Pass rate", "passrate", func(t trendInput) *float64 { return t.PassRate }, formatPercent},
	}
	if n := len(runs); n > 0 {
		c.XLabels = append(c.XLabels, axisLabel{X: chartLeft, Text: runs[0].Day, Anchor: "start"})
		if n > 1 && runs[n-1].Day != runs[0].Day {
			c.XLabels = append(c.XLabels, axisLabel{X: chartWidth - chartRight, Text: runs[n-1].Day, Anchor: "end"})
		}
	}
	var desc []string
	for _, sd := range series {
		s := chartSeries{Name: sd.name, Class: sd.class}
		var seg []string
		flush := func() {
			if len(seg) > 1 {
				s.Segments = append(s.Segments, strings.Join(seg, " "))
			}
			seg = nil
		}
		for i, r := range runs {
			v := sd.get(r)
			p := chartPoint{X: x(i), Value: v, Link: r.Link}
			if v == nil {
				s.Missing++
				p.Label = fmt.Sprintf("%s: %s not available", r.When, strings.ToLower(sd.name))
				flush()
			} else {
				p.Y = chartTop + plotH*(1-clamp01(*v))
				p.Label = fmt.Sprintf("%s: %s %s", r.When, strings.ToLower(sd.name), sd.format(v))
				seg = append(seg, fmt.Sprintf("%.1f,%.1f", p.X, p.Y))
			}
			s.Points = append(s.Points, p)
		}
		flush()
		latest := "not available"
		if n := len(runs); n > 0 && sd.get(runs[n-1]) != nil {
			latest = sd.format(sd.get(runs[n-1]))
		}
		desc = append(desc, fmt.Sprintf("%s latest %s, %d of %d runs without a value", strings.ToLower(sd.name), latest, s.Missing, len(runs)))
		c.Series = append(c.Series, s)
	}
	c.Description = fmt.Sprintf("%d runs, oldest first; %s.", len(runs), strings.Join(desc, "; "))
	return c
}

func clamp01(v float64) float64 {
	return max(0, min(1, v))
}
