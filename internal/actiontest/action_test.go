package actiontest

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"

	"github.com/agentevals-go/agentevals/scaffold"
)

// action is the part of action.yml the tests read.
type action struct {
	Inputs map[string]struct {
		Required bool   `yaml:"required"`
		Default  string `yaml:"default"`
	} `yaml:"inputs"`
	Runs struct {
		Using string `yaml:"using"`
		Steps []struct {
			ID   string            `yaml:"id"`
			Run  string            `yaml:"run"`
			Uses string            `yaml:"uses"`
			Env  map[string]string `yaml:"env"`
		} `yaml:"steps"`
	} `yaml:"runs"`
}

func root(t *testing.T) string {
	t.Helper()
	dir, err := filepath.Abs("../..")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(filepath.Join(dir, "action.yml")); err != nil {
		t.Fatalf("no action.yml at the repository root %s: %v", dir, err)
	}
	return dir
}

func readAction(t *testing.T) action {
	t.Helper()
	b, err := os.ReadFile(filepath.Join(root(t), "action.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var a action
	if err := yaml.Unmarshal(b, &a); err != nil {
		t.Fatalf("action.yml: %v", err)
	}
	return a
}

// TestAction_Definition checks that action.yml is a composite action whose
// scripts exist and whose steps read only declared inputs, and that the
// workflow evalrun init writes uses it with declared inputs only.
func TestAction_Definition(t *testing.T) {
	a := readAction(t)
	if a.Runs.Using != "composite" {
		t.Errorf("runs.using = %q, want composite", a.Runs.Using)
	}
	if !a.Inputs["suite"].Required {
		t.Error("the suite input is not required")
	}
	var scripts int
	for _, s := range a.Runs.Steps {
		if _, script, ok := strings.Cut(s.Run, "$GITHUB_ACTION_PATH/"); ok {
			script = strings.Trim(script, `"`)
			if _, err := os.Stat(filepath.Join(root(t), script)); err != nil {
				t.Errorf("step %q runs %s, which does not exist", s.Run, script)
			}
			scripts++
		}
		for k, v := range s.Env {
			if in, ok := strings.CutPrefix(v, "${{ inputs."); ok {
				name := strings.TrimSuffix(in, " }}")
				if _, ok := a.Inputs[name]; !ok {
					t.Errorf("env %s reads undeclared input %q", k, name)
				}
			}
		}
	}
	if scripts != 2 {
		t.Errorf("%d steps run a script of action/, want 2 (install and run)", scripts)
	}

	dir := filepath.Join(t.TempDir(), "evals")
	if _, err := scaffold.Write(scaffold.Options{Dir: dir, Lang: "sh", Schema: []byte("{}")}); err != nil {
		t.Fatal(err)
	}
	b, err := os.ReadFile(filepath.Join(dir, ".github", "workflows", "evals.yml"))
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		Jobs map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatalf("scaffolded workflow: %v\n%s", err, b)
	}
	used := false
	for _, s := range wf.Jobs["evals"].Steps {
		if !strings.HasPrefix(s.Uses, "agentevals-go/agentevals@") {
			continue
		}
		used = true
		for k := range s.With {
			if _, ok := a.Inputs[k]; !ok {
				t.Errorf("the scaffolded workflow passes %q, which action.yml does not declare", k)
			}
		}
	}
	if !used {
		t.Errorf("the scaffolded workflow does not use the action:\n%s", b)
	}
}

// runner is a job's environment as GitHub Actions sets it, in temporary
// files: the summary, the outputs, the PATH additions.
type runner struct {
	dir, summary, output, path, temp string
}

func newRunner(t *testing.T) runner {
	t.Helper()
	dir := t.TempDir()
	r := runner{dir: dir, summary: filepath.Join(dir, "summary.md"), output: filepath.Join(dir, "output"),
		path: filepath.Join(dir, "path"), temp: filepath.Join(dir, "runner-temp")}
	if err := os.MkdirAll(r.temp, 0o755); err != nil {
		t.Fatal(err)
	}
	return r
}

func (r runner) env(extra ...string) []string {
	return append(os.Environ(), append([]string{
		"GITHUB_STEP_SUMMARY=" + r.summary, "GITHUB_OUTPUT=" + r.output, "GITHUB_PATH=" + r.path,
		"RUNNER_TEMP=" + r.temp, "GITHUB_SHA=0123456789abcdef", "CI=true",
		"DATABASE_URL=", "EVALTEST_DATABASE_URL=",
	}, extra...)...)
}

func (r runner) read(t *testing.T, path string) string {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	return string(b)
}

// TestAction_Scripts runs the action's install step (building evalrun from
// this checkout, as the action does from its own ref) and its run step on
// the support example: a passing run, a regressed run and an invalid suite,
// checking the step outputs, the job summary and the reports.
func TestAction_Scripts(t *testing.T) {
	repo := root(t)
	r := newRunner(t)
	install := exec.Command("bash", filepath.Join(repo, "action", "install.sh"))
	install.Env = r.env("GITHUB_ACTION_PATH="+repo, "INPUT_VERSION=")
	if out, err := install.CombinedOutput(); err != nil {
		t.Fatalf("action/install.sh: %v\n%s", err, out)
	}
	bin := strings.TrimSpace(r.read(t, r.path))
	if _, err := os.Stat(filepath.Join(bin, "evalrun")); err != nil {
		t.Fatalf("install.sh added %q to GITHUB_PATH, which holds no evalrun: %v", bin, err)
	}

	work := filepath.Join(r.dir, "repo")
	for _, f := range []string{"suite.json", "agent.sh", "policies.txt"} {
		b, err := os.ReadFile(filepath.Join(repo, "examples", "support", f))
		if err != nil {
			t.Fatal(err)
		}
		if err := os.MkdirAll(filepath.Join(work, "evals"), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(filepath.Join(work, "evals", f), b, 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.WriteFile(filepath.Join(work, "evals", "broken.json"), []byte(`{"suite": "broken", "questions": 3}`), 0o644); err != nil {
		t.Fatal(err)
	}
	db := "sqlite:" + filepath.Join(r.dir, "history.sqlite3")
	tests := []struct {
		name, suite, revision string
		code                  string
		summary               []string
	}{
		{"reference", "evals/suite.json", "reference", "0", []string{"Customer support"}},
		{"regressed", "evals/suite.json", "regressed", "1", []string{"Customer support", "returns"}},
		{"invalid suite", "evals/broken.json", "reference", "2", []string{"evalrun exited 2 before writing a report", "broken.json"}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			for _, f := range []string{r.summary, r.output} {
				os.Remove(f)
			}
			cmd := exec.Command("bash", filepath.Join(repo, "action", "run.sh"))
			cmd.Dir = work
			cmd.Env = r.env("PATH="+bin+":"+os.Getenv("PATH"), "INPUT_SUITE="+tt.suite, "INPUT_FAIL_ON=both",
				"INPUT_GATE=strict", "INPUT_ARGS=--concurrency 2", "INPUT_DATABASE_URL="+db, "AGENT_REVISION="+tt.revision)
			var out bytes.Buffer
			cmd.Stdout, cmd.Stderr = &out, &out
			if err := cmd.Run(); err != nil {
				t.Fatalf("action/run.sh must exit 0 so the upload runs: %v\n%s", err, out.String())
			}
			outputs := r.read(t, r.output)
			if !strings.Contains(outputs, "exit-code="+tt.code+"\n") {
				t.Errorf("step outputs %q, want exit-code=%s\n%s", outputs, tt.code, out.String())
			}
			reports := filepath.Join(r.temp, "agentevals-report")
			if !strings.Contains(outputs, "report-dir="+reports+"\n") {
				t.Errorf("step outputs %q, want report-dir=%s", outputs, reports)
			}
			summary := r.read(t, r.summary)
			for _, want := range tt.summary {
				if !strings.Contains(summary, want) {
					t.Errorf("job summary lacks %q:\n%s", want, summary)
				}
			}
			if tt.code == "2" {
				return
			}
			for _, f := range []string{"report.html", "report.md", "report.json", "junit.xml"} {
				if info, err := os.Stat(filepath.Join(reports, f)); err != nil || info.Size() == 0 {
					t.Errorf("report %s missing or empty: %v", f, err)
				}
			}
			if js := r.read(t, filepath.Join(reports, "report.json")); !strings.Contains(js, `"revision":"0123456789abcdef"`) &&
				!strings.Contains(js, `"revision": "0123456789abcdef"`) {
				t.Errorf("the JSON report does not carry the revision GITHUB_SHA gave:\n%.2000s", js)
			}
		})
	}
}
