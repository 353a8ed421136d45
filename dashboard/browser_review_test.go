package dashboard

import (
	"context"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowser_ReviewSurfaces drives the redesigned pages in Chromium: the
// history's regression marker and time-placed chart, the run verdict in the
// first screen of a phone, the case page's diffs, and the compare pickers
// used like a person would (choose A, submit, choose B, submit).
func TestBrowser_ReviewSurfaces(t *testing.T) {
	rw, ro := MustOpenDBs(t, "postgres")
	seedTrend(t, rw)
	f := seedFixture(t, rw)
	base := MustServe(t, ro, mount).URL + mount
	ctx, _ := newBrowser(t)
	do := func(name string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if err := chromedp.Do(sctx, actions...); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	num := func(expr string) float64 {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[float64](expr))
		if err != nil {
			t.Fatalf("evaluate %s: %v", expr, err)
		}
		return v
	}
	str := func(expr string) string {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[string](expr))
		if err != nil {
			t.Fatalf("evaluate %s: %v", expr, err)
		}
		return v
	}

	do("desktop", chromedp.EmulateViewport(1280, 900), chromedp.Navigate(base+"/?suite=Customer+support"), chromedp.WaitVisible("table.runs"))
	if n := num(`document.querySelectorAll("table.runs tr.regressed").length`); n != 3 {
		t.Errorf("%v runs marked regressed, want 3 (the candidate and two dips of the trend)", n)
	}
	if below := num(`document.querySelector("figure.chart").getBoundingClientRect().top - document.querySelector("table.runs").getBoundingClientRect().bottom`); below <= 0 {
		t.Errorf("the chart is not below the runs table (%v px)", below)
	}
	if n := num(`document.querySelectorAll("figure.chart svg a, figure.chart svg [tabindex]").length`); n != 0 {
		t.Errorf("the chart image holds %v focusable elements", n)
	}
	// Runs placed by time: six daily runs and three within hours of the last
	// day, so the gaps between points differ.
	xs := str(`Array.from(document.querySelectorAll("figure.chart g.quality circle"), c => Math.round(c.getAttribute("cx"))).join(",")`)
	if xs == "" {
		t.Fatal("no quality points")
	}
	gaps := num(`(() => { const x = Array.from(document.querySelectorAll("figure.chart g.quality circle"), c => +c.getAttribute("cx")); const d = x.slice(1).map((v, i) => Math.round(v - x[i])); return new Set(d).size; })()`)
	if gaps < 2 {
		t.Errorf("points at %s are evenly spaced: not placed by time", xs)
	}
	if n := num(`document.querySelectorAll("figure.chart text.axis").length`); n < 5 { // 3 grid labels and at least 2 dates
		t.Errorf("%v axis labels, want the grid values and at least two dates", n)
	}

	do("case diff", chromedp.Navigate(base+"/runs/"+f.Candidate.ID.String()+"/cases/0"), chromedp.WaitVisible("p.output-diff"))
	if got := str(`document.querySelector("p.output-diff del").textContent + "|" + document.querySelector("p.output-diff ins").textContent`); got != "removed: You can return it|added: Returns are accepted" {
		t.Errorf("diff = %q", got)
	}
	if vis := num(`document.querySelector("p.output-diff ins .sr-only").getBoundingClientRect().width`); vis > 1 {
		t.Errorf("the screen-reader word is visible (%v px wide)", vis)
	}

	do("compare form", chromedp.Navigate(base+"/compare"), chromedp.WaitVisible("select#c-a"),
		chromedp.SetValue("select#c-a", f.Baseline.ID.String()), chromedp.Click("button[type=submit]"), chromedp.WaitVisible("p.choose"))
	// Only A chosen: the form asks for B, now listing A's definition.
	if got := str(`document.querySelector("select#c-a").value`); got != f.Baseline.ID.String() {
		t.Errorf("picker A lost the choice: %q", got)
	}
	if n := num(`document.querySelectorAll("select#c-b option[value]:not([value=''])").length`); n < 2 {
		t.Errorf("picker B offers %v runs", n)
	}
	do("compare", chromedp.SetValue("select#c-b", f.Candidate.ID.String()), chromedp.Click("button[type=submit]"),
		chromedp.WaitVisible("table.compare"))

	do("phone", chromedp.EmulateViewport(375, 812), chromedp.Navigate(base+"/compare?a="+f.Baseline.ID.String()+"&b="+f.Candidate.ID.String()),
		chromedp.WaitVisible("#verdict"))
	if top := num(`document.querySelector("#verdict").getBoundingClientRect().bottom`); top > 812 {
		t.Errorf("the compare verdict ends %v px down, below the first phone screen", top)
	}
	do("phone run", chromedp.Navigate(base+"/runs/"+f.Candidate.ID.String()), chromedp.WaitVisible("#verdict"))
	if top := num(`document.querySelector("#verdict").getBoundingClientRect().bottom`); top > 812 {
		t.Errorf("the run verdict ends %v px down, below the first phone screen", top)
	}
	if got := str(`document.querySelector("#verdict .verdict-title").textContent`); got != "Regressed" {
		t.Errorf("run verdict = %q", got)
	}
}
