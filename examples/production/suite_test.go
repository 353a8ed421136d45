package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

var savedRun = regexp.MustCompile(`run ([0-9a-f-]{36}) saved to`)

// regressionQuestion turns the first case of the regressed window that
// failed looked_up_order into a suite question (evalrun trace-to-suite), and
// shows that evalrun run fails it on the regressed revision and passes
// it on the reference.
func regressionQuestion(t *testing.T, bin, db, dir, window string) {
	t.Helper()
	run := savedRun.FindStringSubmatch(window)
	if run == nil {
		t.Fatalf("the regressed window should name its run:\n%s", window)
	}
	// The suite runs ./shop-agent beside it: built into the test's folder.
	if out, err := exec.Command("go", "build", "-o", filepath.Join(dir, "shop-agent"), ".").CombinedOutput(); err != nil {
		t.Fatalf("build the agent: %v\n%s", err, out)
	}
	base, err := os.ReadFile("suite.json")
	if err != nil {
		t.Fatal(err)
	}
	suite := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(suite, base, 0o644); err != nil {
		t.Fatal(err)
	}
	monitor, _ := filepath.Abs("monitor.json")
	grown := filepath.Join(dir, "suite-regression.json")
	evalrun := func(env string, args ...string) (int, string) {
		cmd := exec.Command(bin, args...)
		cmd.Env = append(os.Environ(), "DATABASE_URL=sqlite:"+db, "NO_COLOR=1", env)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			return ee.ExitCode(), string(out)
		}
		if err != nil {
			t.Fatalf("%s: %v", cmd, err)
		}
		return 0, string(out)
	}
	add := []string{"trace-to-suite", suite, "-o", grown, "--run", run[1], "--failing", "looked_up_order", "--monitor", monitor}
	if code, out := evalrun("", add...); code != 0 || !strings.Contains(out, "looked_up_order") {
		t.Fatalf("trace-to-suite: exit %d, want 0 and the failed check carried over:\n%s", code, out)
	}
	written, _ := os.ReadFile(grown)
	var doc struct {
		Questions []struct {
			ID       string
			Question string
			Metadata struct {
				Review     bool
				Production struct {
					RunID string `json:"run_id"`
				}
			}
		}
	}
	if err := json.Unmarshal(written, &doc); err != nil || len(doc.Questions) != 2 {
		t.Fatalf("the new suite should hold the old question and the new one: %v\n%s", err, written)
	}
	q := doc.Questions[1]
	if !q.Metadata.Review || q.Metadata.Production.RunID != run[1] || strings.Contains(q.Question, "@example.com") {
		t.Errorf("the question should be marked for review, name its window and hold no address:\n%s", written)
	}
	if code, out := evalrun("", add...); code != 2 || !strings.Contains(out, "exists") {
		t.Errorf("a second trace-to-suite to the same file: exit %d, want 2 refusing to overwrite:\n%s", code, out)
	}
	if again, _ := os.ReadFile(grown); string(again) != string(written) {
		t.Error("the refused trace-to-suite changed the file")
	}

	for _, tc := range []struct {
		revision string
		want     int
	}{{"regressed", 1}, {"reference", 0}} {
		code, out := evalrun("SHOP_REVISION="+tc.revision, "run", grown)
		if code != tc.want {
			t.Errorf("evalrun run on the %s revision: exit %d, want %d\n%s", tc.revision, code, tc.want, out)
		}
		if tc.want == 1 && !strings.Contains(out, q.ID) {
			t.Errorf("the regressed run should name the failing question %s:\n%s", q.ID, out)
		}
	}
}
