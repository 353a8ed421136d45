package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// TestCalibrateCmd_LabelsOfAnotherRun: labels whose run_id names another
// run are refused (exit 2, naming the line and both runs) instead of being
// compared with this run's verdicts; labels of this run, or naming none,
// are used.
func TestCalibrateCmd_LabelsOfAnotherRun(t *testing.T) {
	scores := []float64{1, 0.95, 0.1, 0.2, 0.93, 0.05}
	dbURL, run, labelsPath := storeLabelledRun(t, scores, func(i int, id string) string {
		return fmt.Sprintf(`{"case_id":%q,"metric":"semantic_accuracy","pass":%v,"run_id":"0192f0c4-0000-7000-8000-00000000beef"}`, id, i%2 == 0)
	})
	code, out, stderr := evalrun(t, "--database-url", dbURL, "calibrate", run.ID.String(), "--labels", labelsPath)
	if code != exitInvalid || !strings.Contains(stderr, "line 1: labelled on run 0192f0c4-0000-7000-8000-00000000beef, not on run "+run.ID.String()) {
		t.Errorf("labels of another run: exit %d, want 2 naming the line and both runs\n%s%s", code, out, stderr)
	}
	own := filepath.Join(filepath.Dir(labelsPath), "own.jsonl")
	var lines []string
	for i := range scores {
		runID := ""
		if i%2 == 0 {
			runID = fmt.Sprintf(`,"run_id":%q`, strings.ToUpper(run.ID.String()))
		}
		lines = append(lines, fmt.Sprintf(`{"case_id":"c%d","metric":"semantic_accuracy","pass":%v%s}`, i+1, scores[i] >= 0.9, runID))
	}
	if err := os.WriteFile(own, []byte(strings.Join(lines, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	code, out, stderr = evalrun(t, "--database-url", dbURL, "calibrate", run.ID.String(), "--labels", own)
	if code != exitOK || !strings.Contains(out, "semantic_accuracy  6       6      1.000") {
		t.Errorf("labels of this run: exit %d, want 0 and full agreement\n%s%s", code, out, stderr)
	}
}
