package main

import (
	"bytes"
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

var updateGolden = flag.Bool("update", false, "rewrite the support example's golden reports under report/testdata/")

// supportHistory runs the offline support example twice into a fresh
// SQLite file: the reference revision, then the regressed one gated with
// --fail-on-regression. It returns the database URL and both run ids.
func supportHistory(t *testing.T) (db, reference, regressed string) {
	t.Helper()
	db = "sqlite:" + filepath.Join(t.TempDir(), "runs.sqlite3")
	s := filepath.Join("..", "..", "examples", "support", "suite.json")
	t.Setenv("AGENT_REVISION", "reference")
	if code, out, stderr := evalrun(t, "--database-url", db, "run", s, "--metadata", `{"revision":"reference"}`); code != exitOK {
		t.Fatalf("reference run: exit %d\n%s%s", code, out, stderr)
	}
	reference = latestRunID(t, db)
	t.Setenv("AGENT_REVISION", "regressed")
	code, out, stderr := evalrun(t, "--database-url", db, "run", s, "--fail-on-regression", "--metadata", `{"revision":"regressed"}`)
	if code != exitFailed || !strings.Contains(out, "Baseline: "+reference) || !strings.Contains(out, "Regressed:") {
		t.Fatalf("regressed run: exit %d, want %d with a regression against %s\n%s%s", code, exitFailed, reference, out, stderr)
	}
	return db, reference, latestRunID(t, db)
}

func TestReportCmd_Formats(t *testing.T) {
	db, reference, regressed := supportHistory(t)
	dir := t.TempDir()
	// The regressed run (the latest) has a failed question: every format is
	// written and, without a gate flag, the command exits 0 saying how the
	// run went (rendering is not gating). The reference run passes.
	tests := []struct {
		args []string
		file string
		want string
		code int
	}{
		{[]string{"--output", filepath.Join(dir, "r.html")}, "r.html", "<!DOCTYPE html>", exitOK},
		{[]string{"--output", filepath.Join(dir, "r.htm")}, "r.htm", "Content-Security-Policy", exitOK},
		{[]string{"--output", filepath.Join(dir, "r.json")}, "r.json", `"comparison"`, exitOK},
		{[]string{"--output", filepath.Join(dir, "r.md")}, "r.md", "## Evaluation report", exitOK},
		{[]string{"--output", filepath.Join(dir, "r.markdown")}, "r.markdown", "### Regressions", exitOK},
		{[]string{"--output", filepath.Join(dir, "r.txt")}, "r.txt", "Verdict   REGRESSED", exitOK},
		{[]string{"--output", filepath.Join(dir, "r.text")}, "r.text", "Questions", exitOK},
		{[]string{"--output", filepath.Join(dir, "r.xml")}, "r.xml", "<testsuites", exitOK},
		{[]string{"--format", "junit", "--output", filepath.Join(dir, "junit.out")}, "junit.out", "<testcase", exitOK},
		{[]string{"--format", "markdown"}, "", "**Verdict: REGRESSED against the baseline**", exitOK},
		{[]string{regressed, "--baseline", reference, "--format", "json"}, "", `"id": "` + reference + `"`, exitOK},
		{[]string{reference}, "", "Baseline  none", exitOK},
		{[]string{reference, "--fail-on-regression"}, "", "Baseline  none", exitOK},
	}
	for _, tt := range tests {
		code, out, stderr := evalrun(t, append([]string{"--database-url", db, "report"}, tt.args...)...)
		if code != tt.code {
			t.Fatalf("report %v: exit %d, want %d\n%s%s", tt.args, code, tt.code, out, stderr)
		}
		if len(tt.args) > 0 && tt.args[0] == reference {
			// the reference run
		} else if want := "evalrun: report: run " + regressed + ": FAILED: 2 of 3 evaluated questions passed (1 failed); report written, exit 0 (add --fail-on failures or --fail-on-regression to exit 1 as run does)"; !strings.Contains(stderr, want) {
			t.Errorf("report %v: stderr does not say how the run went:\n%s\nwant %s", tt.args, stderr, want)
		}
		got := out
		if tt.file != "" {
			b, err := os.ReadFile(filepath.Join(dir, tt.file))
			if err != nil {
				t.Fatal(err)
			}
			got = string(b)
		}
		if !strings.Contains(got, tt.want) {
			t.Errorf("report %v lacks %q:\n%s", tt.args, tt.want, got)
		}
	}
	// Unknown formats and bad baselines fail (exit 2) before writing.
	for _, args := range [][]string{
		{"--output", filepath.Join(dir, "r.pdf")},
		{"--format", "yaml", "--output", filepath.Join(dir, "y.txt")},
		{regressed, "--baseline", regressed, "--output", filepath.Join(dir, "self.txt")},
		{reference, "--baseline", regressed, "--output", filepath.Join(dir, "future.txt")},
		{uuid.NewString()},
	} {
		code, out, stderr := evalrun(t, append([]string{"--database-url", db, "report"}, args...)...)
		if code != exitInvalid {
			t.Errorf("report %v: exit %d, want %d\n%s%s", args, code, exitInvalid, out, stderr)
		}
	}
	for _, name := range []string{"r.pdf", "y.txt", "self.txt", "future.txt"} {
		if _, err := os.Stat(filepath.Join(dir, name)); !os.IsNotExist(err) {
			t.Errorf("%s was written by a failing report", name)
		}
	}
	// GitHub Actions: annotations on stdout, the job summary appended.
	summary := filepath.Join(dir, "step-summary.md")
	t.Setenv("GITHUB_STEP_SUMMARY", summary)
	code, out, stderr := evalrun(t, "--database-url", db, "report", "--format", "github")
	if code != exitOK || !strings.Contains(out, "::error title=") {
		t.Fatalf("github: exit %d\n%s%s", code, out, stderr)
	}
	if b, err := os.ReadFile(summary); err != nil || !strings.Contains(string(b), "## Evaluation report") {
		t.Fatalf("job summary not appended: %v %s", err, b)
	}
}

// TestReportCmd_ExitCodes: report exits like run (docs/architecture.md, Semantics) on the
// gem's worked example. 0.98 then 0.92 against a minimum of 0.9 both pass:
// exit 0 unless --fail-on-regression sees the drop beyond the tolerance;
// a third run at 0.5 fails its minimum and exits 1 with or without the
// flag. Every report is written before exiting 1.
func TestReportCmd_ExitCodes(t *testing.T) {
	dir := t.TempDir()
	db := "sqlite:" + filepath.Join(dir, "runs.sqlite3")
	st, _, score, judge := judgedSuite(t, dir, "Customer support")
	runSuite := func(s float64, wantCode int) string {
		t.Helper()
		score.Store(s)
		if code, out, stderr := evalrun(t, append([]string{"--database-url", db, "run", st}, judge...)...); code != wantCode {
			t.Fatalf("run at %v: exit %d, want %d\n%s%s", s, code, wantCode, out, stderr)
		}
		return latestRunID(t, db)
	}
	first, second := runSuite(0.98, exitOK), runSuite(0.92, exitOK)
	type exitCase struct {
		name string
		args []string
		code int
		want string // on stderr
	}
	tests := []exitCase{
		{"no baseline", []string{first, "--fail-on-regression"}, exitOK, "evalrun: report: run " + first + ": exit 0: "},
		{"regression without the flag", []string{second, "--tolerance", "0.02"}, exitOK, ""},
		{"regression with the flag", []string{second, "--tolerance", "0.02", "--fail-on-regression"}, exitFailed,
			"evalrun: report: run " + second + ": exit 1: 1 regression against baseline " + first + " (--fail-on both)"},
		{"drop within the tolerance", []string{second, "--tolerance", "0.1", "--fail-on-regression"}, exitOK, ""},
		// One judged question cannot show a significant drop (the exact
		// sign-flip test's smallest p-value on one pair is 0.5): the ci gate
		// reports it as within noise.
		{"ci gate", []string{second, "--gate", "ci", "--fail-on-regression"}, exitOK, ""},
		{"explicit baseline", []string{second, "--baseline", first, "--fail-on-regression"}, exitFailed, "1 regression against baseline " + first},
		{"bad tolerance", []string{second, "--tolerance", "2", "--fail-on-regression"}, exitInvalid, "--tolerance"},
	}
	third := runSuite(0.5, exitFailed)
	tests = append(tests,
		exitCase{"failed check, not gated", []string{third}, exitOK,
			"report: run " + third + ": FAILED: 0 of 1 evaluated question passed (1 failed); report written, exit 0"},
		exitCase{"failed check", []string{third, "--fail-on", "failures"}, exitFailed, "report: run " + third + ": exit 1: 1 failed, 0 errors (--fail-on failures; not acted on: 1 regression against baseline " + second + ")"},
		exitCase{"failed check and regression", []string{"--fail-on-regression"}, exitFailed,
			"report: run " + third + ": exit 1: 1 failed, 0 errors; 1 regression against baseline " + second + " (--fail-on both)"},
		exitCase{"failed check, regressions only", []string{third, "--fail-on", "regressions"}, exitFailed,
			"report: run " + third + ": exit 1: 1 regression against baseline " + second + " (--fail-on regressions; not acted on: 1 failed, 0 errors)"})
	for i, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			out := filepath.Join(dir, fmt.Sprintf("report-%d.json", i))
			code, stdout, stderr := evalrun(t, append([]string{"--database-url", db, "report", "--output", out}, tt.args...)...)
			if code != tt.code || !strings.Contains(stderr, tt.want) {
				t.Fatalf("exit %d, want %d and %q on stderr\n%s%s", code, tt.code, tt.want, stdout, stderr)
			}
			_, err := os.Stat(out)
			if written := err == nil; written != (tt.code != exitInvalid) {
				t.Errorf("report written = %v (%v), want it written unless the input is invalid", written, err)
			}
		})
	}
}

func TestCompareCmd(t *testing.T) {
	db, reference, regressed := supportHistory(t)
	code, out, stderr := evalrun(t, "--database-url", db, "compare", reference, regressed)
	if code != exitOK || !strings.Contains(out, "Verdict: ") || !strings.Contains(out, "returns") {
		t.Fatalf("compare: exit %d\n%s%s", code, out, stderr)
	}
	// The verdict accounts for the question that now fails.
	if strings.Contains(out, "Verdict: no significant difference") || !strings.Contains(out, "1 question newly fails") {
		t.Errorf("compare verdict ignores the new failure:\n%s", out)
	}
	code, out, stderr = evalrun(t, "--database-url", db, "compare", reference, regressed, "--format", "json")
	var doc struct {
		Verdict    string `json:"verdict"`
		Difference struct {
			N    int      `json:"n"`
			Mean *float64 `json:"mean"`
		} `json:"difference"`
	}
	if code != exitOK || json.Unmarshal([]byte(out), &doc) != nil || doc.Difference.N != 3 || doc.Difference.Mean == nil || *doc.Difference.Mean >= 0 {
		t.Fatalf("compare json: exit %d, %+v\n%s%s", code, doc, out, stderr)
	}
	// A run of another definition (another question set) is refused.
	t.Setenv("AGENT_REVISION", "reference")
	s := filepath.Join("..", "..", "examples", "support", "suite.json")
	if code, out, stderr := evalrun(t, "--database-url", db, "run", s, "--only", "returns"); code != exitOK {
		t.Fatalf("--only run: exit %d\n%s%s", code, out, stderr)
	}
	only := latestRunID(t, db)
	code, out, stderr = evalrun(t, "--database-url", db, "compare", reference, only)
	if code != exitInvalid || !strings.Contains(stderr, "incompatible") {
		t.Fatalf("compare of different definitions: exit %d\n%s%s", code, out, stderr)
	}
}

// TestReportCmd_SupportExampleGolden renders every format of the support
// example's regressed run (produced by the real runner and agent) and
// compares the deterministic fields with golden files: ids, timestamps and
// durations are fixed before rendering.
func TestReportCmd_SupportExampleGolden(t *testing.T) {
	dbURL, reference, regressed := supportHistory(t)
	db, err := (&Globals{DatabaseURL: dbURL}).open(context.Background(), true)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	load := func(id string) *models.Run {
		run, err := db.GetRun(context.Background(), uuid.MustParse(id))
		if err != nil {
			t.Fatal(err)
		}
		return run
	}
	base, run := load(reference), load(regressed)
	at := time.Date(2026, 11, 30, 12, 0, 0, 0, time.UTC)
	for i, r := range []*models.Run{base, run} {
		r.ID = uuid.MustParse([]string{"01900000-0000-7000-8000-00000000c001", "01900000-0000-7000-8000-00000000c002"}[i])
		r.StartedAt = at.Add(time.Duration(i) * time.Hour)
		r.FinishedAt = r.StartedAt.Add(time.Second)
		r.Summary = models.JSON(`{}`) // holds durations; the gem's own keys are not ours to pin
		for _, c := range r.Cases {
			c.DurationMS = 10
			c.ResponseMetadata = nil // agent timing evidence
		}
	}
	r, err := report.NewRenderer()
	if err != nil {
		t.Fatal(err)
	}
	cmp := compare.Compare(run, base, compare.Options{})
	for _, f := range report.Formats() {
		got, err := r.Bytes(f, cmp)
		if err != nil {
			t.Fatal(err)
		}
		ext := f.Ext()
		if f == report.FormatGitHub {
			ext = ".github.txt"
		}
		path := filepath.Join("..", "..", "report", "testdata", "support-example-regressed"+ext)
		if *updateGolden {
			if err := os.WriteFile(path, got, 0o644); err != nil {
				t.Fatal(err)
			}
		}
		want, err := os.ReadFile(path)
		if err != nil {
			t.Fatalf("%v (run go test ./cmd/evalrun -run SupportExampleGolden -update)", err)
		}
		if !bytes.Equal(got, want) {
			t.Errorf("%s differs from the golden file; rerun with -update and review the diff", path)
		}
	}
}
