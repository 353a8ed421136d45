package dashboard

import (
	"context"
	"encoding/json"
	"fmt"
	"iter"
	"net/http"
	"net/http/httptest"
	"net/http/httputil"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/browser"
	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/log"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/agentevals-go/agentevals/models"
)

const chromiumPath = "/usr/bin/chromium"

// browserLog collects what the page did: every request, console errors,
// exceptions and dialogs.
type browserLog struct {
	mu       sync.Mutex
	requests []string
	problems []string
	dialogs  chan string
}

func (l *browserLog) listen(ev any) {
	l.mu.Lock()
	defer l.mu.Unlock()
	switch e := ev.(type) {
	case *network.EventRequestWillBeSent:
		l.requests = append(l.requests, e.Request.URL)
	case *runtime.EventConsoleAPICalled:
		if e.Type == runtime.ConsoleAPICalledTypeError || e.Type == runtime.ConsoleAPICalledTypeWarning || e.Type == runtime.ConsoleAPICalledTypeAssert {
			l.problems = append(l.problems, "console "+string(e.Type))
		}
	case *runtime.EventExceptionThrown:
		l.problems = append(l.problems, "exception: "+e.ExceptionDetails.Text)
	case *log.EventEntryAdded:
		if e.Entry.Level == log.EntryLevelError || e.Entry.Level == log.EntryLevelWarning {
			l.problems = append(l.problems, "log "+string(e.Entry.Source)+": "+e.Entry.Text)
		}
	case *page.EventJavascriptDialogOpening:
		l.problems = append(l.problems, "dialog: "+e.Message)
		select {
		case l.dialogs <- e.Message:
		default:
		}
	}
}

// newBrowser starts headless Chromium with a fresh profile; a missing
// Chromium fails the test with the command that installs it.
func newBrowser(t *testing.T) (context.Context, *browserLog) {
	t.Helper()
	if _, err := os.Stat(chromiumPath); err != nil {
		t.Fatalf("browser tests need Chromium at %s: run `apt-get install -y chromium` (%v)", chromiumPath, err)
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(),
		chromedp.ExecPath(chromiumPath), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU,
		chromedp.NoFirstRun, chromedp.NoDefaultBrowserCheck, chromedp.UserDataDir(t.TempDir()),
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-extensions", true), chromedp.Flag("disable-dev-shm-usage", true))
	ctx, cancel := chromedp.NewContext(alloc)
	t.Cleanup(func() { cancel(); cancelAlloc() })
	bl := &browserLog{dialogs: make(chan string, 8)}
	if err := chromedp.Listen(ctx, bl.listen); err != nil {
		t.Fatalf("start chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("enable network events: %v", err)
	}
	if _, err := chromedp.Call(ctx, log.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("enable log events: %v", err)
	}
	go func() { // a dialog would block the page: dismiss it (it is already recorded)
		for {
			select {
			case <-ctx.Done():
				return
			case <-bl.dialogs:
				_, _ = chromedp.Call(ctx, page.HandleJavaScriptDialog, page.HandleJavaScriptDialogParams{Accept: false})
			}
		}
	}()
	return ctx, bl
}

// browserSteps returns the two helpers a browser test reads as a script:
// step runs actions (20 s at most, failing the test with the step's name)
// and eval evaluates a JavaScript expression in the page.
func browserSteps(t *testing.T, ctx context.Context) (step func(string, ...chromedp.Action[chromedp.Void]), eval func(string) any) {
	step = func(name string, actions ...chromedp.Action[chromedp.Void]) {
		t.Helper()
		sctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		defer cancel()
		if err := chromedp.Do(sctx, actions...); err != nil {
			t.Fatalf("%s: %v", name, err)
		}
	}
	eval = func(expr string) any {
		t.Helper()
		v, err := chromedp.Run(ctx, chromedp.Evaluate[any](expr))
		if err != nil {
			t.Fatalf("evaluate %s: %v", expr, err)
		}
		return v
	}
	return step, eval
}

// proxyDashboard serves the dashboard under /evaluations behind a reverse
// proxy, the way an application's auth proxy would; any request outside the
// mount path is recorded and refused.
func proxyDashboard(t *testing.T, dash *httptest.Server) (*httptest.Server, func() []string) {
	t.Helper()
	target, err := url.Parse(dash.URL)
	if err != nil {
		t.Fatal(err)
	}
	var mu sync.Mutex
	var outside []string
	mux := http.NewServeMux()
	mux.Handle(mount+"/", httputil.NewSingleHostReverseProxy(target))
	mux.HandleFunc("/", func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		outside = append(outside, r.URL.String())
		mu.Unlock()
		http.NotFound(w, r)
	})
	proxy := httptest.NewServer(mux)
	t.Cleanup(proxy.Close)
	return proxy, func() []string { mu.Lock(); defer mu.Unlock(); return append([]string(nil), outside...) }
}

// seedTrend adds a week of support runs so the history chart has a shape,
// with one run that calculated nothing (a gap).
func seedTrend(t *testing.T, db *models.DB) {
	t.Helper()
	for i, s := range []float64{0.95, 0.97, 0.9, 0, 0.99, 0.93} {
		at := t0.Add(-time.Duration(6-i) * 24 * time.Hour)
		var r *models.Run
		if s == 0 {
			r = supportRun(at, 0.9, models.JSON(lookupTrace), false, models.JSON(`{}`))
			r.SuiteDigest = "d2-nojudge"
			for _, c := range r.Cases {
				c.Status = models.StatusNotEvaluated
				for _, m := range c.Metrics {
					m.Score, m.Passed = nil, false
				}
			}
		} else {
			observed := models.JSON(lookupTrace)
			if i%2 == 1 {
				observed = models.JSON(`[]`)
			}
			r = supportRun(at, s, observed, false, models.JSON(`{}`))
		}
		if err := db.InsertRun(context.Background(), r); err != nil {
			t.Fatal(err)
		}
	}
}

func TestBrowser_Dashboard(t *testing.T) {
	rw, ro := MustOpenDBs(t, "postgres")
	seedTrend(t, rw)
	f := seedFixture(t, rw)
	proxy, outside := proxyDashboard(t, MustServe(t, ro, mount))
	ctx, bl := newBrowser(t)
	shots := screenshotDir(t)
	home := proxy.URL + mount + "/"
	step, eval := browserSteps(t, ctx)
	shot := func(name string) {
		t.Helper()
		b, err := chromedp.Run(ctx, chromedp.FullScreenshot(100))
		if err != nil {
			t.Fatalf("screenshot %s: %v", name, err)
		}
		if err := os.WriteFile(filepath.Join(shots, name), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// waitFor polls a condition through navigations (an evaluation that
	// races a navigation fails and is retried).
	waitFor := func(cond string) chromedp.Action[chromedp.Void] {
		return chromedp.Func(func(ctx context.Context, tg *chromedp.Target) error {
			for {
				ok, err := chromedp.Evaluate[bool](cond)(ctx, tg)
				if err == nil && ok {
					return nil
				}
				select {
				case <-ctx.Done():
					return fmt.Errorf("wait for %s: %w (last error %v)", cond, ctx.Err(), err)
				case <-time.After(50 * time.Millisecond):
				}
			}
		})
	}
	step("desktop viewport", chromedp.EmulateViewport(1280, 900))
	step("history", chromedp.Navigate(home), chromedp.WaitVisible("table.runs"))
	step("skip link", chromedp.KeyEvent("\t"))
	if got := eval(`document.activeElement.className`); got != "skip" {
		t.Errorf("first Tab focuses %v, want the skip link", got)
	}
	keyboardJourney(t, ctx, home)
	step("history again", chromedp.Navigate(home), chromedp.WaitVisible("table.runs"))
	step("filter by suite", chromedp.SetValue("#f-suite", "Customer support"), chromedp.Click("button[type=submit]"),
		waitFor(`location.search.includes("suite=Customer")`), chromedp.WaitVisible("figure.chart"))
	if n := eval(`document.querySelectorAll("table.runs tbody tr").length`); n != float64(9) {
		t.Errorf("suite filter rows = %v, want 9", n)
	}
	if n := eval(`document.querySelectorAll("figure.chart g.quality line.gap").length`); n != float64(2) {
		t.Errorf("quality gaps = %v, want 2", n)
	}
	shot("dashboard-history.png")
	step("filter by status", chromedp.SetValue("#f-status", "error"), chromedp.Click("button[type=submit]"),
		waitFor(`location.search.includes("status=error")`), chromedp.WaitVisible("table.runs"))
	if n := eval(`document.querySelectorAll("table.runs tbody tr").length`); n != float64(1) {
		t.Errorf("status filter rows = %v, want 1", n)
	}
	step("open run", chromedp.Click("a.run-link"), chromedp.WaitVisible("table.cases"))
	if loc := eval(`location.pathname`); loc != mount+"/runs/"+f.Candidate.ID.String() {
		t.Errorf("run link led to %v", loc)
	}
	shot("dashboard-run.png")
	step("open case", chromedp.Click(`a.case-link[href$="/cases/1"]`), chromedp.WaitVisible("table.actions"))
	shot("dashboard-case.png")
	step("back to run", chromedp.Click("a.run-link"), chromedp.WaitVisible("table.cases"))
	step("compare with baseline", chromedp.Click("a.compare-link"), chromedp.WaitVisible("table.compare"))
	shot("dashboard-compare.png")

	downloads := t.TempDir()
	if _, err := chromedp.CallBrowser(ctx, browser.SetDownloadBehavior, browser.SetDownloadBehaviorParams{
		Behavior: browser.SetDownloadBehaviorBehaviorAllowAndName, DownloadPath: downloads, EventsEnabled: ptr(true)}); err != nil {
		t.Fatal(err)
	}
	dlctx, cancelDL := context.WithTimeout(ctx, 30*time.Second) // ends the wait for the download
	defer cancelDL()
	done := chromedp.BrowserEvents(dlctx, browser.DownloadProgress)
	step("download json", chromedp.Navigate(proxy.URL+mount+"/runs/"+f.Candidate.ID.String()), chromedp.WaitVisible("a.download"),
		chromedp.Click("a.download"))
	checkDownload(t, done, downloads)

	for _, p := range []string{"/runs/" + f.XSS.ID.String(), "/runs/" + f.XSS.ID.String() + "/cases/0", "/?suite=" + url.QueryEscape(f.XSS.Suite)} {
		step("payloads "+p, chromedp.Navigate(proxy.URL+mount+p), chromedp.WaitVisible("main"))
		if got := eval(`document.title === "pwned" || document.querySelectorAll("main script, main img, main iframe, main b, [onerror], [onload], [onmouseover]").length > 0`); got != false {
			t.Errorf("%s: a payload became markup: %v", p, eval(`Array.from(document.querySelectorAll("main script, main img, main iframe, main b, [onerror], [onload], [onmouseover]")).map(e => e.outerHTML).join("\n")`))
		}
		if got := eval(`document.body.innerText.includes("<script>")`); got != true {
			t.Errorf("%s: payload text not shown literally", p)
		}
	}

	step("narrow viewport", chromedp.EmulateViewport(375, 812))
	for _, p := range []struct{ path, shot string }{
		{"/?suite=Customer+support", "dashboard-mobile.png"},
		{"/runs/" + f.Candidate.ID.String(), "dashboard-run-mobile.png"},
		{"/runs/" + f.Candidate.ID.String() + "/cases/1", "dashboard-case-mobile.png"},
		{"/compare?a=" + f.Baseline.ID.String() + "&b=" + f.Candidate.ID.String(), ""},
	} {
		step("narrow "+p.path, chromedp.Navigate(proxy.URL+mount+p.path), chromedp.WaitVisible("main"))
		if w := eval(`document.documentElement.scrollWidth`); w.(float64) > 375 {
			t.Errorf("%s: page is %v px wide at 375 px", p.path, w)
		}
		if h := eval(`Math.min(...Array.from(document.querySelectorAll("figure.chart text.axis"), e => e.getBoundingClientRect().height), 99)`); h.(float64) < 10 {
			t.Errorf("%s: chart axis labels are %v px high at 375 px, too small to read", p.path, h)
		}
		if p.shot != "" {
			shot(p.shot)
		}
	}

	step("desktop again", chromedp.EmulateViewport(1280, 900))
	runURL := proxy.URL + mount + "/runs/" + f.Candidate.ID.String()
	for _, tc := range []struct{ scheme, bg, fg string }{
		{"light", "rgb(255, 255, 255)", "rgb(27, 31, 36)"},
		{"dark", "rgb(13, 17, 23)", "rgb(230, 237, 243)"},
	} {
		if bg, fg := colourScheme(t, ctx, tc.scheme, runURL); bg != tc.bg || fg != tc.fg {
			t.Errorf("%s scheme: background %s and text %s, want %s and %s", tc.scheme, bg, fg, tc.bg, tc.fg)
		}
	}
	shot("dashboard-dark.png")

	time.Sleep(200 * time.Millisecond) // let the last events arrive
	bl.mu.Lock()
	problems := append([]string(nil), bl.problems...)
	bl.mu.Unlock()
	for _, p := range problems {
		t.Errorf("browser reported: %s", p)
	}
	// The listener must be able to see a problem: a 404 logs an error.
	step("missing page", chromedp.Navigate(proxy.URL+mount+"/no-such-page"), chromedp.WaitVisible("main"))
	// The 422 refusal logs its status too, so it comes after the check.
	colourScheme(t, ctx, "light", proxy.URL+mount+"/compare?a="+f.Baseline.ID.String()+"&b="+f.NoJudge.ID.String())
	shot("dashboard-compare-refused.png")
	time.Sleep(200 * time.Millisecond)
	bl.mu.Lock()
	defer bl.mu.Unlock()
	if len(bl.problems) == len(problems) {
		t.Error("a 404 page logged no error: console and log events are not arriving")
	}
	if len(bl.requests) < 10 {
		t.Errorf("only %d requests seen: are network events arriving?", len(bl.requests))
	}
	for _, r := range bl.requests {
		// data: URLs are the browser's own icons (the date picker), not requests.
		if !strings.HasPrefix(r, proxy.URL+mount+"/") && !strings.HasPrefix(r, "data:") {
			t.Errorf("request outside the mount path: %s", r)
		}
	}
	for _, r := range outside() {
		t.Errorf("the proxy saw a request outside the mount path: %s", r)
	}
}

// checkDownload waits for the download to complete (the events' context
// bounds the wait) and checks the file is the JSON report document.
func checkDownload(t *testing.T, events iter.Seq2[browser.EventDownloadProgress, error], dir string) {
	t.Helper()
	var guid string
	for ev, err := range events {
		if err != nil {
			break
		}
		if ev.State == browser.DownloadProgressStateCompleted {
			guid = ev.GUID
			break
		}
		if ev.State == browser.DownloadProgressStateCanceled {
			break
		}
	}
	if guid == "" {
		t.Fatal("the JSON download did not complete")
	}
	b, err := os.ReadFile(filepath.Join(dir, guid))
	if err != nil {
		t.Fatal(err)
	}
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(b, &doc); err != nil || doc["comparison"] == nil || doc["cases"] == nil {
		t.Errorf("downloaded JSON is not the report document (%v): %.200s", err, b)
	}
}

// screenshotDir is docs/images when EVALDASH_SCREENSHOTS=1 (to refresh the
// README's pictures), otherwise a temporary directory.
func screenshotDir(t *testing.T) string {
	if os.Getenv("EVALDASH_SCREENSHOTS") == "1" {
		return filepath.Join("..", "docs", "images")
	}
	return t.TempDir()
}
