package evaltest_test

import (
	"context"
	"encoding/json"
	"path/filepath"
	"testing"

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

// BenchmarkScorersDirect is the baseline: the agent and the suite's
// scorers called directly, one question after another (ns/op is per
// question).
func BenchmarkScorersDirect(b *testing.B) {
	s, err := runner.Load(benchSuite)
	if err != nil {
		b.Fatal(err)
	}
	reg := judges.Builtins()
	scorers := map[string]judges.Scorer{}
	for _, ev := range s.Evaluators {
		sc, err := reg.Build(ev.Type, ev.Params, nil)
		if err != nil {
			b.Fatal(err)
		}
		scorers[ev.Name] = sc
	}
	agent := benchAgent()
	ctx := context.Background()
	i := 0
	for b.Loop() {
		c := s.Cases[i%len(s.Cases)]
		i++
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

// BenchmarkExecute is runner.Execute over the suite (what evalrun does,
// without saving); ns/op is per question.
func BenchmarkExecute(b *testing.B) {
	s, err := runner.Load(benchSuite)
	if err != nil {
		b.Fatal(err)
	}
	agent := benchAgent()
	n := 0
	for b.Loop() {
		run, err := runner.Execute(context.Background(), s, agent, runner.ExecOptions{})
		if err != nil {
			b.Fatal(err)
		}
		n += len(run.Cases)
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/question")
}

// BenchmarkRun is evaltest.Run over the suite inside a real go test
// harness (testing.RunTests: a parent test and a parallel subtest per
// question), reported per question.
func BenchmarkRun(b *testing.B) {
	agent := benchAgent()
	match := func(string, string) (bool, error) { return true, nil }
	tests := []testing.InternalTest{{Name: "BenchmarkRunSuite", F: func(t *testing.T) {
		evaltest.Run(t, benchSuite, agent)
	}}}
	n := 0
	for b.Loop() {
		if !testing.RunTests(match, tests) {
			b.Fatal("evaltest.Run failed")
		}
		n += 3
	}
	b.ReportMetric(float64(b.Elapsed().Nanoseconds())/float64(n), "ns/question")
}
