package runner

import (
	"context"
	"encoding/json"
	"fmt"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// countingRegistry is the built-in registry plus two types whose
// constructor counts its calls: "counted", a check that always passes, and
// "judged", a judge-backed metric scoring what its judge says.
func countingRegistry(builds *atomic.Int64) score.Registry {
	reg := score.Builtins()
	reg["counted"] = score.Definition{New: func(json.RawMessage, score.Judge) (score.Scorer, error) {
		builds.Add(1)
		return scoreFunc(func(context.Context, score.Sample) (score.Assessment, error) {
			return score.Assessment{Score: 1, Reason: "counted"}, nil
		}), nil
	}}
	reg["judged"] = score.Definition{NeedsJudge: true, New: func(_ json.RawMessage, j score.Judge) (score.Scorer, error) {
		builds.Add(1)
		return scoreFunc(func(ctx context.Context, _ score.Sample) (score.Assessment, error) {
			return j.Assess(ctx, "system", "user")
		}), nil
	}}
	return reg
}

// fixedJudge gives every sample the same score and counts its verdicts.
type fixedJudge struct {
	score float64
	calls *atomic.Int64
}

func (j fixedJudge) Assess(context.Context, string, string) (score.Assessment, error) {
	j.calls.Add(1)
	return score.Assessment{Score: j.score, Reason: "fixed"}, nil
}

// TestScorers_BuiltOncePerSuite: every scorer of a suite (a suite
// evaluator, a type used by name, an inline check, a judged metric) is
// built once, when the suite is loaded; validating and running it, even
// twice, with and without a judge, builds none again, and the judge each
// run is given is the one its judged metric asks.
func TestScorers_BuiltOncePerSuite(t *testing.T) {
	var builds atomic.Int64
	dir := t.TempDir()
	path := testfile.Write(t, dir, "suite.json", `{"suite": "S", "agent": {"name": "A", "command": ["true"]},
  "judge": {"provider": "openai", "model": "judge"},
  "evaluators": {"suite_level": {"type": "counted"}, "verdict": {"type": "judged"}},
  "questions": [
    {"id": "q1", "question": "One?", "minimum_scores": {"suite_level": 1, "counted": 1, "verdict": 0.5}, "checks": [{"type": "counted", "name": "inline"}]},
    {"id": "q2", "question": "Two?", "minimum_scores": {"suite_level": 1, "counted": 1, "verdict": 0.5}}]}`)
	s, err := suite.LoadWithRegistry(path, countingRegistry(&builds))
	if err != nil {
		t.Fatal(err)
	}
	// suite_level, verdict, the type counted used by name, q1's inline check.
	const definitions = 4
	if got := builds.Load(); got != definitions {
		t.Fatalf("Load built %d scorers, want %d (one per definition)", got, definitions)
	}
	if err := s.Validate(); err != nil {
		t.Fatal(err)
	}
	a := answers(map[string]string{"q1": "a", "q2": "b"})
	for _, tt := range []struct {
		name  string
		judge score.Judge
		want  *float64
	}{
		{"judge 0.25", fixedJudge{0.25, new(atomic.Int64)}, ptr(0.25)},
		{"judge 0.75", fixedJudge{0.75, new(atomic.Int64)}, ptr(0.75)},
		{"no judge", nil, nil},
	} {
		t.Run(tt.name, func(t *testing.T) {
			run := mustExecute(t, s, a, ExecOptions{Judge: tt.judge})
			for _, c := range run.Cases {
				for _, m := range c.Metrics {
					switch {
					case m.Name != "verdict":
						if m.Score == nil || *m.Score != 1 {
							t.Errorf("%s %s: score %v, want 1", c.CaseID, m.Name, m.Score)
						}
					case tt.want == nil && m.Score != nil:
						t.Errorf("%s verdict without a judge: score %v, want null", c.CaseID, *m.Score)
					case tt.want != nil && (m.Score == nil || *m.Score != *tt.want):
						t.Errorf("%s verdict: score %v, want %v (this run's judge)", c.CaseID, m.Score, *tt.want)
					}
				}
			}
			if j, ok := tt.judge.(fixedJudge); ok && j.calls.Load() != 2 {
				t.Errorf("judge asked %d times, want 2", j.calls.Load())
			}
		})
	}
	if got := builds.Load(); got != definitions {
		t.Errorf("after validate and three runs: %d scorers built, want the %d Load built", got, definitions)
	}
}

func ptr(f float64) *float64 { return &f }

// scoreFunc adapts a function to score.Scorer.
type scoreFunc func(context.Context, score.Sample) (score.Assessment, error)

func (f scoreFunc) Score(ctx context.Context, s score.Sample) (score.Assessment, error) {
	return f(ctx, s)
}

// BenchmarkScorers is what a run pays for its scorers before the first
// question, on 1,000 questions with two inline checks each: "gather" takes
// the ones Load built; "rebuild" constructs each again from the registry,
// as every run did before, and is the baseline.
func BenchmarkScorers(b *testing.B) {
	var qs []string
	for i := range 1000 {
		qs = append(qs, fmt.Sprintf(`{"id": "q%d", "question": "Q%d?", "checks": [{"type": "matches", "pattern": "\\b%d\\b"}, {"type": "contains", "name": "word", "value": "w%d"}]}`, i, i, i, i))
	}
	s := mustLoad(b, `{"suite": "S", "agent": {"name": "A", "command": ["true"]}, "questions": [`+strings.Join(qs, ",")+`]}`)
	calculated := s.Calculated(false)
	b.Run("gather", func(b *testing.B) {
		for b.Loop() {
			if _, err := Scorers(s, calculated, false); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("rebuild", func(b *testing.B) {
		for b.Loop() {
			for _, c := range s.Cases {
				for _, ev := range c.Checks {
					if _, err := s.Registry.Build(ev.Type, ev.Params, nil); err != nil {
						b.Fatal(err)
					}
				}
			}
		}
	})
}
