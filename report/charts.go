package report

import (
	"fmt"
	"math"
	"unicode/utf8"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/show"
)

// Chart geometry (SVG user units; the SVG scales to the page width).
const (
	chartWidth = 600.0
	labelWidth = 170.0
	barLeft    = 180.0
	barWidth   = 340.0
	rowHeight  = 28.0
	chartTop   = 8.0
)

// charts are the inline SVG charts of the HTML report, precomputed so the
// template only places numbers. A value that was not calculated has no bar.
type charts struct {
	Scores scoreChart
	// Deltas is nil without a baseline.
	Deltas *deltaChart
}

type scoreChart struct {
	Height float64
	Rows   []scoreRow
	Axis   []tick
}

type scoreRow struct {
	Label     string
	Y, TextY  float64
	HasMean   bool
	BarW      float64
	HasCI     bool
	CILo      float64
	CIHi      float64
	HasBase   bool
	BaseX     float64
	Value     string
	Title     string
	ValueX    float64
	MidY      float64
	BarHeight float64
}

type tick struct {
	X     float64
	Label string
}

type deltaChart struct {
	// Unchanged counts the rows left out: equal to three decimals, or
	// without a value on one side.
	Unchanged int
	Height    float64
	ZeroX     float64
	Scale     string
	Rows      []deltaRow
	Axis      []tick
	BottomY   float64
}

type deltaRow struct {
	Label    string
	Y, TextY float64
	HasDelta bool
	X, W     float64
	Negative bool
	Value    string
	ValueX   float64
}

func buildCharts(c *compare.Comparison) charts {
	type item struct {
		label string
		st    compare.Stat
		base  *float64
		delta *float64
	}
	var items []item
	q := item{label: "quality (run)", st: c.Totals.Quality}
	if c.BaselineTotals != nil && c.BaselineTotals.Quality.Mean != nil && q.st.Mean != nil {
		q.base = c.BaselineTotals.Quality.Mean
		q.delta = compare.Ptr(*q.st.Mean - *q.base)
	}
	items = append(items, q)
	for _, m := range c.Metrics {
		items = append(items, item{label: m.Name, st: m.Stat, base: m.BaselineMean, delta: m.Delta})
	}
	x := func(v float64) float64 { return round2(barLeft + clamp01(v)*barWidth) }
	var sc scoreChart
	for i, it := range items {
		y := chartTop + float64(i)*rowHeight
		r := scoreRow{Label: truncate(it.label, 28), Title: it.label, Y: y + 6, TextY: y + 18, MidY: y + 14,
			BarHeight: 16, ValueX: barLeft + barWidth + 6, Value: "n/a"}
		if it.st.Mean != nil {
			r.HasMean, r.BarW, r.Value = true, round2(clamp01(*it.st.Mean)*barWidth), fmt.Sprintf("%.3f", *it.st.Mean)
		}
		if it.st.CI != nil {
			r.HasCI, r.CILo, r.CIHi = true, x(it.st.CI.Low), x(it.st.CI.High)
		}
		if it.base != nil {
			r.HasBase, r.BaseX = true, x(*it.base)
		}
		sc.Rows = append(sc.Rows, r)
	}
	sc.Height = chartTop + float64(len(items))*rowHeight + 20
	for _, v := range []float64{0, 0.25, 0.5, 0.75, 1} {
		sc.Axis = append(sc.Axis, tick{X: x(v), Label: show.Float(v)})
	}
	out := charts{Scores: sc}
	if c.Baseline == nil {
		return out
	}
	maxAbs := 0.05
	for _, it := range items {
		if it.delta != nil {
			maxAbs = math.Max(maxAbs, math.Abs(*it.delta))
		}
	}
	half := barWidth / 2
	zero := barLeft + half
	dc := &deltaChart{ZeroX: zero, Scale: fmt.Sprintf("±%.3f", maxAbs)}
	for _, it := range items {
		// Only what changed is drawn: a +0.000 bar says nothing.
		if it.delta == nil || math.Abs(*it.delta) < 0.0005 {
			dc.Unchanged++
			continue
		}
		y := chartTop + float64(len(dc.Rows))*rowHeight
		d := *it.delta
		w := round2(math.Abs(d) / maxAbs * half)
		r := deltaRow{Label: truncate(it.label, 28), Y: y + 6, TextY: y + 18, ValueX: barLeft + barWidth + 6,
			HasDelta: true, W: w, Negative: d < 0, Value: fmt.Sprintf("%+.3f", d), X: zero}
		if d < 0 {
			r.X = round2(zero - w)
		}
		dc.Rows = append(dc.Rows, r)
	}
	dc.BottomY = chartTop + float64(len(dc.Rows))*rowHeight
	dc.Height = dc.BottomY + 20
	dc.Axis = []tick{{X: barLeft, Label: fmt.Sprintf("%+.2f", -maxAbs)}, {X: zero, Label: "0"},
		{X: barLeft + barWidth, Label: fmt.Sprintf("%+.2f", maxAbs)}}
	out.Deltas = dc
	return out
}

func clamp01(v float64) float64 { return math.Max(0, math.Min(1, v)) }

func round2(v float64) float64 { return math.Round(v*100) / 100 }

// truncate shortens s to at most n runes, marking the cut with "…".
func truncate(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	r := []rune(s)
	return string(r[:n]) + "…"
}
