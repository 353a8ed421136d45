package evaltest

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/score"
)

// fixedJudge gives every verdict the score it holds.
type fixedJudge struct{ score atomic.Value }

func (j *fixedJudge) Assess(context.Context, string, string) (score.Assessment, error) {
	return score.Assessment{Score: j.score.Load().(float64), Reason: "Scripted."}, nil
}

// TestRun_WithGateLabels: a judge metric that drops from 0.95 to 0.5 on
// every question is a gating regression under the ci gate; with labels
// that give the judge a kappa of 0 (it passed every labelled case, the
// person half of them), WithGateLabels(labels, 0.6) keeps it from gating,
// as evalrun run --gate-labels --min-kappa does: the test passes under
// FailOn("regressions"), the finding saying why it did not gate.
func TestRun_WithGateLabels(t *testing.T) {
	dir := t.TempDir()
	var qs []string
	for i := range 10 {
		qs = append(qs, fmt.Sprintf(`{"id": "q%d", "question": "Return %d?", "expected_answer": "30 days.", "minimum_scores": {"semantic_accuracy": 0.4}}`, i, i))
	}
	path := filepath.Join(dir, "suite.json")
	if err := os.WriteFile(path, []byte(`{"suite": "Kappa", "agent": {"name": "A"}, "questions": [`+strings.Join(qs, ",")+`]}`), 0o644); err != nil {
		t.Fatal(err)
	}
	a := agent.Func(func(context.Context, agent.Question) (agent.Response, error) {
		return agent.Response{Output: []byte(`"Within 30 days."`)}, nil
	})
	url := testdb.SQLiteURL(t)
	j := &fixedJudge{}
	j.score.Store(0.95)
	base := Run(t, path, a, SaveTo(url), WithJudge(j))
	if base.Run == nil || !base.Saved {
		t.Fatalf("baseline not saved: %+v", base)
	}
	lines := []string{`{"format": "agentevals-labels", "version": 1}`}
	for i := range 10 {
		l := map[bool]string{true: "pass", false: "fail"}[i%2 == 0]
		lines = append(lines, fmt.Sprintf(`{"case_id": "q%d", "metric": "semantic_accuracy", "label": %q, "rater": "ana", "at": "2026-12-02T04:00:00Z", "run_id": %q}`, i, l, base.Run.ID))
	}
	labels := filepath.Join(dir, "labels.jsonl")
	if err := os.WriteFile(labels, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	j.score.Store(0.5)
	res := Run(t, path, a, SaveTo(url), WithJudge(j), FailOn("regressions"), Baseline(base.Run.ID.String()), WithGateLabels(labels, 0.6))
	if res.Decision.Code != 0 {
		t.Errorf("decision %d (%s), want 0: the uncalibrated metric must not gate", res.Decision.Code, res.Decision.Line)
	}
	found := 0
	for _, f := range res.Comparison.Findings {
		if f.Metric != "semantic_accuracy" {
			continue
		}
		found++
		if f.Gating || !strings.HasPrefix(f.Why, "not gating: Cohen's kappa 0.000 [-0.527, 0.527] over 10 labels") {
			t.Errorf("finding %s/%s: gating %v, why %q, want not gating with the kappa", f.CaseID, f.Metric, f.Gating, f.Why)
		}
	}
	if found == 0 {
		t.Errorf("no semantic_accuracy finding: the drop from 0.95 to 0.5 was not compared (%d findings)", len(res.Comparison.Findings))
	}
}
