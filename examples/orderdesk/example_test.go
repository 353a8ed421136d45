package orderdesk_test

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
)

// report is the part of evalrun's JSON report the test reads.
type report struct {
	Cases []struct {
		ID      string `json:"id"`
		Metrics []struct {
			Name   string   `json:"name"`
			Score  *float64 `json:"score"`
			Passed bool     `json:"passed"`
		} `json:"metrics"`
	} `json:"cases"`
}

// TestOrderDesk runs the example through the real evalrun binary as its
// README says: the reference agent exits 0; the regressed agent, which
// answers correctly but never writes the order row, exits 1 naming the
// outcome checks, while every answer-based check passes.
func TestOrderDesk(t *testing.T) {
	python, err := exec.LookPath("python3")
	if err != nil {
		t.Fatalf("python3 is needed for this example (Debian package python3): %v", err)
	}
	goBin, err := exec.LookPath("go")
	if err != nil {
		t.Fatalf("the go command is needed to build evalrun: %v", err)
	}
	dir := t.TempDir()
	bin := filepath.Join(dir, "evalrun")
	if out, err := exec.Command(goBin, "build", "-o", bin, "github.com/agentevals-go/agentevals/cmd/evalrun").CombinedOutput(); err != nil {
		t.Fatalf("go build evalrun: %v\n%s", err, out)
	}
	desk := filepath.Join(dir, "desk.sqlite3")
	if out, err := exec.Command(python, "orderdesk.py", "init", desk).CombinedOutput(); err != nil {
		t.Fatalf("orderdesk.py init: %v\n%s", err, out)
	}
	evalrun := func(revision string) (int, string, report) {
		path := filepath.Join(dir, revision+".json")
		cmd := exec.Command(bin, "run", "suite.json", "--report", path)
		cmd.Env = append(os.Environ(), "DATABASE_URL=sqlite:"+filepath.Join(dir, "runs.sqlite3"),
			"ORDERDESK_DB=sqlite:"+desk, "AGENT_REVISION="+revision)
		out, err := cmd.CombinedOutput()
		code := 0
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			code = ee.ExitCode()
		} else if err != nil {
			t.Fatalf("evalrun: %v", err)
		}
		var r report
		if b, err := os.ReadFile(path); err != nil || json.Unmarshal(b, &r) != nil {
			t.Fatalf("%s run wrote no JSON report (exit %d):\n%s", revision, code, out)
		}
		return code, string(out), r
	}
	if code, out, _ := evalrun("reference"); code != 0 {
		t.Fatalf("reference run exited %d, want 0:\n%s", code, out)
	}
	code, out, r := evalrun("regressed")
	if code != 1 {
		t.Fatalf("regressed run exited %d, want 1:\n%s", code, out)
	}
	for _, name := range []string{"order_row FAIL", "verified FAIL"} {
		if !strings.Contains(out, name) {
			t.Errorf("regressed run's output does not name %q:\n%s", name, out)
		}
	}
	if len(r.Cases) != 3 {
		t.Fatalf("report has %d cases, want 3", len(r.Cases))
	}
	outcomeCheck := map[string]bool{"order_row": true, "verified": true}
	for _, c := range r.Cases {
		if len(c.Metrics) != 4 {
			t.Errorf("%s: %d metrics, want 4", c.ID, len(c.Metrics))
		}
		for _, m := range c.Metrics {
			if m.Score == nil {
				t.Errorf("%s: %s was not scored", c.ID, m.Name)
				continue
			}
			if m.Passed == outcomeCheck[m.Name] {
				t.Errorf("%s: %s passed=%v (score %v), want passed=%v", c.ID, m.Name, m.Passed, *m.Score, !outcomeCheck[m.Name])
			}
		}
	}
}
