package dashboard

import (
	"fmt"
	"strings"
	"time"
)

// Chart geometry, in SVG user units.
const (
	chartWidth  = 640
	chartHeight = 180
	chartLeft   = 40
	chartRight  = 16
	chartTop    = 12
	chartBottom = 24
	// chartTicks is the most date labels under the x axis.
	chartTicks = 4
)

// chartPoint is one run on a trend chart. Value is nil when the run has no
// calculated value: such runs are gaps in the line, never zeros.
type chartPoint struct {
	X     float64
	Y     float64 // meaningful only when Value != nil
	Value *float64
	Label string // the run's time and value, shown on hover
}

// chartSeries is one line (quality or pass rate) split into segments at
// gaps. Each series has its own colour, dash pattern and marker shape
// (Marker "circle" or "square"), so it is told apart without colour.
type chartSeries struct {
	Name     string
	Class    string
	Marker   string
	Points   []chartPoint
	Segments []string // SVG polyline "points" values
	Missing  int
}

// trendChart is the inline SVG of one suite/agent's quality and pass rate
// across the runs on the page, oldest on the left, each run placed at its
// start time. It is an image (role="img" with a title and a description):
// it holds no links, the runs table above it is the way to each run.
type trendChart struct {
	ID           string
	Suite, Agent string
	// Title names the chart for screen readers ("": the quality and
	// pass-rate trend of Suite / Agent).
	Title       string
	Width       int
	Height      int
	Series      []chartSeries
	Description string
	GridLines   []gridLine
	XLabels     []axisLabel
	Runs        int
	// The plot area: the zero line is at PlotBottom, 1.0 at PlotTop.
	PlotLeft, PlotRight, PlotTop, PlotBottom float64
}

// axisLabel is a date under the x axis, with a tick.
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
	At       time.Time
	Quality  *float64
	PassRate *float64
}

// buildTrendChart lays out the runs (oldest first) of one suite/agent on a
// time axis.
func buildTrendChart(id, st, a string, runs []trendInput) trendChart {
	c := trendChart{ID: id, Suite: st, Agent: a, Width: chartWidth, Height: chartHeight, Runs: len(runs),
		PlotLeft: chartLeft, PlotRight: chartWidth - chartRight, PlotTop: chartTop, PlotBottom: chartHeight - chartBottom}
	plotW := float64(chartWidth - chartLeft - chartRight)
	plotH := float64(chartHeight - chartTop - chartBottom)
	for _, v := range []float64{0, 0.5, 1} {
		c.GridLines = append(c.GridLines, gridLine{Y: chartTop + plotH*(1-v), Label: fmt.Sprintf("%.1f", v)})
	}
	var first, last time.Time
	if len(runs) > 0 {
		first, last = runs[0].At, runs[len(runs)-1].At
	}
	span := last.Sub(first)
	x := func(t time.Time) float64 {
		if span <= 0 {
			return chartLeft + plotW/2
		}
		return chartLeft + plotW*float64(t.Sub(first))/float64(span)
	}
	c.XLabels = timeTicks(first, last, x)
	series := []struct {
		name, class, marker string
		get                 func(trendInput) *float64
		format              func(*float64) string
	}{
		{"Quality", "quality", "circle", func(t trendInput) *float64 { return t.Quality }, formatScore},
		{"Pass rate", "passrate", "square", func(t trendInput) *float64 { return t.PassRate }, formatPercent},
	}
	var desc []string
	for _, sd := range series {
		s := chartSeries{Name: sd.name, Class: sd.class, Marker: sd.marker}
		var seg []string
		flush := func() {
			if len(seg) > 1 {
				s.Segments = append(s.Segments, strings.Join(seg, " "))
			}
			seg = nil
		}
		for _, r := range runs {
			v := sd.get(r)
			p := chartPoint{X: x(r.At), Value: v}
			when := formatTime(r.At)
			if v == nil {
				s.Missing++
				p.Label = fmt.Sprintf("%s: %s not available", when, strings.ToLower(sd.name))
				flush()
			} else {
				p.Y = chartTop + plotH*(1-clamp01(*v))
				p.Label = fmt.Sprintf("%s: %s %s", when, strings.ToLower(sd.name), sd.format(v))
				seg = append(seg, fmt.Sprintf("%.1f,%.1f", p.X, p.Y))
			}
			s.Points = append(s.Points, p)
		}
		flush()
		latest := "not available"
		if n := len(runs); n > 0 && sd.get(runs[n-1]) != nil {
			latest = sd.format(sd.get(runs[n-1]))
		}
		desc = append(desc, fmt.Sprintf("%s (%s line, %s markers) latest %s, %d of %d runs without a value",
			strings.ToLower(sd.name), map[string]string{"quality": "solid", "passrate": "dashed"}[sd.class], sd.marker,
			latest, s.Missing, len(runs)))
		c.Series = append(c.Series, s)
	}
	period := ""
	if len(runs) > 0 {
		period = fmt.Sprintf(" from %s to %s", formatTime(first), formatTime(last))
	}
	c.Description = fmt.Sprintf("%d runs%s, placed by start time; %s.", len(runs), period, strings.Join(desc, "; "))
	return c
}

// timeTicks labels up to chartTicks evenly spaced moments between first
// and last: dates ("Nov 14") over a span of days, with the hour when the
// span is shorter than two days, with the year when it crosses one.
func timeTicks(first, last time.Time, x func(time.Time) float64) []axisLabel {
	if first.IsZero() {
		return nil
	}
	span := last.Sub(first)
	layout := "Jan 2"
	switch {
	case span < 48*time.Hour:
		layout = "Jan 2 15:04"
	case first.Year() != last.Year():
		layout = "Jan 2 2006"
	}
	if span <= 0 {
		return []axisLabel{{X: x(first), Text: first.UTC().Format(layout), Anchor: "middle"}}
	}
	n := chartTicks
	if layout == "Jan 2 15:04" || layout == "Jan 2 2006" {
		n = 3 // longer labels
	}
	var out []axisLabel
	prev := ""
	for i := 0; i < n; i++ {
		t := first.Add(time.Duration(float64(span) * float64(i) / float64(n-1)))
		text := t.UTC().Format(layout)
		if text == prev {
			continue
		}
		prev = text
		anchor := "middle"
		switch i {
		case 0:
			anchor = "start"
		case n - 1:
			anchor = "end"
		}
		out = append(out, axisLabel{X: x(t), Text: text, Anchor: anchor})
	}
	return out
}

func clamp01(v float64) float64 {
	return max(0, min(1, v))
}
