package dashboard

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// seedProductionWindows builds the shop agent's traffic simulator
// (examples/production) and the real evalrun, scores four hourly windows
// of its traces with `evalrun score-traces` (three of the reference
// revision, then one of the regressed revision, which exits 1) and runs
// the support suite once, all into the database at url.
func seedProductionWindows(t *testing.T, url string) {
	t.Helper()
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	bin := buildEvalrunForDashboard(t, root)
	dir := t.TempDir()
	sim := filepath.Join(dir, "production")
	build := exec.Command("go", "build", "-o", sim, "./examples/production")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("cd %s && go build -o %s ./examples/production: %v\n%s", root, sim, err, out)
	}
	run := func(want int, name string, args ...string) {
		t.Helper()
		cmd := exec.Command(name, args...)
		cmd.Dir = root
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "AGENT_REVISION=reference", "NO_COLOR=1"}
		out, err := cmd.CombinedOutput()
		code := 0
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		if code != want {
			t.Fatalf("%s: exit %d, want %d\n%s", cmd, code, want, out)
		}
	}
	for i, rev := range []string{"reference", "reference", "reference", "regressed"} {
		file := filepath.Join(dir, fmt.Sprintf("window%d.jsonl", i+1))
		run(0, sim, "-revision", rev, "-requests", "60", "-seed", fmt.Sprint(i+1),
			"-start", fmt.Sprintf("2026-11-03T%02d:00:00Z", 9+i), "-out", file)
		want := 0
		if rev == "regressed" {
			want = 1
		}
		run(want, bin, "--database-url", url, "score-traces", "examples/production/monitor.json", "--traces", file)
	}
	run(0, bin, "--database-url", url, "run", "examples/support/suite.json")
}

// TestProductionWindows_InTheDashboard reads windows scored by the real
// evalrun score-traces in Chromium: the history marks them and filters
// production windows from suite runs; a window's page charts each of the
// monitor's metrics across its windows up to that one, with a table that
// links each window and shows the regressed window's fall; a production
// case shows the waterfall of its stored spans.
func TestProductionWindows_InTheDashboard(t *testing.T) {
	url := testdb.SQLiteURL(t)
	seedProductionWindows(t, url)
	base, step, eval := browseDatabase(t, url)
	textOf := func(expr string) string {
		t.Helper()
		s, _ := eval(expr).(string)
		return s
	}
	count := func(sel string) int {
		t.Helper()
		n, _ := eval(`document.querySelectorAll(` + fmt.Sprintf("%q", sel) + `).length`).(float64)
		return int(n)
	}

	step("open the history", chromedp.Navigate(base+"/"), chromedp.WaitVisible("table.runs"))
	if rows, badges := count("table.runs tbody tr"), count("table.runs .badge-production"); rows != 5 || badges != 4 {
		t.Errorf("history: %d rows with %d production badges, want 5 rows of which 4 production windows", rows, badges)
	}
	step("filter production windows", chromedp.SetValue("#f-kind", "production"),
		chromedp.Click(".filters button[type=submit]"))
	for i := 0; textOf(`document.readyState === "complete" && document.querySelector("table.runs") ? location.search : ""`) == ""; i++ {
		if i > 100 {
			t.Fatal("the filtered history did not load")
		}
		time.Sleep(100 * time.Millisecond)
	}
	if loc := textOf(`location.search`); !strings.Contains(loc, "kind=production") {
		t.Errorf("the filter's query is %q, want kind=production", loc)
	}
	if rows, badges := count("table.runs tbody tr"), count("table.runs .badge-production"); rows != 4 || badges != 4 {
		t.Errorf("production filter: %d rows, %d production badges, want 4 and 4", rows, badges)
	}
	if sel := textOf(`document.querySelector("#f-kind").value`); sel != "production" {
		t.Errorf("the kind select shows %q after filtering, want production", sel)
	}
	newest := textOf(`document.querySelector("table.runs tbody tr a.run-link").getAttribute("href")`)
	step("filter suite runs", chromedp.Navigate(base+"/?kind=suite"), chromedp.WaitVisible("table.runs"))
	if rows, badges := count("table.runs tbody tr"), count("table.runs .badge-production"); rows != 1 || badges != 0 {
		t.Errorf("suite filter: %d rows, %d production badges, want 1 and 0", rows, badges)
	}

	step("open the newest window", chromedp.Navigate(base+strings.TrimPrefix(newest, mount)), chromedp.WaitVisible("#monitor-h"))
	if h := textOf(`document.querySelector("#monitor-h").innerText`); !strings.Contains(h, "shop-production") {
		t.Errorf("monitor heading %q lacks the monitor's name", h)
	}
	if n := count("section.monitor-trend figure.chart"); n != 3 {
		t.Errorf("%d metric charts, want 3 (looked_up_order, no_error_spans, few_steps)", n)
	}
	if title := textOf(`document.querySelector("section.monitor-trend svg title").textContent`); !strings.Contains(title, "across the windows of shop-production") {
		t.Errorf("chart title %q does not name the metric and monitor", title)
	}
	if n := count("table.windows tbody tr"); n != 4 {
		t.Errorf("the windows table has %d rows, want 4", n)
	}
	if n := count("table.windows tbody tr.current"); n != 1 {
		t.Errorf("%d rows marked as this window, want 1", n)
	}
	header := textOf(`Array.from(document.querySelectorAll("table.windows thead th")).map(e => e.innerText).join("|")`)
	current := textOf(`Array.from(document.querySelectorAll("table.windows tbody tr.current td")).map(e => e.innerText).join("|")`)
	older := textOf(`Array.from(document.querySelectorAll("table.windows tbody tr:last-child td")).map(e => e.innerText).join("|")`)
	col := -1
	for i, h := range strings.Split(header, "|") {
		if h == "looked_up_order" {
			col = i
		}
	}
	if col < 0 {
		t.Fatalf("no looked_up_order column in %q", header)
	}
	now, then := strings.Split(current, "|")[col], strings.Split(older, "|")[col]
	if strings.HasPrefix(now, "100") || !strings.HasPrefix(then, "100") {
		t.Errorf("looked_up_order: the regressed window shows %q and the first %q, want a fall from 100%%", now, then)
	}
	oldest := textOf(`document.querySelector("table.windows tbody tr:last-child a.window-link").getAttribute("href")`)
	step("open the oldest window", chromedp.Navigate(base+strings.TrimPrefix(oldest, mount)), chromedp.WaitVisible("#monitor-h"))
	if n := count("table.windows tbody tr"); n != 1 {
		t.Errorf("the oldest window's table has %d rows, want 1 (windows up to it only)", n)
	}

	step("open a production case", chromedp.Navigate(base+strings.TrimPrefix(newest, mount)+"/cases/0"), chromedp.WaitVisible("#t-h"))
	if n := count("table.waterfall tbody tr"); n < 2 {
		t.Errorf("the production case's waterfall has %d span rows, want its agent, model and tool spans", n)
	}
	if spans := textOf(`document.querySelector("table.waterfall").innerText`); !strings.Contains(spans, "lookup_order") && !strings.Contains(spans, "chat") {
		t.Errorf("the waterfall names no tool or model span:\n%s", spans)
	}
}
