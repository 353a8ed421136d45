package main

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

// pipelineSuite is the suite of the pipeline test: its agent breaks alpha
// in the regressed revision, beta is wrong in every revision and gamma is
// always right; a scripted judge scores semantic_accuracy.
const pipelineSuite = "testdata/pipeline/suite.json"

// pipelineGate are the gate flags every pipeline is given, each its own
// way: flags for run and experiment, EVALTEST_* variables for evaltest.
var pipelineGate = []struct{ flag, value, env string }{
	{"--gate", "ci", "EVALTEST_GATE"},
	{"--fail-on", "regressions", "EVALTEST_FAIL_ON"},
	{"--tolerance", "0.05", "EVALTEST_TOLERANCE"},
	{"--alpha", "0.1", "EVALTEST_ALPHA"},
	{"--min-effect", "0.01", "EVALTEST_MIN_EFFECT"},
}

// TestPipeline_SameDecisionAndRows runs one suite through evalrun run,
// evalrun experiment (its variant "candidate") and evaltest (a go test binary), each
// on its own database, with the same gate settings, three times: the
// reference revision (no baseline: exit 0 under --fail-on regressions),
// the regressed one (alpha newly fails: exit 1) and the reference again
// (exit 0). Every step must reach the same decision in all three, and the
// three databases must hold the same rows, column by column, ids, times
// and durations aside (and, in the runs' metadata, the experiment record
// and the go_test name that say which pipeline wrote them).
func TestPipeline_SameDecisionAndRows(t *testing.T) {
	judge := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		body, _ := io.ReadAll(r.Body)
		if strings.Contains(string(body), "Alpha is last.") {
			writeVerdict(w, "wrong order", 0.5)
			return
		}
		writeVerdict(w, "matches", 0.9)
	}))
	defer judge.Close()
	t.Setenv("EVAL_JUDGE_BASE_URL", judge.URL+"/v1")
	t.Setenv("OPENAI_API_KEY", "test-key")
	suiteFile, err := filepath.Abs(pipelineSuite)
	if err != nil {
		t.Fatal(err)
	}
	goTest := pipelineFixture(t)
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			dbs := map[string]string{}
			for _, p := range []string{"run", "experiment", "evaltest"} {
				dbs[p] = migratedURL(t, backend)
			}
			var gateFlags, gateEnv []string
			for _, g := range pipelineGate {
				gateFlags = append(gateFlags, g.flag, g.value)
				gateEnv = append(gateEnv, g.env+"="+g.value)
			}
			for i, revision := range []string{"reference", "regressed", "reference"} {
				t.Setenv("PIPELINE_REVISION", revision)
				got := map[string]pipelineDecision{}

				code, out, stderr := evalrun(t, append([]string{"--database-url", dbs["run"], "run", suiteFile}, gateFlags...)...)
				got["run"] = pipelineDecision{code, lastLineOf(out)}
				logOnFailure(t, "run", out, stderr)

				exp := writeVariantExperiment(t, suiteFile, revision)
				code, out, stderr = evalrun(t, append([]string{"--database-url", dbs["experiment"], "experiment", exp}, gateFlags...)...)
				got["experiment"] = pipelineDecision{code, variantExitLine(out, pipelineVariant)}
				logOnFailure(t, "experiment", out, stderr)

				got["evaltest"] = goTest(t, append(gateEnv, "EVALTEST_DATABASE_URL="+dbs["evaltest"],
					"PIPELINE_SUITE="+suiteFile, "PIPELINE_REVISION="+revision, "EVAL_JUDGE_BASE_URL="+judge.URL+"/v1", "OPENAI_API_KEY=test-key"))

				want := []int{exitOK, exitFailed, exitOK}[i]
				for _, p := range []string{"run", "experiment", "evaltest"} {
					d := got[p]
					if d.Code != want || !strings.HasPrefix(d.Line, fmt.Sprintf("exit %d: ", want)) {
						t.Errorf("step %d (%s): %s decided %d %q, want exit %d", i+1, revision, p, d.Code, d.Line, want)
					}
					if a, b := uuidPattern.ReplaceAllString(d.Line, "<id>"), uuidPattern.ReplaceAllString(got["run"].Line, "<id>"); a != b {
						t.Errorf("step %d (%s): %s's line %q differs from run's %q", i+1, revision, p, d.Line, got["run"].Line)
					}
				}
				if i == 1 && !strings.Contains(got["run"].Line, "1 regression against baseline") {
					t.Errorf("step 2: the regressed run's line %q names no regression against its baseline", got["run"].Line)
				}
			}
			rows := dumpPipelineRows(t, dbs["run"])
			if !strings.Contains(rows, `"agent":"PipelineAgent"`) || strings.Count(rows, `"case_id":"alpha"`) != 3 {
				t.Fatalf("run's rows lack the three runs of the suite:\n%s", rows)
			}
			for _, p := range []string{"experiment", "evaltest"} {
				if other := dumpPipelineRows(t, dbs[p]); other != rows {
					t.Errorf("%s's rows differ from run's:\n%s", p, firstDifference(rows, other))
				}
			}
		})
	}
}

// pipelineVariant is the experiment's variant whose decisions and rows
// are compared with run's and evaltest's.
const pipelineVariant = "candidate"

// pipelineDecision is an exit code and the line that says why.
type pipelineDecision struct {
	Code int    `json:"code"`
	Line string `json:"line"`
}

// recordedTime finds the baseline's start in a recorded decision.
var recordedTime = regexp.MustCompile(`\d{4}-\d\d-\d\dT[0-9:.]+Z`)

// uuidPattern finds run ids in decision lines.
var uuidPattern = regexp.MustCompile(`[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}`)

// logOnFailure logs a command's output when the test fails.
func logOnFailure(t *testing.T, what, out, stderr string) {
	t.Helper()
	t.Cleanup(func() {
		if t.Failed() {
			t.Logf("%s:\n%s%s", what, out, stderr)
		}
	})
}

// lastLineOf is the last line of out.
func lastLineOf(out string) string {
	lines := strings.Split(strings.TrimRight(out, "\n"), "\n")
	return lines[len(lines)-1]
}

// variantExitLine is the exit line experiment printed for the variant.
func variantExitLine(out, variant string) string {
	prefix := "[" + variant + "] exit "
	for _, l := range strings.Split(out, "\n") {
		if strings.HasPrefix(l, prefix) {
			return strings.TrimPrefix(l, "["+variant+"] ")
		}
	}
	return ""
}

// writeVariantExperiment writes an experiment of the suite whose variant
// "candidate" runs the revision (as agent "PipelineAgent [candidate]", the
// history of which its baselines come from); the second variant an
// experiment needs runs the same revision as "PipelineAgent [twin]".
func writeVariantExperiment(t *testing.T, suiteFile, revision string) string {
	t.Helper()
	env := map[string]string{"PIPELINE_REVISION": revision}
	doc, err := json.Marshal(map[string]any{"experiment": "Pipeline", "suite": suiteFile,
		"variants": []any{map[string]any{"name": pipelineVariant, "env": env}, map[string]any{"name": "twin", "env": env}}})
	if err != nil {
		t.Fatal(err)
	}
	path := filepath.Join(t.TempDir(), "experiment.json")
	writeTestFile(t, path, string(doc))
	return path
}

// pipelineFixture builds the evaltest side of the pipeline test (go test
// -c of testdata/pipeline) and returns a function that runs it with env
// (and no EVAL_* or EVALTEST_* variable of this process) and returns its
// decision; it checks that go test passed exactly when the decision is 0.
func pipelineFixture(t *testing.T) func(t *testing.T, env []string) pipelineDecision {
	t.Helper()
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build the evaltest side (put the Go toolchain on PATH): %v", err)
	}
	bin := filepath.Join(t.TempDir(), "pipeline.test")
	build := exec.CommandContext(t.Context(), goBin, "test", "-c", "-o", bin, "./testdata/pipeline")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", build, err, out)
	}
	return func(t *testing.T, env []string) pipelineDecision {
		t.Helper()
		file := filepath.Join(t.TempDir(), "decision.json")
		cmd := exec.CommandContext(t.Context(), bin, "-test.v", "-test.run", "^TestPipeline$")
		for _, kv := range os.Environ() {
			if name, _, _ := strings.Cut(kv, "="); !strings.HasPrefix(name, "EVAL_") && !strings.HasPrefix(name, "EVALTEST_") &&
				name != "PIPELINE_REVISION" && name != "OPENAI_API_KEY" {
				cmd.Env = append(cmd.Env, kv)
			}
		}
		cmd.Env = append(cmd.Env, append(env, "PIPELINE_DECISION="+file)...)
		out, runErr := cmd.CombinedOutput()
		logOnFailure(t, "evaltest", string(out), "")
		var d pipelineDecision
		b, err := os.ReadFile(file)
		if err != nil || json.Unmarshal(b, &d) != nil {
			t.Fatalf("evaltest wrote no decision (%v): %v\n%s", err, runErr, out)
		}
		if (runErr == nil) != (d.Code == exitOK) {
			t.Errorf("evaltest: go test error %v, but the decision is %d %q", runErr, d.Code, d.Line)
		}
		return d
	}
}

// pipelineTables are the gem's tables in a stable row order.
// Only the runs of the suite's agent count, and those of the experiment's
// candidate variant (its twin has runs of its own).
var pipelineTables = []struct{ name, from, order string }{
	{"ruby_llm_evaluations_runs", "ruby_llm_evaluations_runs t WHERE " + pipelineAgents("t"), "t.sequence"},
	{"ruby_llm_evaluations_case_results",
		"ruby_llm_evaluations_case_results t JOIN ruby_llm_evaluations_runs r ON r.id = t.run_id WHERE " + pipelineAgents("r"),
		"r.sequence, t.position"},
	{"ruby_llm_evaluations_metric_results",
		"ruby_llm_evaluations_metric_results t JOIN ruby_llm_evaluations_case_results c ON c.id = t.case_result_id" +
			" JOIN ruby_llm_evaluations_runs r ON r.id = c.run_id WHERE " + pipelineAgents("r"), "r.sequence, c.position, t.name"},
}

// pipelineAgents selects the runs of the suite's agent and of the
// experiment's candidate variant in the runs table aliased as runs.
func pipelineAgents(runs string) string {
	return fmt.Sprintf("%s.agent IN ('PipelineAgent', 'PipelineAgent [%s]')", runs, pipelineVariant)
}

// pipelineVolatile are the columns that differ between any two runs:
// ids, the database's sequence, times and measured durations.
var pipelineVolatile = map[string]bool{"id": true, "run_id": true, "case_result_id": true, "sequence": true,
	"started_at": true, "finished_at": true, "created_at": true, "updated_at": true, "duration_ms": true}

// dumpPipelineRows renders every row of the three tables at url, every
// column but the volatile ones, one JSON object a line. What says which
// pipeline wrote a run is left out: in the runs' metadata the experiment
// record and go_test, and the variant's name in the agent's (experiment
// runs every variant under an agent name of its own); and in the summary
// the duration.
func dumpPipelineRows(t *testing.T, url string) string {
	t.Helper()
	ctx := context.Background()
	db, err := models.Open(ctx, url, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var b strings.Builder
	for _, tb := range pipelineTables {
		rows, err := db.QueryContext(ctx, "SELECT t.* FROM "+tb.from+" ORDER BY "+tb.order)
		if err != nil {
			t.Fatalf("%s: %v", tb.name, err)
		}
		cols, err := rows.Columns()
		if err != nil {
			t.Fatal(err)
		}
		for rows.Next() {
			vals := make([]any, len(cols))
			ptrs := make([]any, len(cols))
			for i := range vals {
				ptrs[i] = &vals[i]
			}
			if err := rows.Scan(ptrs...); err != nil {
				t.Fatalf("%s: %v", tb.name, err)
			}
			row := map[string]any{}
			for i, c := range cols {
				if pipelineVolatile[c] {
					continue
				}
				v := vals[i]
				if bs, ok := v.([]byte); ok {
					v = string(bs)
				}
				if s, ok := v.(string); ok && tb.name == "ruby_llm_evaluations_runs" {
					switch c {
					case "metadata", "summary":
						// the recorded decision names each database's own baseline run
						v = recordedTime.ReplaceAllString(uuidPattern.ReplaceAllString(withoutKeys(t, s, "experiment", "go_test", "duration_ms"), "<id>"), "<time>")
					case "agent":
						v = strings.TrimSuffix(s, " ["+pipelineVariant+"]")
					}
				}
				row[c] = v
			}
			line, err := json.Marshal(row)
			if err != nil {
				t.Fatal(err)
			}
			fmt.Fprintf(&b, "%s: %s\n", tb.name, line)
		}
		if err := rows.Err(); err != nil {
			t.Fatal(err)
		}
		rows.Close()
	}
	return b.String()
}

// withoutKeys is the JSON object s without the given keys.
func withoutKeys(t *testing.T, s string, keys ...string) string {
	t.Helper()
	var m map[string]any
	if err := json.Unmarshal([]byte(s), &m); err != nil {
		t.Fatalf("not a JSON object: %s", s)
	}
	for _, k := range keys {
		delete(m, k)
	}
	b, err := json.Marshal(m)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}

// firstDifference shows the first line in which want and got differ.
func firstDifference(want, got string) string {
	w, g := strings.Split(want, "\n"), strings.Split(got, "\n")
	for i := range max(len(w), len(g)) {
		var a, b string
		if i < len(w) {
			a = w[i]
		}
		if i < len(g) {
			b = g[i]
		}
		if a != b {
			return fmt.Sprintf("line %d:\nrun:   %s\nother: %s", i+1, a, b)
		}
	}
	return "(none)"
}
