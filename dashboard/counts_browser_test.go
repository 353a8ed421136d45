package dashboard

import (
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
)

// TestBrowser_RegressionCounts holds the dashboard to one count of
// regressions, questions: a question that newly fails two checks (four
// findings: two new failures, two score drops) is "1 regression" on the
// run page's verdict and "Regressions (1 question)" under it, and on the
// compare page "Regressions (1 question)" with each metric's "Questions
// regressed in B" at 1; the A/B verdict "B regressed" does not sit next to
// "not significant".
func TestBrowser_RegressionCounts(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	ok := func(id string, score float64) runfixture.Case {
		return runfixture.Case{ID: id, Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(score)),
			runfixture.NewMetric("contains", 1, runfixture.Score(score))}}
	}
	base := runfixture.SaveRun(t, rw, runfixture.Build("01900000-0000-7000-8000-0000000000a1", 1, runfixture.T0,
		ok("q1", 1), ok("q2", 1), ok("q3", 1)))
	cand := runfixture.SaveRun(t, rw, runfixture.Build("01900000-0000-7000-8000-0000000000a2", 2, runfixture.T0.Add(60e9),
		ok("q1", 0), ok("q2", 1), ok("q3", 1)))
	srv := MustServe(t, ro, "")
	ctx, _ := newBrowser(t)
	step, eval := browserSteps(t, ctx)
	step("run page", chromedp.Navigate(srv.URL+"/runs/"+runfixture.IDOf(cand)), chromedp.WaitVisible("#verdict"))
	if got := eval(`document.querySelector("#verdict .verdict-detail").textContent`); !strings.Contains(got.(string), "1 regression against the baseline, 1 of them failing") {
		t.Errorf("run page verdict = %q, want 1 regression (one question)", got)
	}
	if got := eval(`document.querySelector("#regressions-h").textContent`); got != "Regressions (1 question)" {
		t.Errorf("run page heading = %q, want Regressions (1 question)", got)
	}
	step("compare page", chromedp.Navigate(srv.URL+"/compare?a="+runfixture.IDOf(base)+"&b="+runfixture.IDOf(cand)), chromedp.WaitVisible("table.ab"))
	body := eval(`document.body.innerText`).(string)
	if !strings.Contains(body, "Regressions (1 question)") {
		t.Errorf("compare page lacks Regressions (1 question):\n%s", body)
	}
	verdict := eval(`document.querySelector("#verdict").textContent`).(string)
	if !strings.Contains(verdict, "B regressed") || strings.Contains(verdict, "not significant") || !strings.Contains(verdict, "1 regression") {
		t.Errorf("compare verdict = %q, want B regressed with 1 regression and without \"not significant\"", verdict)
	}
	cells := eval(`Array.from(document.querySelectorAll("table.ab td[data-label='Questions regressed in B']")).map(td => td.textContent.trim().split(" ")[0]).join(",")`)
	if cells != "1,1" {
		t.Errorf("Questions regressed in B = %v, want 1,1 (one question per metric)", cells)
	}
}
