package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/goccy/go-yaml"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestInitCmd_ScaffoldRuns scaffolds a suite in an empty directory for
// several languages and agent kinds, then runs the printed command: the
// scaffold validates, runs offline and passes.
func TestInitCmd_ScaffoldRuns(t *testing.T) {
	tests := []struct{ lang, agent, program string }{
		{"sh", "command", "sh"},
		{"python", "command", "python3"},
		{"python", "worker", "python3"},
		{"node", "worker", "node"},
		{"ruby", "command", "ruby"},
		{"go", "worker", "go"},
	}
	for _, tt := range tests {
		t.Run(tt.lang+"-"+tt.agent, func(t *testing.T) {
			if _, err := exec.LookPath(tt.program); err != nil {
				t.Fatalf("%s is not installed: apt-get install -y python3 nodejs ruby (and Go on PATH): %v", tt.program, err)
			}
			dir := filepath.Join(t.TempDir(), "evals")
			code, stdout, stderr := evalrun(t, "init", dir, "--lang", tt.lang, "--agent", tt.agent)
			if code != 0 {
				t.Fatalf("init: exit %d: %s", code, stderr)
			}
			_, next, ok := strings.Cut(stdout, "\nNext: ")
			if !ok {
				t.Fatalf("init printed no next command: %q", stdout)
			}
			args := strings.Fields(strings.TrimSpace(next))
			if len(args) != 3 || args[0] != "evalrun" || args[1] != "run" {
				t.Fatalf("next command %q, want evalrun run SUITE", next)
			}
			if code, out, errOut := evalrun(t, "validate", args[2]); code != 0 {
				t.Fatalf("validate: exit %d: %s%s", code, out, errOut)
			} else if errOut != "" {
				t.Errorf("validate warns: %s", errOut)
			}
			t.Setenv("DATABASE_URL", "sqlite:"+filepath.Join(t.TempDir(), "runs.db"))
			code, out, errOut := evalrun(t, args[1:]...)
			if code != 0 {
				t.Fatalf("%s: exit %d\n%s\n%s", next, code, out, errOut)
			}
			if !strings.Contains(out, "Passing questions: 4 of 4") {
				t.Errorf("run output lacks 4 of 4 passing:\n%s", out)
			}
			checkWorkflow(t, filepath.Join(dir, ".github", "workflows", "evals.yml"))
		})
	}
}

// checkWorkflow parses the CI workflow and checks that it gates pull
// requests by running the suite through the repository's GitHub Action
// (internal/actiontest runs the action's scripts).
func checkWorkflow(t *testing.T, path string) {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	var wf struct {
		On   map[string]any `yaml:"on"`
		Jobs map[string]struct {
			Steps []struct {
				Uses string            `yaml:"uses"`
				With map[string]string `yaml:"with"`
			} `yaml:"steps"`
		} `yaml:"jobs"`
	}
	if err := yaml.Unmarshal(b, &wf); err != nil {
		t.Fatalf("%s: %v", path, err)
	}
	if _, ok := wf.On["pull_request"]; !ok {
		t.Errorf("%s does not run on pull requests", path)
	}
	var gate bool
	for _, s := range wf.Jobs["evals"].Steps {
		if strings.HasPrefix(s.Uses, "agentevals-go/agentevals@") && s.With["suite"] == "suite.json" && s.With["fail-on"] == "both" {
			gate = true
		}
	}
	if !gate {
		t.Errorf("%s has no step running the agentevals action on suite.json with fail-on both:\n%s", path, b)
	}
}

// TestInitCmd_NeverOverwrites checks that a second init writes nothing and
// names the files in the way.
func TestInitCmd_NeverOverwrites(t *testing.T) {
	dir := t.TempDir()
	if err := os.WriteFile(filepath.Join(dir, "suite.json"), []byte("mine"), 0o644); err != nil {
		t.Fatal(err)
	}
	code, _, stderr := evalrun(t, "init", dir, "--lang", "sh")
	if code != 2 || !strings.Contains(stderr, filepath.Join(dir, "suite.json")) || !strings.Contains(stderr, "nothing was written") {
		t.Errorf("exit %d, stderr %q; want 2 naming suite.json", code, stderr)
	}
	if b, _ := os.ReadFile(filepath.Join(dir, "suite.json")); string(b) != "mine" {
		t.Error("suite.json was overwritten")
	}
	if _, err := os.Stat(filepath.Join(dir, "golden.jsonl")); err == nil {
		t.Error("golden.jsonl was written next to the existing suite")
	}
}

// TestInitCmd_SecondSuiteAndNoRepository: a second suite in one
// repository gets its own workflow file, --no-workflow writes none, and
// outside a git repository init says GitHub will not read the workflow it
// wrote under the suite's folder.
func TestInitCmd_SecondSuiteAndNoRepository(t *testing.T) {
	repo := t.TempDir()
	if err := os.MkdirAll(filepath.Join(repo, ".git"), 0o755); err != nil {
		t.Fatal(err)
	}
	for _, dir := range []string{"evals", "evals2"} {
		if code, out, stderr := evalrun(t, "init", filepath.Join(repo, dir), "--lang", "sh"); code != exitOK || strings.Contains(stderr, "note:") {
			t.Fatalf("init %s: exit %d\n%s%s", dir, code, out, stderr)
		}
	}
	for _, wf := range []string{"evals.yml", "evals-evals2.yml"} {
		b, err := os.ReadFile(filepath.Join(repo, ".github", "workflows", wf))
		if err != nil {
			t.Fatalf("workflow %s: %v", wf, err)
		}
		if want := "suite: " + strings.TrimSuffix(strings.TrimPrefix(wf, "evals-"), ".yml") + "/suite.json"; wf != "evals.yml" && !strings.Contains(string(b), want) {
			t.Errorf("%s does not run its own suite (%s):\n%s", wf, want, b)
		}
	}
	if code, out, stderr := evalrun(t, "init", filepath.Join(repo, "evals3"), "--lang", "sh", "--no-workflow"); code != exitOK || strings.Contains(out, ".github") {
		t.Fatalf("init --no-workflow: exit %d\n%s%s", code, out, stderr)
	}
	if _, err := os.Stat(filepath.Join(repo, ".github", "workflows", "evals-evals3.yml")); err == nil {
		t.Error("--no-workflow wrote a workflow")
	}

	outside := filepath.Join(t.TempDir(), "evals")
	code, _, stderr := evalrun(t, "init", outside, "--lang", "sh")
	if code != exitOK || !strings.Contains(stderr, "GitHub does not read it") || !strings.Contains(stderr, filepath.Join(outside, ".github", "workflows", "evals.yml")) {
		t.Errorf("init outside a repository: exit %d, stderr:\n%s", code, stderr)
	}
}

// TestInitCmd_GoAgentBuiltBeforeFirstQuestion: init builds the Go stub, so
// no question spends its timeout compiling: the run passes on a PATH
// without the go command, and an edited agent.go is built again.
func TestInitCmd_GoAgentBuiltBeforeFirstQuestion(t *testing.T) {
	dir := filepath.Join(t.TempDir(), "evals")
	if code, out, stderr := evalrun(t, "init", dir, "--lang", "go"); code != exitOK || !strings.Contains(out, "built ") {
		t.Fatalf("init --lang go: exit %d\n%s%s", code, out, stderr)
	}
	goPath := os.Getenv("PATH")
	t.Setenv("DATABASE_URL", "sqlite:"+filepath.Join(t.TempDir(), "runs.db"))
	t.Setenv("PATH", "/usr/bin:/bin")
	if _, err := exec.LookPath("go"); err == nil {
		t.Fatal("go is in /usr/bin or /bin: this test cannot hide it")
	}
	code, out, stderr := evalrun(t, "run", filepath.Join(dir, "suite.json"))
	if code != exitOK || !strings.Contains(out, "Passing questions: 4 of 4") {
		t.Fatalf("run without go on PATH: exit %d\n%s%s", code, out, stderr)
	}
	// An edit is picked up: the script builds again.
	t.Setenv("PATH", goPath)
	src := filepath.Join(dir, "agent.go")
	b, _ := os.ReadFile(src)
	edited := strings.Replace(string(b), `"Paris is the capital of France."`, `"Lyon."`, 1)
	if edited == string(b) {
		t.Fatal("the stub's answer to edit is gone")
	}
	os.WriteFile(src, []byte(edited), 0o644)
	future := time.Now().Add(2 * time.Second)
	os.Chtimes(src, future, future)
	code, out, _ = evalrun(t, "run", filepath.Join(dir, "suite.json"))
	if code != exitFailed || !strings.Contains(out, "Passing questions: 3 of 4") {
		t.Errorf("run after editing agent.go: exit %d\n%s", code, out)
	}
}

// TestInitCmd_StubsReportActions: every stub shows how an agent reports
// its tool calls, and the run stores them.
func TestInitCmd_StubsReportActions(t *testing.T) {
	for _, lang := range []string{"sh", "python", "node", "ruby", "go"} {
		t.Run(lang, func(t *testing.T) {
			dir := filepath.Join(t.TempDir(), "evals")
			if code, out, stderr := evalrun(t, "init", dir, "--lang", lang, "--no-workflow"); code != exitOK {
				t.Fatalf("init: exit %d\n%s%s", code, out, stderr)
			}
			url := testdb.SQLiteURL(t)
			if code, out, stderr := evalrun(t, "--database-url", url, "run", filepath.Join(dir, "suite.json")); code != exitOK {
				t.Fatalf("run: exit %d\n%s%s", code, out, stderr)
			}
			for _, c := range onlyRun(t, url).Cases {
				if !strings.Contains(string(c.Actions), `"name":"lookup"`) && !strings.Contains(string(c.Actions), `"name": "lookup"`) {
					t.Errorf("%s: actions %s, want the stub's lookup call", c.CaseID, c.Actions)
				}
			}
		})
	}
}
