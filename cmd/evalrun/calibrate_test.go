package main

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// TestCalibrateCmd stores a run in SQLite, labels it and checks the
// printed agreement, kappa and the --min-kappa exit codes. The hand-computed
// values: 10 pairs, 5 pass/pass, 1 pass/fail, 1 fail/pass, 3 fail/fail:
// raw agreement 0.8, pe = 0.6*0.6 + 0.4*0.4 = 0.52, kappa = 0.28/0.48 = 0.583.
func TestCalibrateCmd(t *testing.T) {
	judgeScores := []float64{1, 0.9, 0.95, 0.92, 0.91, 0.4, 0.93, 0.1, 0.3, 0}
	humanPass := []bool{true, true, true, true, true, true, false, false, false, false}
	dbURL, run, labelsPath := storeLabelledRun(t, judgeScores, func(i int, id string) string {
		return fmt.Sprintf(`{"case_id":%q,"metric":"semantic_accuracy","pass":%v}`, id, humanPass[i])
	})
	dir := filepath.Dir(labelsPath)
	base := []string{"--database-url", dbURL, "calibrate", run.ID.String(), "--labels", labelsPath}
	cases := []struct {
		name  string
		extra []string
		code  int
		want  string
	}{
		{"report", nil, exitOK, "semantic_accuracy  10      8      0.800          0.583 [-0.09, 1.00]"},
		{"below the bar", []string{"--min-kappa", "0.6"}, exitFailed, "c7: human fail, judge pass (score 0.93)"},
		// kappa 0.583 is above 0.5, but over 10 labels its interval reaches
		// below 0: --min-kappa reads the lower bound.
		{"kappa above, interval below the bar", []string{"--min-kappa", "0.5"}, exitFailed, "c6: human pass, judge fail (score 0.4)"},
		{"interval above the bar", []string{"--min-kappa=-0.2"}, exitOK, "c6: human pass, judge fail (score 0.4)"},
		{"bad bar", []string{"--min-kappa", "2"}, exitInvalid, ""},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			code, out, stderr := evalrun(t, append(base, tc.extra...)...)
			if code != tc.code || !strings.Contains(out, tc.want) {
				t.Errorf("exit %d (want %d)\n%s%s", code, tc.code, out, stderr)
			}
			if code == exitFailed && !strings.Contains(stderr, "lower bound of kappa's 95% interval") {
				t.Errorf("--min-kappa refusal does not say it reads the interval's lower bound:\n%s", stderr)
			}
		})
	}
	bad := filepath.Join(dir, "bad.jsonl")
	os.WriteFile(bad, []byte(`{"case_id":"c1","metric":"semantic_accuracy","label":"maybe"}`), 0o600)
	for name, args := range map[string][]string{
		"bad labels":  {"--database-url", dbURL, "calibrate", run.ID.String(), "--labels", bad},
		"bad run id":  {"--database-url", dbURL, "calibrate", "not-a-uuid", "--labels", labelsPath},
		"unknown run": {"--database-url", dbURL, "calibrate", "0192f0c4-0000-7000-8000-000000000000", "--labels", labelsPath},
	} {
		if code, out, stderr := evalrun(t, args...); code != exitInvalid {
			t.Errorf("%s: exit %d, want 2\n%s%s", name, code, out, stderr)
		}
	}
}

// TestCalibrateCmd_UndefinedKappa: judge and human pass every case, so raw
// agreement is 1 but Cohen's kappa is 0/0. It is printed as undefined and
// --min-kappa refuses it (exit 1) whatever the bar.
func TestCalibrateCmd_UndefinedKappa(t *testing.T) {
	dbURL, run, labelsPath := storeLabelledRun(t, []float64{0.95, 0.95, 0.95}, func(_ int, id string) string {
		return fmt.Sprintf(`{"case_id":%q,"metric":"semantic_accuracy","label":"pass"}`, id)
	})
	base := []string{"--database-url", dbURL, "calibrate", run.ID.String(), "--labels", labelsPath}
	code, out, stderr := evalrun(t, base...)
	if code != exitOK || !strings.Contains(out, "1.000          undefined (only one label on both sides)") {
		t.Errorf("report: exit %d, want 0 and an undefined kappa\n%s%s", code, out, stderr)
	}
	code, out, stderr = evalrun(t, append(base, "--min-kappa=-1")...)
	if code != exitFailed || !strings.Contains(stderr, "semantic_accuracy: undefined (only one label on both sides)") {
		t.Errorf("--min-kappa -1: exit %d, want %d naming the undefined kappa\n%s%s", code, exitFailed, out, stderr)
	}
}

// storeLabelledRun saves, in a new SQLite database, a run whose case i
// (id "c<i+1>") has a semantic_accuracy score of scores[i] against a
// threshold of 0.9, and writes label(i, id) as line i of a labels file in
// the same directory. It returns the database URL, the run and the labels
// file.
func storeLabelledRun(t *testing.T, scores []float64, label func(i int, id string) string) (dbURL string, run *models.Run, labelsPath string) {
	t.Helper()
	dir := t.TempDir()
	dbURL = "sqlite:" + filepath.Join(dir, "evals.sqlite3")
	ctx := context.Background()
	db, err := (&Globals{DatabaseURL: dbURL}).open(ctx, false)
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	run = &models.Run{Suite: "Support", Agent: "SupportAgent", Version: "1", SuiteDigest: "d",
		StartedAt: time.Now(), FinishedAt: time.Now()}
	var labels strings.Builder
	for i, s := range scores {
		score, reason := s, "judged"
		id := fmt.Sprintf("c%d", i+1)
		run.Cases = append(run.Cases, &models.CaseResult{Position: i, CaseID: id, Name: id, Status: models.StatusPassed,
			Metrics: []*models.MetricResult{{Name: "semantic_accuracy", Threshold: 0.9, Score: &score,
				Passed: s >= 0.9, Reason: &reason}}})
		labels.WriteString(label(i, id) + "\n")
	}
	if err := db.InsertRun(ctx, run); err != nil {
		t.Fatal(err)
	}
	labelsPath = filepath.Join(dir, "human.jsonl")
	if err := os.WriteFile(labelsPath, []byte(labels.String()), 0o600); err != nil {
		t.Fatal(err)
	}
	return dbURL, run, labelsPath
}
