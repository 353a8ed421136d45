package dashboard

import (
	"context"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/cdproto/emulation"
	"github.com/chromedp/chromedp"

	"github.com/agentevals-go/agentevals/internal/testkit/axe"
)

// auditView is one combination of viewport and colour scheme an audit runs in.
type auditView struct {
	Name          string
	Width, Height int64
	Scheme        string
}

// auditViews are the four layouts every page is audited in.
var auditViews = []auditView{
	{"desktop light", 1280, 900, "light"},
	{"desktop dark", 1280, 900, "dark"},
	{"phone light", 375, 812, "light"},
	{"phone dark", 375, 812, "dark"},
}

// setView applies a viewport and a prefers-color-scheme emulation.
func setView(ctx context.Context, v auditView) error {
	if err := chromedp.Do(ctx, chromedp.EmulateViewport(v.Width, v.Height)); err != nil {
		return err
	}
	_, err := chromedp.Call(ctx, emulation.SetEmulatedMedia, emulation.SetEmulatedMediaParams{
		Features: []*emulation.MediaFeature{{Name: "prefers-color-scheme", Value: v.Scheme}}})
	return err
}

// auditPage opens url and fails the test for every axe-core violation
// (serious and critical ones are what the issue requires; the pages are
// clean of the minor and moderate ones too, so those fail as well), for a
// page body that scrolls sideways and for inline script or style, which the
// strict Content-Security-Policy would block.
func auditPage(t *testing.T, ctx context.Context, v auditView, name, url string) {
	t.Helper()
	actx, cancel := context.WithTimeout(ctx, 60*time.Second)
	defer cancel()
	if err := chromedp.Do(actx, chromedp.Navigate(url), chromedp.WaitVisible("main")); err != nil {
		t.Fatalf("%s (%s): open: %v", name, v.Name, err)
	}
	vs, err := axe.Run(actx)
	if err != nil {
		t.Fatalf("%s (%s): %v", name, v.Name, err)
	}
	for _, vi := range vs {
		t.Errorf("%s (%s): axe-core %s: %s", name, v.Name, axe.Version, vi)
	}
	inline, err := chromedp.Run(actx, chromedp.Evaluate[float64](`document.querySelectorAll("script, style, [style], [onclick], [onload]").length`))
	if err != nil {
		t.Fatalf("%s (%s): look for inline code: %v", name, v.Name, err)
	}
	if inline > 0 {
		t.Errorf("%s (%s): %v elements with inline script or style", name, v.Name, inline)
	}
	w, err := chromedp.Run(actx, chromedp.Evaluate[float64](`document.documentElement.scrollWidth - document.documentElement.clientWidth`))
	if err != nil {
		t.Fatalf("%s (%s): measure width: %v", name, v.Name, err)
	}
	if w > 0 {
		t.Errorf("%s (%s): the page body scrolls sideways by %v px", name, v.Name, w)
	}
}

// writeScreenshot saves the whole page as a PNG.
func writeScreenshot(t *testing.T, ctx context.Context, path string) {
	t.Helper()
	b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
	if err != nil {
		t.Fatalf("screenshot %s: %v", path, err)
	}
	if err := os.WriteFile(path, b, 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestBrowser_Accessibility(t *testing.T) {
	rw, ro := MustOpenDBs(t, "postgres")
	seedTrend(t, rw)
	f := seedFixture(t, rw)
	exp := experimentFixture(t, rw, []string{"short", "long", "cot"}, 6)
	_, emptyRO := MustOpenDBs(t, "sqlite")
	dash := MustServe(t, ro, mount)
	empty := MustServe(t, emptyRO, mount)
	ctx, bl := newBrowser(t)
	cand, base := f.Candidate.ID.String(), f.Baseline.ID.String()
	pages := []struct{ name, url string }{
		{"history", dash.URL + mount + "/"},
		{"history filtered", dash.URL + mount + "/?suite=" + url.QueryEscape("Customer support")},
		{"history empty database", empty.URL + mount + "/"},
		{"run", dash.URL + mount + "/runs/" + cand},
		{"run without judge", dash.URL + mount + "/runs/" + f.NoJudge.ID.String()},
		{"case", dash.URL + mount + "/runs/" + cand + "/cases/1"},
		{"case with diff", dash.URL + mount + "/runs/" + cand + "/cases/0"},
		{"case with error", dash.URL + mount + "/runs/" + cand + "/cases/2"},
		{"compare form", dash.URL + mount + "/compare"},
		{"compare, A chosen", dash.URL + mount + "/compare?a=" + base},
		{"compare", dash.URL + mount + "/compare?a=" + base + "&b=" + cand},
		{"compare refused", dash.URL + mount + "/compare?a=" + base + "&b=" + f.NoJudge.ID.String()},
		{"search form", dash.URL + mount + "/search"},
		{"search results", dash.URL + mount + "/search?q=days"},
		{"not found", dash.URL + mount + "/no-such-page"},
		{"experiment grid", dash.URL + mount + "/experiments/" + exp.ID + "?from=" + url.QueryEscape(exp.StartedAt)},
	}
	// The README's pictures beyond TestBrowser_Dashboard's: the other
	// layouts and colour schemes (EVALDASH_SCREENSHOTS=1 writes them to
	// docs/images).
	shots := map[string]string{
		"desktop light/search results":       "dashboard-search.png",
		"desktop dark/history":               "dashboard-history-dark.png",
		"desktop dark/case with diff":        "dashboard-case-dark.png",
		"phone light/compare":                "dashboard-compare-mobile.png",
		"phone light/history empty database": "dashboard-first-run-mobile.png",
		"phone dark/history":                 "dashboard-history-dark-mobile.png",
		"phone dark/run":                     "dashboard-run-dark-mobile.png",
	}
	dir := screenshotDir(t)
	for _, v := range auditViews {
		t.Run(v.Name, func(t *testing.T) {
			if err := setView(ctx, v); err != nil {
				t.Fatal(err)
			}
			for _, p := range pages {
				auditPage(t, ctx, v, p.name, p.url)
				if name := shots[v.Name+"/"+p.name]; name != "" {
					writeScreenshot(t, ctx, filepath.Join(dir, name))
				}
			}
			if v.Width < 400 {
				keyboardJourney(t, ctx, dash.URL+mount+"/")
			}
		})
	}
	bl.mu.Lock()
	defer bl.mu.Unlock()
	for _, p := range bl.problems {
		if strings.Contains(p, "Content Security Policy") || strings.Contains(p, "Content-Security-Policy") {
			t.Errorf("the browser reported a CSP violation: %s", p)
		}
	}
}
