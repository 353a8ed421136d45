package evaltest_test

import (
	"context"
	"fmt"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/evaltest"
	"github.com/agentevals-go/agentevals/score"
)

// recorder is an evaltest.TB that keeps what an assertion reports.
type recorder struct {
	errors, logs, skips []string
}

var _ evaltest.TB = (*recorder)(nil)

func (r *recorder) Helper()                  {}
func (r *recorder) Context() context.Context { return context.Background() }
func (r *recorder) Errorf(format string, args ...any) {
	r.errors = append(r.errors, fmt.Sprintf(format, args...))
}
func (r *recorder) Logf(format string, args ...any) {
	r.logs = append(r.logs, fmt.Sprintf(format, args...))
}
func (r *recorder) Skipf(format string, args ...any) {
	r.skips = append(r.skips, fmt.Sprintf(format, args...))
}

// scriptedJudge answers every assessment with a and err.
type scriptedJudge struct {
	a   score.Assessment
	err error
}

func (j scriptedJudge) Assess(context.Context, string, string) (score.Assessment, error) {
	return j.a, j.err
}

func TestAssertions(t *testing.T) {
	tokens := int64(30)
	good := evaltest.WithJudge(scriptedJudge{a: score.Assessment{Score: 0.92, Reason: "Supported."}})
	tests := []struct {
		name   string
		assert func(evaltest.TB) bool
		ok     bool
		// want is a substring of the one error (ok false), skip or log line.
		want string
		skip bool
	}{
		{"contains", func(t evaltest.TB) bool { return evaltest.Contains(t, "within 30 days", "30 days") }, true, `contains: score 1.000 (threshold 1.000)`, false},
		{"contains missing", func(t evaltest.TB) bool { return evaltest.Contains(t, "within 30 days", "30 Days") }, false, `contains: score 0.000 below threshold 1.000`, false},
		{"not contains", func(t evaltest.TB) bool { return evaltest.NotContains(t, "sorry, 14 days", "14 days") }, false, `not_contains: score 0.000 below threshold 1.000: output contains forbidden "14 days"`, false},
		{"equal", func(t evaltest.TB) bool { return evaltest.Equal(t, "Order 42 shipped.", "Order 42 shipped.") }, true, "exact_match: score 1.000", false},
		{"equal differs", func(t evaltest.TB) bool { return evaltest.Equal(t, "Order 42 shipped.", "Order 43 shipped.") }, false, "exact_match: score 0.000 below threshold 1.000", false},
		{"json", func(t evaltest.TB) bool { return evaltest.JSON(t, `{"order": 42}`) }, true, "valid_json: score 1.000", false},
		{"json invalid", func(t evaltest.TB) bool { return evaltest.JSON(t, `{"order": 42`) }, false, "valid_json: score 0.000 below threshold 1.000: output text is not valid JSON", false},
		{"schema not JSON", func(t evaltest.TB) bool { return evaltest.MatchesSchema(t, `{"order": 42}`, `{"type": object}`) }, false,
			"evaltest.MatchesSchema: the schema is not valid JSON: invalid character 'o' looking for beginning of value", false},
		{"min length", func(t evaltest.TB) bool { return evaltest.MinLength(t, "ok", 3) }, false, "min_length: score 0.000 below threshold 1.000", false},
		{"max length", func(t evaltest.TB) bool { return evaltest.MaxLength(t, "ok", 3) }, true, "max_length: score 1.000", false},
		{"max words", func(t evaltest.TB) bool { return evaltest.MaxWords(t, "one two three", 2) }, false, "max_words: score 0.000 below threshold 1.000", false},
		{"check starts_with", func(t evaltest.TB) bool {
			return evaltest.Check(t, "starts_with", map[string]any{"value": "Hello"}, "Hello there")
		}, true, "starts_with: score 1.000", false},
		{"check unknown type", func(t evaltest.TB) bool { return evaltest.Check(t, "sounds_nice", nil, "x") }, false, `evaltest: check "sounds_nice": unknown type; want one of action_group,`, false},
		{"bad pattern", func(t evaltest.TB) bool { return evaltest.Matches(t, "x", "(") }, false, `evaltest: check matches: invalid evaluator parameters: param "pattern": expected a Go (RE2) regular expression`, false},
		{"judge type through Check", func(t evaltest.TB) bool { return evaltest.Check(t, "faithfulness", nil, "x") }, false, `evaltest: check "faithfulness" needs a judge`, false},
		{"max tokens", func(t evaltest.TB) bool { return evaltest.MaxTokens(t, agent.Response{OutputTokens: &tokens}, 30) }, true, "the response used 30 output tokens (limit 30)", false},
		{"max tokens unknown", func(t evaltest.TB) bool { return evaltest.MaxTokens(t, agent.Response{}, 30) }, false, "reports no output_tokens", false},
		{"judge correct", func(t evaltest.TB) bool {
			return evaltest.NewJudge(t, good).Correct(t, "How long?", "30 days.", "Within 30 days.")
		}, true, "correctness: score 0.920 (threshold 0.900): Supported.", false},
		{"judge below min score", func(t evaltest.TB) bool {
			return evaltest.NewJudge(t, good, evaltest.MinScore(0.95)).Relevant(t, "How long?", "30 days.")
		}, false, "answer_relevancy: score 0.920 below threshold 0.950: Supported.", false},
		{"judge error is not a pass", func(t evaltest.TB) bool {
			j := evaltest.WithJudge(scriptedJudge{err: &score.Error{Kind: "invalid_reply", Message: "no JSON in the reply"}})
			return evaltest.NewJudge(t, j).Rubric(t, "Hi.", "Greets the user")
		}, false, "llm_judge: not scored: invalid_reply: no JSON in the reply", false},
		{"judge score out of range", func(t evaltest.TB) bool {
			j := evaltest.WithJudge(scriptedJudge{a: score.Assessment{Score: 1.5, Reason: "Great."}})
			return evaltest.NewJudge(t, j).NotToxic(t, "Hi.")
		}, false, "toxicity: not scored: invalid assessment: score 1.5", false},
		{"no judge skips", func(t evaltest.TB) bool {
			return evaltest.NewJudge(t, evaltest.WithoutJudge()).Faithful(t, "30 days", "Returns within 30 days.")
		}, false, "faithfulness: not evaluated: judge switched off", true},
		{"faithful without docs", func(t evaltest.TB) bool {
			return evaltest.NewJudge(t, evaltest.WithoutJudge()).Faithful(t, "30 days")
		}, false, "evaltest: Faithful needs the passages the answer is judged against (docs ...string); got none", false},
		{"not hallucinated with empty docs", func(t evaltest.TB) bool {
			return evaltest.NewJudge(t, good).NotHallucinated(t, "30 days", " ")
		}, false, "evaltest: NotHallucinated needs the passages", false},
		{"nil judge skips", func(t evaltest.TB) bool {
			var j *evaltest.Judge
			return j.Unbiased(t, "Hi.")
		}, false, "bias: not evaluated: no judge configured", true},
		{"invalid min score", func(t evaltest.TB) bool {
			return evaltest.NewJudge(t, good, evaltest.MinScore(2)).Unbiased(t, "Hi.")
		}, false, "evaltest.NewJudge: MinScore(2): want a number from 0 to 1", false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r := &recorder{}
			ok := tt.assert(r)
			if ok != tt.ok {
				t.Errorf("returned %v, want %v (errors %q, skips %q)", ok, tt.ok, r.errors, r.skips)
			}
			var got []string
			switch {
			case tt.skip:
				got = r.skips
			case tt.ok:
				got = r.logs
				if len(r.errors) > 0 {
					t.Errorf("errors %q", r.errors)
				}
			default:
				got = r.errors
			}
			if tt.want != "" && !strings.Contains(strings.Join(got, "\n"), tt.want) {
				t.Errorf("got %q, want a line containing %q", got, tt.want)
			}
			if !tt.ok && !tt.skip && len(r.errors) == 0 {
				t.Errorf("a failed assertion reported no error")
			}
		})
	}
}
