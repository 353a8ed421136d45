package calibrate

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/runner"
)

// TestGate_Check: a judge that passes every question against labels that
// pass half of them has a kappa of 0, so at a bar of 0.6 it does not gate
// and at -1 it does; a metric no label names never gates. The labelled run
// is read from a real SQLite database.
func TestGate_Check(t *testing.T) {
	ctx := context.Background()
	var qs []string
	for i := range 10 {
		qs = append(qs, fmt.Sprintf(`{"id": "q%d", "question": "Return %d?", "expected_answer": "30 days.", "minimum_scores": {"semantic_accuracy": 0.8, "answer_relevancy": 0.8}}`, i, i))
	}
	s := mustLoad(t, `{"suite": "Kappa", "agent": {"name": "A"}, "questions": [`+strings.Join(qs, ",")+`]}`)
	a := agent.Func(func(context.Context, agent.Question) (agent.Response, error) {
		return agent.Response{Output: []byte(`"Within 30 days."`)}, nil
	})
	run := mustExecute(t, s, a, runner.ExecOptions{Judge: &scriptedJudge{score: 0.95}})
	db := testdb.SQLite(t)
	if err := db.SaveRun(ctx, run, models.SaveOptions{}); err != nil {
		t.Fatal(err)
	}
	lines := []string{`{"format": "agentevals-labels", "version": 1}`}
	for i := range 10 {
		l := map[bool]string{true: "pass", false: "fail"}[i%2 == 0]
		lines = append(lines, fmt.Sprintf(`{"case_id": "q%d", "metric": "semantic_accuracy", "label": %q, "rater": "ana", "at": "2026-12-02T04:00:00Z", "run_id": %q}`, i, l, run.ID))
	}
	labels := filepath.Join(t.TempDir(), "labels.jsonl")
	if err := os.WriteFile(labels, []byte(strings.Join(lines, "\n")+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	names := SuiteJudgeMetrics(s)
	if got := strings.Join(names, ","); got != "answer_relevancy,semantic_accuracy" {
		t.Fatalf("SuiteJudgeMetrics = %s", got)
	}
	tests := []struct {
		bar       float64
		gates     map[string]bool
		whySubstr map[string]string
	}{
		{bar: 0.6, gates: map[string]bool{"answer_relevancy": false, "semantic_accuracy": false},
			whySubstr: map[string]string{"answer_relevancy": "no human label", "semantic_accuracy": "Cohen's kappa 0.000 [-0.527, 0.527] over 10 labels: the interval's lower bound -0.527 < 0.6"}},
		{bar: -1, gates: map[string]bool{"answer_relevancy": false, "semantic_accuracy": true},
			whySubstr: map[string]string{"semantic_accuracy": "lower bound -0.527 >= -1"}},
	}
	for _, tt := range tests {
		t.Run(fmt.Sprint(tt.bar), func(t *testing.T) {
			g := Gate{Labels: labels, Source: "--gate-labels", MinKappa: tt.bar}
			vs, err := g.Check(ctx, db, names)
			if err != nil {
				t.Fatal(err)
			}
			for _, v := range vs {
				if v.Gates != tt.gates[v.Metric] || !strings.Contains(v.Why, tt.whySubstr[v.Metric]) {
					t.Errorf("%s: gates %v (%s), want %v and %q", v.Metric, v.Gates, v.Why, tt.gates[v.Metric], tt.whySubstr[v.Metric])
				}
			}
			un := g.Uncalibrated(vs)
			for name, gates := range tt.gates {
				if why, ok := un[name]; ok == gates || (ok && !strings.HasPrefix(why, "not gating: ") || ok && !strings.HasSuffix(why, " in "+labels)) {
					t.Errorf("Uncalibrated[%s] = %q (%v), want it only for a metric that does not gate, naming the labels", name, why, ok)
				}
			}
		})
	}
}

// TestGate_Errors: bad bars and bad files are errors naming what was given.
func TestGate_Errors(t *testing.T) {
	for _, bar := range []float64{-1.5, 2} {
		if err := (Gate{MinKappa: bar}).Validate(); err == nil || !strings.Contains(err.Error(), "from -1 to 1") {
			t.Errorf("Validate(%v) = %v, want the range", bar, err)
		}
	}
	dir := t.TempDir()
	noRun := filepath.Join(dir, "norun.jsonl")
	if err := os.WriteFile(noRun, []byte(`{"format": "agentevals-labels", "version": 1}`+"\n"+
		`{"case_id": "q0", "metric": "m", "label": "pass", "rater": "ana", "at": "2026-12-02T04:00:00Z"}`+"\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct{ path, want string }{
		{filepath.Join(dir, "missing.jsonl"), "evaltest.WithGateLabels: "},
		{noRun, "line 2 names no run_id"},
	} {
		_, err := Gate{Labels: tt.path, Source: "evaltest.WithGateLabels"}.Check(context.Background(), nil, nil)
		if err == nil || !strings.Contains(err.Error(), tt.want) {
			t.Errorf("%s: err = %v, want %q", tt.path, err, tt.want)
		}
	}
}
