package docstest

import (
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// TestModule_UsableFromOutside uses the module from a module of its own,
// as a team's service would: a replace directive points
// github.com/agentevals-go/agentevals at this checkout (the documented way to
// try an unreleased checkout; a release is fetched by go get as usual),
// go mod tidy resolves it, a test importing evaltest runs a suite against a
// Go agent and passes, and go install builds evalrun from the same
// requirement.
func TestModule_UsableFromOutside(t *testing.T) {
	base := t.TempDir()
	home := filepath.Join(base, "home")
	svc := filepath.Join(base, "mysvc")
	gobin := filepath.Join(base, "bin")
	for _, d := range []string{filepath.Join(home, "tmp"), filepath.Join(svc, "testdata")} {
		if err := os.MkdirAll(d, 0o755); err != nil {
			t.Fatal(err)
		}
	}
	files := map[string]string{
		"agent.go": `// Package mysvc answers support questions.
package mysvc

import (
	"context"
	"encoding/json"

	"github.com/agentevals-go/agentevals/agent"
)

// Answer is the service's agent as evaltest calls it.
func Answer(_ context.Context, q agent.Question) (agent.Response, error) {
	out, err := json.Marshal("Paris is the capital of France.")
	return agent.Response{Output: out}, err
}
`,
		"agent_test.go": `package mysvc

import (
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/evaltest"
)

func TestCapital(t *testing.T) {
	evaltest.Run(t, "testdata/suite.json", agent.Func(Answer))
}
`,
		"testdata/suite.json": `{"suite": "mysvc", "version": "1", "agent": {"name": "mysvc"},
 "questions": [{"id": "capital", "question": "What is the capital of France?",
   "checks": [{"type": "contains", "value": "Paris"}]}]}
`,
	}
	for name, text := range files {
		if err := os.WriteFile(filepath.Join(svc, filepath.FromSlash(name)), []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	// The service's go.sum starts as a copy of the checkout's: the test is
	// offline (GOPROXY=off), so checksums come from what the checkout
	// already verified.
	if err := copyFile(filepath.Join(env.root, "go.sum"), filepath.Join(svc, "go.sum"), 0o644); err != nil {
		t.Fatal(err)
	}
	run := func(args ...string) string {
		t.Helper()
		cmd := exec.Command(args[0], args[1:]...)
		cmd.Dir = svc
		cmd.Env = environ(home, "GOBIN="+gobin, "GOFLAGS=-mod=mod")
		out, err := cmd.CombinedOutput()
		if err != nil {
			t.Fatalf("%s: %v\n%s%s", strings.Join(args, " "), err, out, offlineHint(out))
		}
		return string(out)
	}
	run("go", "mod", "init", "example.com/mysvc")
	run("go", "mod", "edit", "-replace", "github.com/agentevals-go/agentevals="+env.root)
	run("go", "mod", "tidy")
	gomod, err := os.ReadFile(filepath.Join(svc, "go.mod"))
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(gomod), "require github.com/agentevals-go/agentevals v0.0.0-") {
		t.Errorf("go mod tidy did not require the module:\n%s", gomod)
	}
	out := run("go", "test", "-count=1", "-v", "./...")
	if !strings.Contains(out, "--- PASS: TestCapital/capital") {
		t.Errorf("evaltest did not pass the question from outside the checkout:\n%s", out)
	}
	run("go", "install", "github.com/agentevals-go/agentevals/cmd/evalrun")
	out = run(filepath.Join(gobin, "evalrun"), "checks", "contains")
	if !strings.Contains(out, `Example check: {"type": "contains"`) {
		t.Errorf("the installed evalrun does not list the contains check: %s", out)
	}
}
