package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestBinary_ExperimentInterruptKeepsFinishedCases: experiment keeps its
// work on a signal as run does. SIGINT while the second of four questions
// of the first variant runs lets it finish, starts no other question and
// no other variant, exits 1 and writes the two finished cases to an
// evidence file marked interrupted, which db:import accepts; a second
// signal stops at once, keeping only the first question. (The old
// experiment cancelled at the first signal and kept nothing.)
func TestBinary_ExperimentInterruptKeepsFinishedCases(t *testing.T) {
	bin := buildBinary(t)
	for _, tc := range []struct {
		signals, kept int
	}{{1, 2}, {2, 1}} {
		url := migratedURL(t, "sqlite")
		dir, _ := gracefulSuite(t, "1")
		writeTestFile(t, filepath.Join(dir, "experiment.json"), `{"suite": "suite.json", "variants": [{"name": "a"}, {"name": "b"}]}`)
		code, out := startAndSignal(t, bin, dir, tc.signals, "--database-url", url, "experiment", "experiment.json", "-j", "1")
		m := keptFileRe.FindStringSubmatch(out)
		if code != exitFailed || m == nil || strings.Contains(out, "variant 2/2") {
			t.Fatalf("%d signals: exit %d, want 1, the finished cases kept in a file and no second variant:\n%s", tc.signals, code, out)
		}
		if tc.signals == 1 && !strings.Contains(out, "no new questions") {
			t.Errorf("one signal: the output does not say that no new question starts:\n%s", out)
		}
		file := m[1]
		if !filepath.IsAbs(file) {
			file = filepath.Join(dir, file)
		}
		data, err := os.ReadFile(file)
		if err != nil {
			t.Fatal(err)
		}
		if got := strings.Count(string(data), `"case_id"`); got != tc.kept || !strings.Contains(string(data), `"interrupted": {`) {
			t.Errorf("%d signals: the evidence file holds %d cases, want %d, and an interrupted summary:\n%.1500s", tc.signals, got, tc.kept, data)
		}
		if code, out, errOut := evalrun(t, "--database-url", url, "db:import", file); code != exitOK || countRuns(t, url) != 1 {
			t.Errorf("db:import of the interrupted variant: exit %d, %d runs\n%s%s", code, countRuns(t, url), out, errOut)
		}
	}
}
