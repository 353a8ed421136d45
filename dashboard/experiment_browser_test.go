package dashboard

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// TestBrowser_ExperimentGrid follows a variant's run page to its
// experiment's grid in real Chromium behind the mount-path proxy: the grid
// shows every answer side by side with the best ones marked, the variant
// pickers choose the pair, an answer's markup stays text, the grid scrolls
// inside its keyboard-reachable region (the page body never scrolls
// sideways at 375 px), and nothing is requested outside the mount path.
func TestBrowser_ExperimentGrid(t *testing.T) {
	rw, ro := MustOpenDBs(t, "postgres")
	info := experimentFixture(t, rw, []string{"short", "long", "cot"}, 6)
	runs, err := ro.ExperimentRuns(context.Background(), info.ID, time.Time{})
	if err != nil || len(runs) != 3 {
		t.Fatalf("experiment runs = %d, %v", len(runs), err)
	}
	proxy, outside := proxyDashboard(t, MustServe(t, ro, mount))
	ctx, bl := newBrowser(t)
	step, eval := browserSteps(t, ctx)
	step("desktop", chromedp.EmulateViewport(1280, 900))
	step("run page", chromedp.Navigate(proxy.URL+mount+"/runs/"+runs[0].ID.String()), chromedp.WaitVisible("p.experiment-link a"))
	step("open the grid", chromedp.Click("p.experiment-link a"), chromedp.WaitVisible("table#grid"))
	if n := eval(`document.querySelectorAll("table#grid tbody tr").length`); n != float64(6) {
		t.Errorf("grid rows = %v, want 6", n)
	}
	if n := eval(`document.querySelectorAll("table#grid td.best").length`); n != float64(12) {
		t.Errorf("best cells = %v, want 12 (two of three variants are right on every question)", n)
	}
	if got := eval(`document.querySelector("#pair-h").textContent`); got != "long against short" {
		t.Errorf("pair = %v", got)
	}
	step("choose a pair", chromedp.SetValue("#v-a", "cot"), chromedp.SetValue("#v-b", "long"), chromedp.Click("form.filters button[type=submit]"))
	for i := 0; ; i++ { // evaluations that race the navigation fail and are retried
		ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](`location.search.includes("a=cot") && document.readyState === "complete"`))
		if err == nil && ok {
			break
		}
		if i == 200 {
			t.Fatalf("the pair form did not load the chosen pair: %v", err)
		}
		time.Sleep(50 * time.Millisecond)
	}
	if got := eval(`document.querySelector("#pair-h").textContent`); got != "long against cot" {
		t.Errorf("chosen pair = %v", got)
	}
	if got := eval(`location.search.includes("from=")`); got != true {
		t.Error("the pair form dropped the experiment's start")
	}
	if got := eval(`document.querySelectorAll("main script, main b").length === 0 && document.body.innerText.includes("<script>alert(1)</script>")`); got != true {
		t.Error("an answer's markup became elements or was not shown as text")
	}
	if got := eval(`document.querySelector("table#grid").closest("[role=region]").tabIndex`); got != float64(0) {
		t.Errorf("the grid's scroll region is not keyboard-reachable: tabIndex %v", got)
	}
	if dir := os.Getenv("EVALDASH_SCREENSHOTS"); dir != "" {
		b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(screenshotDir(t), "dashboard-experiment.png"), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	step("phone", chromedp.EmulateViewport(375, 812), chromedp.Reload(), chromedp.WaitVisible("table#grid"))
	if w := eval(`document.documentElement.scrollWidth`); w.(float64) > 375 {
		t.Errorf("grid page is %v px wide at 375 px", w)
	}
	time.Sleep(200 * time.Millisecond)
	bl.mu.Lock()
	defer bl.mu.Unlock()
	for _, p := range bl.problems {
		t.Errorf("browser reported: %s", p)
	}
	for _, r := range bl.requests {
		if !strings.HasPrefix(r, proxy.URL+mount+"/") && !strings.HasPrefix(r, "data:") {
			t.Errorf("request outside the mount path: %s", r)
		}
	}
	for _, r := range outside() {
		t.Errorf("the proxy saw a request outside the mount path: %s", r)
	}
}
