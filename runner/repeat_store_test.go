package runner_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"sync/atomic"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// stepJudge scores 0.6, 0.8, 1.0, 0.6, … in call order.
type stepJudge struct{ n atomic.Int64 }

func (j *stepJudge) Assess(context.Context, string, string) (score.Assessment, error) {
	s := []float64{0.6, 0.8, 1.0}[(j.n.Add(1)-1)%3]
	return score.Assessment{Score: s, Reason: fmt.Sprintf("scripted %.1f", s)}, nil
}

// TestRepeats_SaveAndReadBack saves a run answered three times per
// question in PostgreSQL and SQLite and reads it back: one case row per
// question in suite order, the means in the metric rows, and the same
// repeat statistics from the stored rows as from the run in memory.
func TestRepeats_SaveAndReadBack(t *testing.T) {
	dir := t.TempDir()
	path := filepath.Join(dir, "suite.json")
	st := `{"suite": "Stored repeats", "agent": {"name": "A", "command": ["true"]}, "judge": {"provider": "openai", "model": "j"},
  "questions": [
    {"id": "a", "question": "A?", "expected_answer": "x", "minimum_scores": {"semantic_accuracy": 0.8, "contains": 1}},
    {"id": "b", "question": "B?", "expected_answer": "x", "minimum_scores": {"semantic_accuracy": 0.8}}
  ],
  "evaluators": {"contains": {"type": "contains", "params": {"value": "x"}}, "semantic_accuracy": {"type": "semantic_accuracy", "threshold": 0.8}}}`
	if err := os.WriteFile(path, []byte(st), 0o644); err != nil {
		t.Fatal(err)
	}
	s, err := suite.Load(path)
	if err != nil {
		t.Fatal(err)
	}
	a := agent.Func(func(context.Context, agent.Question) (agent.Response, error) {
		return agent.Response{Output: json.RawMessage(`"x"`), Actions: []score.Action{}}, nil
	})
	for _, backend := range []string{"sqlite", "postgres"} {
		t.Run(backend, func(t *testing.T) {
			db := testdb.SQLite(t)
			if backend == "postgres" {
				db = testdb.Postgres(t)
			}
			run, err := runner.Execute(context.Background(), s, a, runner.ExecOptions{Judge: &stepJudge{}, Repeat: 3, Concurrency: 1})
			if err != nil {
				t.Fatal(err)
			}
			if err := db.InsertRun(context.Background(), run); err != nil {
				t.Fatal(err)
			}
			back, err := db.GetRun(context.Background(), run.ID)
			if err != nil {
				t.Fatal(err)
			}
			if len(back.Cases) != 2 || back.Cases[0].CaseID != "a" || back.Cases[1].CaseID != "b" {
				t.Fatalf("cases read back: %d", len(back.Cases))
			}
			for _, c := range back.Cases {
				m := c.Metrics[0]
				if m.Name != "semantic_accuracy" || m.Score == nil || *m.Score < 0.8-1e-9 || *m.Score > 0.8+1e-9 || !m.Passed {
					t.Errorf("%s: %s score %v passed %v, want the mean 0.8, passed", c.CaseID, m.Name, m.Score, m.Passed)
				}
				if c.Status != models.StatusPassed {
					t.Errorf("%s: status %s", c.CaseID, c.Status)
				}
			}
			want, got := compare.Repeats(run), compare.Repeats(back)
			if got == nil || got.K != 3 || !reflect.DeepEqual(want, got) {
				t.Errorf("repeat statistics read back = %+v, want %+v", got, want)
			}
			if sd := got.Metrics[1].WithinSD; got.Metrics[1].Name != "semantic_accuracy" || sd == nil || *sd < 0.2-1e-9 || *sd > 0.2+1e-9 {
				t.Errorf("semantic_accuracy within sd = %v, want 0.2 (scores 0.6, 0.8, 1.0)", sd)
			}
		})
	}
}
