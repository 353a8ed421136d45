package report

import (
	"context"
	"encoding/json"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/runtime"
	"github.com/chromedp/chromedp"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

// browser starts a real headless Chromium for the test. A missing browser
// fails the test with the command that installs it.
func browser(t *testing.T) context.Context {
	t.Helper()
	path, err := exec.LookPath("chromium")
	if err != nil {
		t.Fatalf("headless Chromium is required for this test: %v; install it with `apt-get install -y chromium`", err)
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.ExecPath(path), chromedp.Headless, chromedp.NoSandbox, chromedp.DisableGPU, chromedp.NoFirstRun,
		chromedp.Flag("disable-background-networking", true), chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true), chromedp.UserDataDir(t.TempDir()), chromedp.WindowSize(375, 800),
	}
	actx, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(actx)
	ctx, cancelTimeout := context.WithTimeout(ctx, 60*time.Second)
	t.Cleanup(func() { cancelTimeout(); cancel(); cancelAlloc() })
	return ctx
}

// hostileRun is a run whose every untrusted string tries to run script,
// load a resource from leak (a local server) or break out of its context.
func hostileRun(leak string) (run, baseline *models.Run) {
	payloads := []string{
		`<script>window.__pwned=1;document.title="pwned"</script>`,
		`"><img src="` + leak + `/img" onerror="window.__pwned=2">`,
		`'><svg onload="window.__pwned=3"><image href="` + leak + `/svg"/></svg>`,
		`</pre></details><script>window.__pwned=4</script><link rel="stylesheet" href="` + leak + `/css">`,
		`</style></title><script>document.title='pwned'</script>`,
		"control \x1b[31mred\x1b[0m \x00 nul \u202e rtl \x07 bell",
		`<iframe src="` + leak + `/frame"></iframe><a href="javascript:window.__pwned=5">x</a>`,
	}
	all := strings.Join(payloads, " ")
	mk := func(id string, seq int64, at time.Time, score float64) *models.Run {
		var cases []runfixture.Case
		for i, p := range payloads {
			cases = append(cases, runfixture.Case{ID: "case-" + string(rune('a'+i)) + p, Name: "name " + p,
				Question: "question " + p, Expected: "expected " + p, Output: "answer " + all,
				Meta: string(models.MustJSON(map[string]any{"failure_mode": p, "tags": []string{p, "x" + p}})),
				Metrics: []runfixture.Metric{{Name: "judge" + p, Threshold: 0.5, Score: runfixture.Score(score), Reason: "reason " + p},
					{Name: "exact", Threshold: 0.5, Err: "error " + p}}})
		}
		cases = append(cases, runfixture.Case{ID: "agent-error", AgentErr: "agent " + all,
			Metrics: []runfixture.Metric{{Name: "exact", Threshold: 0.5}}})
		r := runfixture.Build(id, seq, at, cases...)
		r.Suite, r.Agent, r.Version = "suite "+payloads[0], "agent "+payloads[1], "v"+payloads[3]
		return r
	}
	baseline = mk("01900000-0000-7000-8000-0000000000b1", 1, runfixture.T0, 0.9)
	run = mk("01900000-0000-7000-8000-0000000000b2", 2, runfixture.T0.Add(time.Hour), 0.4)
	return run, baseline
}

func TestRenderer_HTMLInertInChromium(t *testing.T) {
	var leaks atomic.Int64
	leak := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { leaks.Add(1) }))
	defer leak.Close()

	run, baseline := hostileRun(leak.URL)
	cmp := compare.Compare(run, baseline, compare.Options{Tolerance: 0.02})
	page := filepath.Join(t.TempDir(), "report.html")
	if err := mustRenderer(t).WriteFile(page, FormatHTML, cmp); err != nil {
		t.Fatal(err)
	}
	pageURL := "file://" + page

	ctx := browser(t)
	var mu sync.Mutex
	var requests, exceptions []string
	if err := chromedp.Listen(ctx, func(ev any) {
		mu.Lock()
		defer mu.Unlock()
		switch e := ev.(type) {
		case *network.EventRequestWillBeSent:
			if e.Request.URL != pageURL {
				requests = append(requests, e.Request.URL)
			}
		case *runtime.EventExceptionThrown:
			exceptions = append(exceptions, e.ExceptionDetails.Text)
		}
	}); err != nil {
		t.Fatalf("chromium: %v", err)
	}
	if _, err := chromedp.Call(ctx, network.Enable, network.EnableParams{}); err != nil {
		t.Fatalf("chromium: enable network events: %v", err)
	}
	if _, err := chromedp.Call(ctx, runtime.Enable, cdp.Empty{}); err != nil {
		t.Fatalf("chromium: enable runtime events: %v", err)
	}
	err := chromedp.Do(ctx,
		chromedp.Navigate(pageURL),
		chromedp.WaitReady(chromedp.CSS("#verdict")),
		chromedp.Sleep(300*time.Millisecond), // let any (unexpected) load start
	)
	if err != nil {
		t.Fatalf("chromium: %v", err)
	}
	eval := func(expr string, dst any) {
		t.Helper()
		raw, err := chromedp.Run(ctx, chromedp.Evaluate[[]byte](expr))
		if err != nil {
			t.Fatalf("chromium: evaluate %s: %v", expr, err)
		}
		if err := json.Unmarshal(raw, dst); err != nil {
			t.Fatalf("chromium: evaluate %s: %v", expr, err)
		}
	}
	var pwned bool
	var title, answer, bodyPadding string
	var elements, handlers int
	var scrollWidth, innerWidth int64
	eval(`window.__pwned !== undefined`, &pwned)
	eval(`document.title`, &title)
	eval(`document.querySelectorAll('script, iframe, img, link, image, object, embed, a').length`, &elements)
	eval(`[...document.querySelectorAll('*')].filter(e => [...e.attributes].some(a => a.name.startsWith('on') || a.value.trim().toLowerCase().startsWith('javascript:'))).length`, &handlers)
	eval(`document.querySelector('pre.answer').textContent`, &answer)
	eval(`getComputedStyle(document.body).paddingTop`, &bodyPadding)
	eval(`document.documentElement.scrollWidth`, &scrollWidth)
	eval(`window.innerWidth`, &innerWidth)
	if pwned {
		t.Error("a payload ran script: window.__pwned is set")
	}
	if !strings.HasPrefix(title, "Evaluation report: suite <script>") || strings.Contains(title, "pwned\n") || title == "pwned" {
		t.Errorf("title = %q: a payload changed it or it is not the escaped suite name", title)
	}
	if elements != 0 || handlers != 0 {
		t.Errorf("payloads became elements (%d script/img/iframe/link/a…) or handlers (%d)", elements, handlers)
	}
	if !strings.Contains(answer, `<script>window.__pwned=1;document.title="pwned"</script>`) {
		t.Errorf("the answer is not shown as text: %q", answer)
	}
	if strings.ContainsAny(answer, "\x1b\x00") {
		t.Errorf("control characters reached the page text: %q", answer)
	}
	if bodyPadding != "16px" && bodyPadding != "9.6px" {
		t.Errorf("stylesheet not applied (CSP hash?): body padding %q", bodyPadding)
	}
	if scrollWidth > innerWidth {
		t.Errorf("page is %dpx wide on a %dpx phone viewport", scrollWidth, innerWidth)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(requests) != 0 || leaks.Load() != 0 {
		t.Errorf("requests left the page: %v (leak server hits %d)", requests, leaks.Load())
	}
	if len(exceptions) != 0 {
		t.Errorf("exceptions in the page: %v", exceptions)
	}
	if _, err := os.Stat(page); err != nil {
		t.Fatal(err)
	}
}
