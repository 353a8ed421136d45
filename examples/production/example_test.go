package main

import (
	"encoding/json"
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// evalrun builds the real binary.
func evalrun(t *testing.T) string {
	t.Helper()
	bin := filepath.Join(t.TempDir(), "evalrun")
	build := exec.Command("go", "build", "-o", bin, "github.com/agentevals-go/agentevals/cmd/evalrun")
	if out, err := build.CombinedOutput(); err != nil {
		t.Fatalf("%s: %v\n%s", build, err, out)
	}
	return bin
}

// scoreWindow runs evalrun score-traces on one file and returns its exit
// code and output.
func scoreWindow(t *testing.T, bin, db string, args ...string) (int, string) {
	t.Helper()
	cmd := exec.Command(bin, append([]string{"score-traces", "monitor.json"}, args...)...)
	cmd.Env = append(os.Environ(), "DATABASE_URL=sqlite:"+db, "NO_COLOR=1")
	out, err := cmd.CombinedOutput()
	var ee *exec.ExitError
	switch {
	case errors.As(err, &ee):
		return ee.ExitCode(), string(out)
	case err != nil:
		t.Fatalf("%s: %v", cmd, err)
	}
	return 0, string(out)
}

// TestProductionWindows: the shop agent, instrumented with the
// OpenTelemetry SDK, answers 300 requests an hour; its spans reach a
// local OTLP receiver and are written in the collector's file-exporter
// shape. Three hours of the reference revision score with exit 0; the
// hour the agent is switched to the regressed revision exits 1 naming the
// metric that fell, and its drops report says so; nothing is saved from a
// window that fails to parse or holds no case.
func TestProductionWindows(t *testing.T) {
	bin := evalrun(t)
	dir := t.TempDir()
	db := filepath.Join(dir, "evaluations.sqlite3")
	file := func(name, rev string, seed uint64, hour int) string {
		p := filepath.Join(dir, name)
		if err := export(p, rev, 300, seed, time.Date(2026, 11, 3, hour, 0, 0, 0, time.UTC)); err != nil {
			t.Fatal(err)
		}
		return p
	}
	var regressed string // the regressed window's output
	for i, rev := range []string{"reference", "reference", "reference", "regressed"} {
		path := file("window"+string(rune('1'+i))+".jsonl", rev, uint64(i+1), 9+i)
		report := filepath.Join(dir, "drops"+string(rune('1'+i))+".json")
		code, out := scoreWindow(t, bin, db, "--traces", path, "--drops-report", report, "--drops-report", strings.TrimSuffix(report, ".json")+".md")
		want := 0
		if rev == "regressed" {
			want = 1
		}
		if code != want {
			t.Fatalf("window %d (%s): exit %d, want %d\n%s", i+1, rev, code, want, out)
		}
		if !strings.Contains(out, "300 cases read") || !strings.Contains(out, "saved to") {
			t.Errorf("window %d: the window line or the save is missing:\n%s", i+1, out)
		}
		var d struct {
			Previous []string `json:"previous"`
			Alerts   []string `json:"alerts"`
		}
		raw, err := os.ReadFile(report)
		if err != nil || json.Unmarshal(raw, &d) != nil {
			t.Fatalf("drops report %s: %v\n%s", report, err, raw)
		}
		if len(d.Previous) != i {
			t.Errorf("window %d compared with %d previous windows, want %d", i+1, len(d.Previous), i)
		}
		if rev == "regressed" {
			regressed = out
			if !strings.Contains(out, "looked_up_order") || !strings.Contains(out, "FELL") || !strings.Contains(strings.Join(d.Alerts, ","), "looked_up_order pass_rate") {
				t.Errorf("the regressed window should name looked_up_order: alerts %v\n%s", d.Alerts, out)
			}
		} else if len(d.Alerts) != 0 {
			t.Errorf("window %d (reference) alerted: %v\n%s", i+1, d.Alerts, out)
		}
	}

	regressionQuestion(t, bin, db, dir, regressed)

	// Every tenth question names an e-mail address: the PII pass, on by
	// default for production input, leaves only its marker in the database.
	stored, err := os.ReadFile(db)
	if err != nil {
		t.Fatal(err)
	}
	if strings.Contains(string(stored), "@example.com") || !strings.Contains(string(stored), "[EMAIL]") {
		t.Errorf("the stored windows should hold [EMAIL] markers and no address")
	}

	before, _ := os.Stat(db)
	filtered := filepath.Join(dir, "other-service.json")
	m, _ := os.ReadFile("monitor.json")
	if err := os.WriteFile(filtered, []byte(strings.Replace(string(m), `"service": "shop"`, `"service": "billing"`, 1)), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct{ name, monitor, traces, want string }{
		{"no case left", filtered, filepath.Join(dir, "window1.jsonl"), "no case to score"},
		{"truncated", "monitor.json", truncated(t, filepath.Join(dir, "window1.jsonl")), "window1.jsonl.cut"},
	} {
		cmd := exec.Command(bin, "score-traces", tc.monitor, "--traces", tc.traces)
		cmd.Env = append(os.Environ(), "DATABASE_URL=sqlite:"+db)
		out, err := cmd.CombinedOutput()
		var ee *exec.ExitError
		if !errors.As(err, &ee) || ee.ExitCode() != 2 || !strings.Contains(string(out), tc.want) || !strings.Contains(string(out), "nothing was saved") {
			t.Errorf("%s: want exit 2 naming %q, got %v:\n%s", tc.name, tc.want, err, out)
		}
	}
	if after, _ := os.Stat(db); after.Size() != before.Size() || !after.ModTime().Equal(before.ModTime()) {
		t.Error("a refused window changed the database")
	}
}

// truncated writes the file cut in the middle of a line.
func truncated(t *testing.T, path string) string {
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	cut := path + ".cut"
	if err := os.WriteFile(cut, data[:len(data)/2], 0o644); err != nil {
		t.Fatal(err)
	}
	return cut
}
