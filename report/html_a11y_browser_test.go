package report

import (
	"context"
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/axe"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
)

// TestRenderer_HTMLAccessibleInChromium audits HTML reports with axe-core
// in real Chromium: desktop (1280 px) and phone (375 px), light and dark.
// Every violation fails (the issue requires no serious or critical one;
// the report is clean of the others too), as does a page body that scrolls
// sideways, a wide region that the keyboard cannot reach, or an element
// hidden behind the right edge without a scrolling wrapper.
func TestRenderer_HTMLAccessibleInChromium(t *testing.T) {
	ref, bad := runfixture.SupportRuns()
	prev, later := runfixture.WorkedExample()
	hostile, hostileBase := hostileRun("http://127.0.0.1:9")
	reports := map[string]*compare.Comparison{
		"support regressed": compare.Compare(bad, ref, compare.Options{Tolerance: 0.02}),
		"support reference": compare.Compare(ref, nil, compare.Options{}),
		"worked example":    compare.Compare(later, prev, compare.Options{Tolerance: 0.02}),
		"hostile":           compare.Compare(hostile, hostileBase, compare.Options{Tolerance: 0.02}),
	}
	dir := t.TempDir()
	r := mustRenderer(t)
	files := map[string]string{}
	for name, cmp := range reports {
		files[name] = filepath.Join(dir, name+".html")
		if err := r.WriteFile(files[name], FormatHTML, cmp); err != nil {
			t.Fatal(err)
		}
	}
	gref, gbad := runfixture.SupportRuns()
	grid, err := BuildGrid(experimentRuns("e1", []string{"reference", "regressed"}, gref, gbad), compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	files["experiment grid"] = filepath.Join(dir, "grid.html")
	if err := r.WriteGridFile(files["experiment grid"], FormatHTML, grid); err != nil {
		t.Fatal(err)
	}
	ctx := browser(t)
	shots := map[string]string{
		"desktop light/support regressed": "report-regressed.png",
		"phone dark/support regressed":    "report-regressed-dark-mobile.png",
	}
	for _, v := range []struct {
		name          string
		width, height int64
		scheme        string
	}{
		{"desktop light", 1280, 900, "light"}, {"desktop dark", 1280, 900, "dark"},
		{"phone light", 375, 812, "light"}, {"phone dark", 375, 812, "dark"},
	} {
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(v.width, v.height)); err != nil {
			t.Fatal(err)
		}
		if _, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
			Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v.scheme}}}); err != nil {
			t.Fatal(err)
		}
		for name, file := range files {
			actx, cancel := context.WithTimeout(ctx, 45*time.Second)
			if err := chromedp.Do(actx, chromedp.Navigate("file://"+file), chromedp.WaitReady(chromedp.CSS("main h1"))); err != nil {
				cancel()
				t.Fatalf("%s (%s): %v", name, v.name, err)
			}
			vs, err := axe.Run(actx)
			if err != nil {
				cancel()
				t.Fatalf("%s (%s): %v", name, v.name, err)
			}
			for _, vi := range vs {
				t.Errorf("%s (%s): axe-core %s: %s", name, v.name, axe.Version, vi)
			}
			// Content wider than the page must sit in a focusable
			// scrolling region, never stick out of the body.
			type layout struct {
				BodyOverflow float64  `json:"bodyOverflow"`
				Unreachable  []string `json:"unreachable"`
				Uncued       []string `json:"uncued"`
			}
			got, err := chromedp.Run(actx, chromedp.Evaluate[layout](`(() => ({
  bodyOverflow: document.documentElement.scrollWidth - document.documentElement.clientWidth,
  unreachable: [...document.querySelectorAll("div.scroll")].filter(e => e.scrollWidth > e.clientWidth && e.tabIndex < 0).map(e => e.getAttribute("aria-label") || e.outerHTML.slice(0, 60)),
  uncued: [...document.querySelectorAll("div.scroll")].filter(e => e.scrollWidth > e.clientWidth + 1 && !getComputedStyle(e, "::before").content.includes("scroll")).map(e => e.getAttribute("aria-label") || e.outerHTML.slice(0, 60)),
}))()`))
			if err != nil {
				cancel()
				t.Fatalf("%s (%s): measure layout: %v", name, v.name, err)
			}
			if shot := shots[v.name+"/"+name]; shot != "" && os.Getenv("EVALDASH_SCREENSHOTS") == "1" {
				// EVALDASH_SCREENSHOTS=1 refreshes the README's pictures.
				b, err := chromedp.Run(actx, chromedp.FullScreenshot(100))
				if err != nil {
					cancel()
					t.Fatalf("screenshot %s: %v", shot, err)
				}
				if err := os.WriteFile(filepath.Join("..", "docs", "images", shot), b, 0o644); err != nil {
					cancel()
					t.Fatal(err)
				}
			}
			cancel()
			if got.BodyOverflow > 0 {
				t.Errorf("%s (%s): the page body scrolls sideways by %v px", name, v.name, got.BodyOverflow)
			}
			if len(got.Unreachable) > 0 {
				t.Errorf("%s (%s): wide regions the keyboard cannot scroll: %v", name, v.name, got.Unreachable)
			}
			if v.width <= 375 && len(got.Uncued) > 0 {
				// Clipped columns look like the whole table on a phone.
				t.Errorf("%s (%s): regions clipped at the right edge with no \"scroll sideways\" cue: %v", name, v.name, got.Uncued)
			}
		}
	}
}
