package dashboard

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/chromedp/chromedp"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// TestRecordedDecision_EveryViewAgrees runs the real evalrun three times
// (regressed X, reference, then regressed again gated with --baseline X
// --gate ci --fail-on regressions, which exits 0) and reads the third run
// in report, history and, in Chromium, the dashboard's history row, run
// page and case page: each shows exit 0 against X, where comparing again
// with the automatic baseline (the reference run) would say "Regressed".
func TestRecordedDecision_EveryViewAgrees(t *testing.T) {
	root, err := filepath.Abs("..")
	if err != nil {
		t.Fatal(err)
	}
	bin := buildEvalrunForDashboard(t, root)
	url := testdb.SQLiteURL(t)
	run := func(revision string, args ...string) (int, string, string) {
		t.Helper()
		cmd := exec.Command(bin, append([]string{"--database-url", url}, args...)...)
		cmd.Dir = root
		cmd.Env = []string{"PATH=" + os.Getenv("PATH"), "HOME=" + t.TempDir(), "AGENT_REVISION=" + revision}
		var out, errOut strings.Builder
		cmd.Stdout, cmd.Stderr = &out, &errOut
		err := cmd.Run()
		code := 0
		if ee := (*exec.ExitError)(nil); errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("evalrun %v: %v", args, err)
		}
		return code, out.String(), errOut.String()
	}
	suite := "examples/support/suite.json"
	idRe := regexp.MustCompile(`run ([0-9a-f-]{36}) saved`)
	savedID := func(out string) string {
		t.Helper()
		m := idRe.FindStringSubmatch(out)
		if m == nil {
			t.Fatalf("no saved run id in:\n%s", out)
		}
		return m[1]
	}
	_, out, _ := run("regressed", "run", suite)
	x := savedID(out)
	run("reference", "run", suite)
	code, out, errOut := run("regressed", "run", suite, "--baseline", x, "--gate", "ci", "--fail-on", "regressions")
	if code != 0 {
		t.Fatalf("the gated run exited %d, want 0:\n%s\n%s", code, out, errOut)
	}
	third := savedID(out)

	// report: the recorded decision by default, and the automatic strict
	// comparison only when asked for.
	code, out, errOut = run("", "report", third, "--fail-on", "regressions")
	if code != 0 || !strings.Contains(errOut, "exit 0") || !strings.Contains(errOut, x) {
		t.Errorf("report exited %d, want 0 against %s:\n%s\n%s", code, x, out, errOut)
	}
	if !strings.Contains(out, "Decision  gate ci, --fail-on regressions: exit 0 against baseline "+x+" (chosen with --baseline)") {
		t.Errorf("the text report lacks the recorded decision:\n%s", out)
	}
	if code, _, errOut = run("", "report", third, "--fail-on", "regressions", "--recompare"); code != 1 {
		t.Errorf("report --recompare (automatic baseline, strict gate) exited %d, want 1:\n%s", code, errOut)
	}

	// history: the row carries the decision and its baseline.
	_, out, _ = run("", "history", "--json")
	var rows []struct {
		ID         string  `json:"id"`
		BaselineID *string `json:"baseline_id"`
		Gate       *struct {
			Exit           int    `json:"exit"`
			Mode           string `json:"mode"`
			BaselineSource string `json:"baseline_source"`
		} `json:"gate"`
	}
	if err := json.Unmarshal([]byte(out), &rows); err != nil {
		t.Fatalf("history --json: %v\n%s", err, out)
	}
	if len(rows) != 3 || rows[0].ID != third || rows[0].Gate == nil || rows[0].Gate.Exit != 0 || rows[0].Gate.Mode != "ci" ||
		rows[0].Gate.BaselineSource != models.BaselineFlag || rows[0].BaselineID == nil || *rows[0].BaselineID != x {
		t.Errorf("history's newest row = %s, want run %s, exit 0 under ci against %s from --baseline", out, third, x)
	}
	_, out, _ = run("", "history")
	if line := strings.SplitN(out, "\n", 3)[1]; !strings.Contains(line, "exit 0 ci") {
		t.Errorf("history's newest line %q lacks the gate column \"exit 0 ci\"", line)
	}

	// The dashboard, in Chromium.
	base, step, eval := browseDatabase(t, url)
	textOf := func(expr string) string {
		t.Helper()
		s, _ := eval(expr).(string)
		return s
	}
	step("open the history", chromedp.Navigate(base+"/"), chromedp.WaitVisible("table.runs"))
	row := textOf(`document.querySelector("table.runs tbody tr").innerText`)
	if !strings.Contains(row, "exit 0 against baseline "+x) || strings.Contains(row, "regressed") {
		t.Errorf("history row %q: want the recorded exit 0 against %s and no regressed marker", row, x)
	}
	step("open the run page", chromedp.Navigate(base+"/runs/"+third), chromedp.WaitVisible("#verdict"))
	verdict := textOf(`document.querySelector("#verdict").innerText`)
	if strings.Contains(verdict, "Regressed") || !strings.Contains(verdict, "exit 0 against baseline "+x) {
		t.Errorf("run page verdict %q: want the recorded exit 0 against %s, not Regressed", verdict, x)
	}
	if link := textOf(`document.querySelector("a.baseline-top").getAttribute("href")`); !strings.HasSuffix(link, "/runs/"+x) {
		t.Errorf("run page baseline link %q, want run %s", link, x)
	}
	if origin := textOf(`document.querySelector("dd.baseline-origin").innerText`); !strings.Contains(origin, "--baseline") {
		t.Errorf("run page baseline origin %q: want it chosen with --baseline", origin)
	}
	step("open the first case", chromedp.Navigate(base+"/runs/"+third+"/cases/1"), chromedp.WaitVisible("main"))
	if page := textOf(`document.querySelector("main").innerHTML`); !strings.Contains(page, "/runs/"+x+"/cases/") {
		t.Errorf("case page diffs against another baseline than %s", x)
	}
}

// browseDatabase serves the database at url read-only under mount and
// opens Chromium: the dashboard's base URL and the browser's steps.
func browseDatabase(t *testing.T, url string) (base string, step func(string, ...chromedp.Action[chromedp.Void]), eval func(string) any) {
	t.Helper()
	ro, err := models.Open(t.Context(), url, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { ro.Close() })
	base = MustServe(t, ro, mount).URL + mount
	bctx, _ := newBrowser(t)
	step, eval = browserSteps(t, bctx)
	return base, step, eval
}

// buildEvalrunForDashboard builds the evalrun binary of the checkout at
// root.
func buildEvalrunForDashboard(t *testing.T, root string) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "evalrun")
	build := exec.Command("go", "build", "-o", bin, "./cmd/evalrun")
	build.Dir = root
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("cd %s && go build -o %s ./cmd/evalrun: %v\n%s", root, bin, err, out)
	}
	return bin
}
