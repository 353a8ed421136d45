package main

import (
	"context"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

// TestExperimentCmd_Pairwise runs the support example's two revisions
// with --pairwise and a scripted judge that prefers the answer equal to
// the expected one, in either slot: the regressed revision loses the
// returns question and ties the two it answers alike. The verdicts are
// stored in the later variant's summary only, and the grid rebuilt from
// the history shows them.
func TestExperimentCmd_Pairwise(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	srv := pairJudge(t, func(first, second, expected string) string {
		switch {
		case first == second:
			return "0.5"
		case first == expected:
			return "1"
		case second == expected:
			return "0"
		}
		return "0.5"
	})
	url := migratedURL(t, "sqlite")
	judge := []string{"--judge-provider", "openai", "--judge-model", "judge", "--judge-base-url", srv.URL + "/v1"}
	code, out, stderr := evalrun(t, append([]string{"--database-url", url, "experiment", supportExperiment, "--pairwise"}, judge...)...)
	if code != exitOK {
		t.Fatalf("experiment: exit %d\n%s%s", code, out, stderr)
	}
	want := "regressed vs reference: B wins 0, loses 1, ties 2; sign test p = 1; position consistency 100%, first slot chosen in 50% of 2 decisive readings: no significant preference"
	if !strings.Contains(out, want) {
		t.Errorf("grid lacks %q:\n%s", want, out)
	}
	db, err := models.Open(context.Background(), url, models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	runs, _, err := db.ListRuns(context.Background(), models.RunFilter{Suite: "Customer support"})
	if err != nil || len(runs) != 2 {
		t.Fatalf("runs = %d, %v", len(runs), err)
	}
	for _, r := range runs {
		rec, err := models.PairwiseOf(r.Summary)
		switch v := report.ExperimentOf(r).Variant; {
		case err != nil:
			t.Errorf("%s: %v", v, err)
		case v == "reference" && rec != nil:
			t.Errorf("the reference variant carries pairwise verdicts: %s", r.Summary)
		case v == "regressed" && (rec == nil || len(rec.Verdicts) != 3 || rec.VariantA != "reference"):
			t.Errorf("regressed run's pairwise record = %+v", rec)
		case v == "regressed":
			// Both orders of the 3 pairs are judge calls of the run.
			if sum, err := models.DecodeRunSummary(r.Summary); err != nil || sum.JudgeUsage == nil || sum.JudgeUsage.Calls != 6 {
				t.Errorf("regressed run's judge_usage does not count the 6 pairwise calls: %s", r.Summary)
			}
			for _, pv := range rec.Verdicts {
				if wantW := map[string]string{"returns": "A"}[pv.CaseID]; pv.Winner != wantW && !(wantW == "" && pv.Winner == "tie") {
					t.Errorf("%s: winner %q", pv.CaseID, pv.Winner)
				}
			}
		}
	}
	id := report.ExperimentOf(runs[0]).ID
	code, out, stderr = evalrun(t, "--database-url", url, "grid", id)
	if code != exitOK || !strings.Contains(out, want) {
		t.Errorf("grid from the history: exit %d, lacks %q\n%s%s", code, want, out, stderr)
	}
	// Without a judge --pairwise is refused before anything runs.
	if code, _, stderr := evalrun(t, "--database-url", url, "experiment", supportExperiment, "--pairwise", "--no-judge"); code != exitInvalid || !strings.Contains(stderr, "--pairwise needs a judge") {
		t.Errorf("--pairwise --no-judge: exit %d: %s", code, stderr)
	}
}
