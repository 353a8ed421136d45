package evaltest_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"
	"time"

	"agentevals/evaltest"
	"agentevals/judges"
	"agentevals/runner"
)

// benchSuite is the offline support suite: three questions, each scored
// with exact_match and action_group.
var benchSuite = filepath.Join("..", "examples", "support", "suite.json")

// benchAgent answers the support suite right, with the expected lookup.
func benchAgent() runner.Func {
	answers := map[string]string{
		"returns":  "You can return it within 30 days.",
		"shipping": "Standard shipping takes 3 to 5 business days.",
		"warranty": "Electronics carry a 2-year warranty.",
	}
	return func(_ context.Context, q runner.Question) (runner.Response, error) {
		out, _ := json.Marshal(answers[q.ID])
		args, _ := json.Marshal(map[string]string{"topic": q.ID})
		return runner.Response{Output: out, Actions: []judges.Action{{Group: "policies", Name: "lookup_policy", Arguments: args}}}, nil
	}
}

// BenchmarkRunOverhead measures, interleaved in one loop so that the load
// of a shared machine weighs on all three alike, the time per question of:
//
//   - direct: the agent and the suite's scorers called directly (scorers
//     built once), the baseline;
//   - execute: runner.Execute over the suite, as evalrun runs it (without
//     saving);
//   - run: evaltest.Run over the suite inside a real go test harness
//     (testing.RunTests: a parent test and a parallel subtest per
//     question).
//
// It reports each as ns/question and the ratios run/direct and
// run/execute.
func BenchmarkRunOverhead(b *testing.B) {
	s, err := runner.Load(benchSuite)
	if err != nil {
		b.Fatal(err)
	}
	agent := benchAgent()
	direct := directScorer(b, s, agent)
	match := func(string, string) (bool, error) { return true, nil }
	tests := []testing.InternalTest{{Name: "BenchmarkRunSuite", F: func(t *testing.T) {
		evaltest.Run(t, benchSuite, agent)
	}}}
	var tDirect, tExecute, tRun time.Duration
	questions := 0
	for b.Loop() {
		start := time.Now()
		for _, c := range s.Cases {
			direct(c)
		}
		tDirect += time.Since(start)

		start = time.Now()
		if _, err := runner.Execute(context.Background(), s, agent, runner.ExecOptions{}); err != nil {
			b.Fatal(err)
		}
		tExecute += time.Since(start)

		start = time.Now()
		if !testing.RunTests(match, tests) {
			b.Fatal("evaltest.Run failed")
		}
		tRun += time.Since(start)
		questions += len(s.Cases)
	}
	per := func(d time.Duration) float64 { return float64(d.Nanoseconds()) / float64(questions) }
	b.ReportMetric(per(tDirect), "direct-ns/question")
	b.ReportMetric(per(tExecute), "execute-ns/question")
	b.ReportMetric(per(tRun), "run-ns/question")
	b.ReportMetric(per(tRun)/per(tDirect), "run/direct")
	b.ReportMetric(per(tRun)/per(tExecute), "run/execute")
}

// directScorer returns a function asking agent one question and scoring
// the answer with the suite's scorers, built once here.
func directScorer(b *testing.B, s *runner.Suite, agent runner.Func) func(*runner.Case) {
	reg := judges.Builtins()
	scorers := map[string]judges.Scorer{}
	for _, ev := range s.Evaluators {
		sc, err := reg.Build(ev.Type, ev.Params, nil)
		if err != nil {
			b.Fatal(err)
		}
		scorers[ev.Name] = sc
	}
	ctx := context.Background()
	return func(c *runner.Case) {
		resp, err := agent(ctx, runner.Question{ID: c.ID, Name: c.Name, Question: c.Question})
		if err != nil {
			b.Fatal(err)
		}
		sample := judges.Sample{CaseID: c.ID, Question: c.Question, ExpectedAnswer: c.ExpectedAnswer,
			ExpectedActions: c.ExpectedActionList, Output: resp.Output, Actions: resp.Actions}
		for _, m := range c.Metrics {
			a, err := scorers[m.Name].Score(ctx, sample)
			if err != nil || a.Score < m.Threshold {
				b.Fatalf("%s %s: %v %v", c.ID, m.Name, a, err)
			}
		}
	}
}
