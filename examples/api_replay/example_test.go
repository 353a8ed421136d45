package apireplay_test

import (
	"context"
	"encoding/json"
	"errors"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/adapter"
	"github.com/agentevals-go/agentevals/agent"
	apireplay "github.com/agentevals-go/agentevals/examples/api_replay"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/suite"
)

// execute runs suite.json with agent (nil: the suite's python3 agent).
func execute(t *testing.T, ag agent.Agent) *models.Run {
	t.Helper()
	s, err := suite.Load("suite.json")
	if err != nil {
		t.Fatalf("Load: %v", err)
	}
	if ag == nil {
		if _, err := exec.LookPath("python3"); err != nil {
			t.Fatalf("python3 is needed for this example (Debian package python3): %v", err)
		}
		a, err := adapter.New(s.Agent, adapter.Options{Concurrency: 2})
		if err != nil {
			t.Fatalf("NewAgent: %v", err)
		}
		if c, ok := a.(io.Closer); ok {
			t.Cleanup(func() { c.Close() })
		}
		ag = a
	}
	run, err := runner.Execute(context.Background(), s, ag, runner.ExecOptions{Concurrency: 2})
	if err != nil {
		t.Fatalf("Execute: %v", err)
	}
	return run
}

// check verifies every case passed (reference) or is an api_replay agent
// error with its evidence kept (regressed).
func check(t *testing.T, run *models.Run, regressed bool) {
	t.Helper()
	for _, c := range run.Cases {
		var meta struct {
			APIReplay struct {
				Passed   bool
				Observed []struct{ Status string }
				Missing  []any
			} `json:"api_replay"`
		}
		if err := json.Unmarshal(c.ResponseMetadata, &meta); err != nil {
			t.Fatalf("%s: response_metadata %s: %v", c.CaseID, c.ResponseMetadata, err)
		}
		var details struct{ Kind string }
		json.Unmarshal(c.ErrorDetails, &details)
		switch {
		case !regressed && (c.Status != models.StatusPassed || !meta.APIReplay.Passed):
			t.Errorf("%s: status %s, replay passed %v, error %s; want passed", c.CaseID, c.Status, meta.APIReplay.Passed, c.ErrorDetails)
		case regressed && (c.Status != models.StatusError || details.Kind != "api_replay" || meta.APIReplay.Passed):
			t.Errorf("%s: status %s, error %s; want an api_replay agent error", c.CaseID, c.Status, c.ErrorDetails)
		case regressed && (len(meta.APIReplay.Observed) == 0 || meta.APIReplay.Observed[0].Status != "mismatched" || len(meta.APIReplay.Missing) == 0):
			t.Errorf("%s: evidence %s, want a mismatched request and missing ones", c.CaseID, c.ResponseMetadata)
		}
	}
}

func TestGoAgent(t *testing.T) {
	t.Run("reference", func(t *testing.T) { check(t, execute(t, apireplay.Agent("reference")), false) })
	t.Run("regressed", func(t *testing.T) { check(t, execute(t, apireplay.Agent("regressed")), true) })
}

func TestPythonAgent(t *testing.T) {
	t.Run("reference", func(t *testing.T) {
		t.Setenv("AGENT_REVISION", "reference")
		check(t, execute(t, nil), false)
	})
	t.Run("regressed", func(t *testing.T) {
		t.Setenv("AGENT_REVISION", "regressed")
		check(t, execute(t, nil), true)
	})
}

// TestEvalrunGate runs the example as its README says: the reference run
// exits 0, the regressed run with --fail-on-regression exits 1.
func TestEvalrunGate(t *testing.T) {
	dir := t.TempDir()
	bin := filepath.Join(dir, "evalrun")
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build evalrun: %v", err)
	}
	build := exec.Command(goBin, "build", "-o", bin, "github.com/agentevals-go/agentevals/cmd/evalrun")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("go build evalrun: %v\n%s", err, out)
	}
	evalrun := func(revision string, args ...string) (int, string) {
		cmd := exec.Command(bin, append([]string{"run", "suite.json"}, args...)...)
		cmd.Env = append(os.Environ(), "DATABASE_URL=sqlite:"+filepath.Join(dir, "runs.sqlite3"), "AGENT_REVISION="+revision)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), string(out)
		}
		if err != nil {
			t.Fatalf("evalrun: %v", err)
		}
		return 0, string(out)
	}
	if code, out := evalrun("reference"); code != 0 {
		t.Fatalf("reference run exited %d, want 0:\n%s", code, out)
	}
	code, out := evalrun("regressed", "--fail-on-regression")
	if code != 1 || !strings.Contains(out, "mismatched request") {
		t.Fatalf("regressed run exited %d, want 1 naming the mismatched request:\n%s", code, out)
	}
}
