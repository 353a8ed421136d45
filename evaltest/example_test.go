package evaltest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/evaltest"
	"github.com/agentevals-go/agentevals/modelkit"
	"github.com/agentevals-go/agentevals/score"
)

// printT stands in for the *testing.T of a test in these examples: it
// prints what an assertion reports instead of failing a test.
type printT struct{ ctx context.Context }

func (printT) Helper()                           {}
func (printT) Logf(format string, args ...any)   { fmt.Printf("ok:   "+format+"\n", args...) }
func (printT) Errorf(format string, args ...any) { fmt.Printf("FAIL: "+format+"\n", args...) }
func (printT) Skipf(format string, args ...any)  { fmt.Printf("SKIP: "+format+"\n", args...) }
func (p printT) Context() context.Context        { return p.ctx }

// A suite file in a test: one subtest per question, saved and gated when
// EVALTEST_DATABASE_URL is set.
func ExampleRun() {
	a := agent.Func(func(ctx context.Context, q agent.Question) (agent.Response, error) {
		return agent.Response{Output: []byte(`"You can return it within 30 days."`)}, nil
	})
	testSupport := func(t *testing.T) {
		res := evaltest.Run(t, "testdata/suite.json", a, evaltest.FailOnRegression())
		if res.Saved {
			t.Logf("saved run %s", res.Run.ID)
		}
	}
	_ = testSupport // func TestSupport(t *testing.T) in a _test.go file
}

// Deterministic checks of one answer, as the suite checks of the same
// name score it.
func ExampleContains() {
	t := printT{context.Background()}
	answer := "You can return it within 30 days."
	evaltest.Contains(t, answer, "30 days")
	evaltest.Contains(t, answer, "30 days", "receipt")
	// Output:
	// ok:   contains: score 1.000 (threshold 1.000): output contains "30 days"
	// FAIL: contains: score 0.500 below threshold 1.000: output contains 1 of 2 values; missing "receipt"
}

func ExampleMatches() {
	t := printT{context.Background()}
	evaltest.Matches(t, "Order 42 ships on 2026-12-03.", `\d{4}-\d{2}-\d{2}`)
	// Output:
	// ok:   matches: score 1.000 (threshold 1.000): output matches the pattern "\\d{4}-\\d{2}-\\d{2}" at "2026-12-03"
}

func ExampleMatchesSchema() {
	t := printT{context.Background()}
	schema := `{"type": "object", "required": ["order", "status"]}`
	evaltest.MatchesSchema(t, `{"order": 42, "status": "shipped"}`, schema)
	evaltest.MatchesSchema(t, `{"order": 42}`, schema)
	// Output:
	// ok:   json_schema: score 1.000 (threshold 1.000): output (object) matches the JSON schema
	// FAIL: json_schema: score 0.000 below threshold 1.000: output does not match the JSON schema: at "": missing property 'status'
}

func ExampleMaxTokens() {
	t := printT{context.Background()}
	used := int64(120)
	evaltest.MaxTokens(t, agent.Response{OutputTokens: &used}, 100)
	evaltest.MaxTokens(t, agent.Response{}, 100)
	// Output:
	// FAIL: evaltest.MaxTokens: the response used 120 output tokens, more than the limit 100
	// FAIL: evaltest.MaxTokens: the response reports no output_tokens, so its length in tokens is unknown (report usage from the agent, or bound the text with MaxWords); want at most 100
}

// keywordJudge is a scripted score.Judge for the example: it fails
// answers that mention 14 days. Real tests pass
// evaltest.WithModels(modelkit.Models{}) to get the model the environment
// names (EVAL_JUDGE_MODEL), or a provider.Judge with WithJudge.
type keywordJudge struct{}

func (keywordJudge) Assess(_ context.Context, _, user string) (score.Assessment, error) {
	if strings.Contains(user, "14 days") {
		return score.Assessment{Score: 0.1, Reason: "The policy says 30 days."}, nil
	}
	return score.Assessment{Score: 0.95, Reason: "Supported by the policy."}, nil
}

// Judge-backed checks with one judge for the whole test.
func ExampleJudge_Faithful() {
	t := printT{context.Background()}
	j := evaltest.NewJudge(t, evaltest.WithJudge(keywordJudge{}), evaltest.MinScore(0.8))
	policy := "Items can be returned within 30 days of delivery."
	j.Faithful(t, "You have 30 days to return it.", policy)
	j.Faithful(t, "You have 14 days to return it.", policy)
	// Output:
	// ok:   faithfulness: score 0.950 (threshold 0.800): Supported by the policy.
	// FAIL: faithfulness: score 0.100 below threshold 0.800: The policy says 30 days.
}

// Without a judge, judge-backed checks are not evaluated: the test skips.
func ExampleJudge_Rubric() {
	t := printT{context.Background()}
	j := evaltest.NewJudge(t, evaltest.WithoutJudge())
	j.Rubric(t, "Sorry about that! Here is a refund.", "Apologises once and offers a refund")
	// Output:
	// SKIP: llm_judge: not evaluated: judge switched off (evaltest.WithoutJudge or EVAL_NO_JUDGE)
}

// A judge configured by the environment is built by the model providers
// passed with WithModels; evaltest links none of them itself.
func ExampleWithModels() {
	testSupport := func(t *testing.T) {
		evaltest.Run(t, "testdata/suite.json", nil, evaltest.WithModels(modelkit.Models{}))
		evaltest.NewJudge(t, evaltest.WithModels(modelkit.Models{})).Relevant(t, "How long?", "Thirty days.")
	}
	_ = testSupport // func TestSupport(t *testing.T) in a _test.go file
}
