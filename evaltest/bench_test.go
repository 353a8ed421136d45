package evaltest_test

import (
	"context"
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/evaltest"
	"github.com/agentevals-go/agentevals/runner"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// benchSuite is the offline support suite: three questions, each scored
// with exact_match and action_group.
var benchSuite = filepath.Join("..", "examples", "support", "suite.json")

// benchSuiteOf writes a copy of the support suite with each question
// repeated n times (ids "returns-1", …) and returns its path.
func benchSuiteOf(b *testing.B, n int) string {
	data, err := os.ReadFile(benchSuite)
	if err != nil {
		b.Fatal(err)
	}
	var doc map[string]any
	if err := json.Unmarshal(data, &doc); err != nil {
		b.Fatal(err)
	}
	delete(doc, "$schema")
	var qs []any
	for i := 1; i <= n; i++ {
		for _, q := range doc["questions"].([]any) {
			cp := map[string]any{}
			for k, v := range q.(map[string]any) {
				cp[k] = v
			}
			cp["id"] = fmt.Sprintf("%s-%d", cp["id"], i)
			qs = append(qs, cp)
		}
	}
	doc["questions"] = qs
	out, err := json.Marshal(doc)
	if err != nil {
		b.Fatal(err)
	}
	path := filepath.Join(b.TempDir(), "suite.json")
	if err := os.WriteFile(path, out, 0o644); err != nil {
		b.Fatal(err)
	}
	return path
}

// benchAgent answers the support suite right, with the expected lookup;
// an id "returns-7" is the returns question.
func benchAgent() agent.Func {
	answers := map[string]string{
		"returns":  "You can return it within 30 days.",
		"shipping": "Standard shipping takes 3 to 5 business days.",
		"warranty": "Electronics carry a 2-year warranty.",
	}
	return func(_ context.Context, q agent.Question) (agent.Response, error) {
		topic, _, _ := strings.Cut(q.ID, "-")
		out, _ := json.Marshal(answers[topic])
		args, _ := json.Marshal(map[string]string{"topic": topic})
		return agent.Response{Output: out, Actions: []score.Action{{Group: "policies", Name: "lookup_policy", Arguments: args}}}, nil
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
// run/execute, for the 3 questions of the support suite and for a copy of
// it with 20 times as many (Run's fixed costs, such as loading the suite,
// spread over more questions).
func BenchmarkRunOverhead(b *testing.B) {
	for _, n := range []int{1, 20} {
		b.Run(fmt.Sprintf("questions=%d", 3*n), func(b *testing.B) { benchRunOverhead(b, benchSuiteOf(b, n)) })
	}
}

func benchRunOverhead(b *testing.B, path string) {
	s, err := suite.Load(path)
	if err != nil {
		b.Fatal(err)
	}
	a := benchAgent()
	direct := directScorer(b, s, a)
	match := func(string, string) (bool, error) { return true, nil }
	tests := []testing.InternalTest{{Name: "BenchmarkRunSuite", F: func(t *testing.T) {
		evaltest.Run(t, path, a)
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
		if _, err := runner.Execute(context.Background(), s, a, runner.ExecOptions{}); err != nil {
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
func directScorer(b *testing.B, s *suite.Suite, ag agent.Func) func(*suite.Case) {
	reg := score.Builtins()
	scorers := map[string]score.Scorer{}
	for _, ev := range s.Evaluators {
		sc, err := reg.Build(ev.Type, ev.Params, nil)
		if err != nil {
			b.Fatal(err)
		}
		scorers[ev.Name] = sc
	}
	ctx := context.Background()
	return func(c *suite.Case) {
		resp, err := ag(ctx, agent.Question{ID: c.ID, Name: c.Name, Question: c.Question})
		if err != nil {
			b.Fatal(err)
		}
		sample := score.Sample{CaseID: c.ID, Question: c.Question, ExpectedAnswer: c.ExpectedAnswer,
			ExpectedActions: c.ExpectedActionList, Output: resp.Output, Actions: resp.Actions}
		for _, m := range c.Metrics {
			a, err := scorers[m.Name].Score(ctx, sample)
			if err != nil || a.Score < m.Threshold {
				b.Fatalf("%s %s: %v %v", c.ID, m.Name, a, err)
			}
		}
	}
}
