package main

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/goccy/go-yaml"
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
