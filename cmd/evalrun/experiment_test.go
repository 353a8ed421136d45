package main

import (
	"context"
	"encoding/json"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

const supportExperiment = "../../examples/support/experiment.json"

// TestExperimentCmd_SupportRevisions runs the support example's two
// revisions as one experiment: two ordinary runs (one per variant, each
// under its own agent name) tied by one experiment id, the grid on stdout
// and in every report format, and the grid rebuilt from the history by
// evalrun grid. A second experiment baselines each variant on its own
// earlier run.
func TestExperimentCmd_SupportRevisions(t *testing.T) {
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			url := migratedURL(t, backend)
			t.Setenv("AGENT_REVISION", "from-the-environment") // the variants' own values win
			dir := t.TempDir()
			html, md, js := filepath.Join(dir, "grid.html"), filepath.Join(dir, "grid.md"), filepath.Join(dir, "grid.json")
			code, out, stderr := evalrun(t, "--database-url", url, "experiment", supportExperiment,
				"--report", html, "--report", md, "--report", js)
			if code != exitOK {
				t.Fatalf("experiment: exit %d\n%s%s", code, out, stderr)
			}
			for _, want := range []string{
				"Experiment: Support agent revisions",
				"reference                    passed 3/3  quality 1.000",
				"regressed                    passed 2/3  quality 0.667",
				"regressed vs reference: B regressed",
				"* reference                  PASS 1.000  You can return it within 30 days.",
				"  regressed                  FAIL 0.000  You can return it within 7 days.",
			} {
				if !strings.Contains(out, want) {
					t.Errorf("stdout lacks %q:\n%s", want, out)
				}
			}

			db, err := models.Open(context.Background(), url, models.OpenOptions{ReadOnly: true})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			runs, _, err := db.ListRuns(context.Background(), models.RunFilter{Suite: "Customer support"})
			if err != nil || len(runs) != 2 {
				t.Fatalf("runs = %d, %v", len(runs), err)
			}
			var ids []string
			agents := map[string]bool{}
			for _, r := range runs {
				info := report.ExperimentOf(r)
				if info == nil {
					t.Fatalf("run %s has no experiment metadata: %s", r.ID, r.Metadata)
				}
				ids = append(ids, info.ID)
				agents[r.Agent] = true
				var meta struct{ Revision string }
				if err := r.Metadata.Decode(&meta); err != nil || meta.Revision != info.Variant {
					t.Errorf("run of %s: metadata %s lacks the variant's revision", info.Variant, r.Metadata)
				}
				if strings.Contains(string(r.Metadata), "AGENT_REVISION\":\"") {
					t.Errorf("metadata stores an environment value: %s", r.Metadata)
				}
			}
			if ids[0] != ids[1] {
				t.Errorf("experiment ids differ: %v", ids)
			}
			if !agents["SupportAgent [reference]"] || !agents["SupportAgent [regressed]"] {
				t.Errorf("agents = %v", agents)
			}

			var grid struct {
				ID       string `json:"experiment_id"`
				Variants []struct {
					Name string `json:"name"`
					Best int    `json:"best"`
				} `json:"variants"`
				Questions []struct {
					CaseID  string `json:"case_id"`
					Answers []struct {
						Best   bool   `json:"best"`
						Output string `json:"output"`
					} `json:"answers"`
				} `json:"questions"`
			}
			b, err := os.ReadFile(js)
			if err != nil {
				t.Fatal(err)
			}
			if err := json.Unmarshal(b, &grid); err != nil {
				t.Fatal(err)
			}
			if grid.ID != ids[0] || len(grid.Variants) != 2 || grid.Variants[0].Name != "reference" || grid.Variants[0].Best != 1 ||
				len(grid.Questions) != 3 || !grid.Questions[0].Answers[0].Best || grid.Questions[0].Answers[1].Best {
				t.Errorf("grid JSON = %s", b)
			}
			for _, f := range []string{html, md} {
				b, err := os.ReadFile(f)
				if err != nil || !strings.Contains(string(b), "You can return it within 7 days.") {
					t.Errorf("%s: %v\n%s", f, err, b)
				}
			}

			code, again, stderr := evalrun(t, "--database-url", url, "grid", grid.ID)
			if code != exitOK || again != out[strings.Index(out, "Experiment:"):] {
				t.Errorf("grid %s: exit %d\n%s\nwant the experiment's own grid:\n%s%s", grid.ID, code, again, out, stderr)
			}

			code, out, stderr = evalrun(t, "--database-url", url, "experiment", supportExperiment)
			if code != exitOK {
				t.Fatalf("second experiment: exit %d\n%s%s", code, out, stderr)
			}
			for _, r := range runs {
				want := "[" + report.ExperimentOf(r).Variant + "] Baseline: " + r.ID.String()
				if !strings.Contains(out, want) {
					t.Errorf("second experiment: want %q (each variant baselined by its own earlier run):\n%s", want, out)
				}
			}
		})
	}
}

// TestExperimentCmd_Refused checks that invalid experiments and grid
// requests exit 2 before anything runs or is written.
func TestExperimentCmd_Refused(t *testing.T) {
	url := testdb.SQLiteURL(t)
	if code, _, stderr := evalrun(t, "--database-url", url, "db:migrate"); code != exitOK {
		t.Fatalf("db:migrate: exit %d: %s", code, stderr)
	}
	dir := t.TempDir()
	write := func(name, body string) string {
		p := filepath.Join(dir, name)
		if err := os.WriteFile(p, []byte(body), 0o644); err != nil {
			t.Fatal(err)
		}
		return p
	}
	s, _ := filepath.Abs("../../examples/support/suite.json")
	tests := []struct {
		name, file, want string
		args             []string
	}{
		{"one variant", write("one.json", `{"suite": "`+s+`", "variants": [{"name": "a"}]}`), "want at least two variants", nil},
		{"matrix without llm", write("m.json", `{"suite": "`+s+`", "matrix": {"model": ["a", "b"]}}`), "a matrix needs llm agents", nil},
		{"github is not a grid format", write("gh.json", `{"suite": "`+s+`", "variants": [{"name": "a"}, {"name": "b"}]}`), `--report "github": unknown report format: a grid is written to a file whose name ends .txt/.text, .md/.markdown, .html/.htm or .json, such as grid.html`, []string{"--report", "github"}},
		{"grid format", write("ok.json", `{"suite": "`+s+`", "variants": [{"name": "a"}, {"name": "b"}]}`), "a grid is written as", []string{"--report", filepath.Join(dir, "x.xml")}},
		{"fail-on rule", filepath.Join(dir, "ok.json"), `--fail-on must be one of "failures", "regressions" or "both" but got "never"`, []string{"--fail-on", "never"}},
		{"alpha", filepath.Join(dir, "ok.json"), "--alpha 0.7: want a significance level above 0 and below 0.5", []string{"--gate", "ci", "--alpha", "0.7"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			code, out, stderr := evalrun(t, append([]string{"--database-url", url, "experiment", tt.file}, tt.args...)...)
			if code != exitInvalid || !strings.Contains(stderr, tt.want) {
				t.Errorf("exit %d, want 2 with %q\n%s%s", code, tt.want, out, stderr)
			}
		})
	}
	if code, _, stderr := evalrun(t, "--database-url", url, "grid", "0190a3c8-0000-7000-8000-000000000000"); code != exitInvalid || !strings.Contains(stderr, "no runs") {
		t.Errorf("unknown experiment: exit %d: %s", code, stderr)
	}
	// A prefix (as run ids are shortened in conversation) is not looked up.
	if code, _, stderr := evalrun(t, "--database-url", url, "grid", "0190a3c8"); code != exitInvalid || !strings.Contains(stderr, `grid "0190a3c8": not an experiment id (want the whole UUID`) {
		t.Errorf("experiment id prefix: exit %d: %s", code, stderr)
	}
	if n := countRuns(t, url); n != 0 {
		t.Errorf("%d runs written by refused commands", n)
	}
}

// TestExperimentCmd_GateFlags: the variants are gated by run's gate flags.
// Without --fail-on an experiment is a measurement (exit 0, no exit line,
// though the regressed variant fails a check); --gate and --fail-on gate
// every variant against its own baseline as run would and print each
// variant's exit line; a variant whose line says 1 makes the experiment
// exit 1.
func TestExperimentCmd_GateFlags(t *testing.T) {
	url := testdb.SQLiteURL(t)
	code, out, stderr := evalrun(t, "--database-url", url, "experiment", supportExperiment)
	if code != exitOK || strings.Contains(out, "] exit ") {
		t.Fatalf("ungated experiment: exit %d, want 0 and no exit line\n%s%s", code, out, stderr)
	}
	code, out, stderr = evalrun(t, "--database-url", url, "experiment", supportExperiment, "--gate", "ci", "--fail-on", "regressions")
	for _, want := range []string{
		"[reference] Baseline: ", ", tolerance 0, ci gate\n",
		"[reference] exit 0: no gated regression (--fail-on regressions)\n",
		"[regressed] exit 0: no gated regression (--fail-on regressions; not acted on: 1 failed, 0 errors)\n",
	} {
		if code != exitOK || !strings.Contains(out, want) {
			t.Errorf("--fail-on regressions: exit %d, want 0 with %q\n%s%s", code, want, out, stderr)
		}
	}
	code, out, stderr = evalrun(t, "--database-url", url, "experiment", supportExperiment, "--fail-on-regression")
	if code != exitFailed || !strings.Contains(out, "[regressed] exit 1: 1 failed, 0 errors (--fail-on both)") ||
		!strings.Contains(stderr, "1 variant of 2 failed the gate (--fail-on both)") {
		t.Errorf("--fail-on-regression: exit %d, want 1 from the regressed variant\n%s%s", code, out, stderr)
	}
}

// TestExperimentCmd_TwoVariantsOf200Questions runs the size: an
// experiment of 2 variants × 200 questions against an http agent (the
// variants differ by URL) is saved as 2 ordinary runs of 200 questions
// with one experiment id, and evalrun grid rebuilds its 200 rows.
func TestExperimentCmd_TwoVariantsOf200Questions(t *testing.T) {
	ag := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		var q struct{ ID string }
		_ = json.NewDecoder(r.Body).Decode(&q)
		answer := "answer " + q.ID
		if r.URL.Query().Get("rev") == "b" && strings.HasSuffix(q.ID, "7") {
			answer = "wrong " + q.ID
		}
		_ = json.NewEncoder(w).Encode(map[string]any{"output": answer})
	}))
	defer ag.Close()
	dir := t.TempDir()
	var qs []string
	for i := range 200 {
		qs = append(qs, fmt.Sprintf(`{"id":"q%03d","question":"Q%d?","expected_answer":"answer q%03d"}`, i, i, i))
	}
	writeTestFile(t, filepath.Join(dir, "suite.json"), `{"suite":"Big","agent":{"name":"Bot","url":"`+ag.URL+`/?rev=a"},
	  "evaluators":{"exact":{"type":"exact_match"}},"questions":[`+strings.Join(qs, ",")+`]}`)
	writeTestFile(t, filepath.Join(dir, "experiment.json"), `{"suite":"suite.json","variants":[
	  {"name":"a"},{"name":"b","agent":{"url":"`+ag.URL+`/?rev=b"}}]}`)
	url := testdb.SQLiteURL(t)
	code, out, stderr := evalrun(t, "--database-url", url, "experiment", filepath.Join(dir, "experiment.json"), "-j", "16")
	if code != exitOK {
		t.Fatalf("experiment: exit %d\n%s", code, stderr)
	}
	if !strings.Contains(out, "a                            passed 200/200") || !strings.Contains(out, "b                            passed 180/200") {
		t.Errorf("variant totals missing:\n%.2000s", out)
	}
	db, err := models.Open(context.Background(), url, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, _, err := db.ListRuns(context.Background(), models.RunFilter{Suite: "Big"})
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs = %d, %v", len(runs), err)
	}
	a, b := report.ExperimentOf(runs[0]), report.ExperimentOf(runs[1])
	if a == nil || b == nil || a.ID != b.ID {
		t.Fatalf("experiment ids: %+v %+v", a, b)
	}
	code, js, stderr := evalrun(t, "--database-url", url, "grid", a.ID, "--format", "json")
	var grid struct {
		Questions []json.RawMessage `json:"questions"`
	}
	if code != exitOK || json.Unmarshal([]byte(js), &grid) != nil || len(grid.Questions) != 200 {
		t.Errorf("grid: exit %d, %d questions\n%s", code, len(grid.Questions), stderr)
	}
}
