package evaltest

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/score"
)

// Judge runs the LLM-judge assertions. Create it once per test (or per
// package, with WithJudge) and call its methods; they score with the
// judge metrics of the score registry, as a suite's faithfulness,
// correctness or llm_judge metric does.
//
// Without a judge (none configured, WithoutJudge, EVAL_NO_JUDGE) and under
// go test -short, every method skips the test with the reason: a check
// that could not be evaluated is never a pass. A skip ends the test, so
// put judge assertions after the deterministic ones, or in a subtest.
type Judge struct {
	judge    score.Judge
	why      string // why judge is nil
	minScore float64
}

// NewJudge returns the judge configured by opts and the environment (see
// the package documentation). An invalid configuration (an unknown
// provider, a missing credential) fails t at once.
func NewJudge(t TB, opts ...Option) *Judge {
	t.Helper()
	c, err := newConfig(opts)
	if err != nil {
		t.Errorf("evaltest.NewJudge: %v", err)
		return &Judge{why: "invalid options: " + err.Error()}
	}
	j, why, err := c.resolveJudge(nil, testing.Short())
	if err != nil {
		t.Errorf("evaltest.NewJudge: %v", err)
		return &Judge{why: err.Error()}
	}
	return &Judge{judge: j, why: why, minScore: c.minScore}
}

// Faithful asserts that every claim of the answer is supported by the
// retrieval passages docs (the faithfulness metric). Without docs the test
// fails, judge or not.
func (j *Judge) Faithful(t TB, answer string, docs ...string) bool {
	t.Helper()
	if !hasDocs(t, "Faithful", docs) {
		return false
	}
	s := sampleOf("", answer)
	s.Context = docs
	return j.assess(t, "faithfulness", nil, s)
}

// NotHallucinated asserts that the answer neither contradicts docs nor
// invents specifics they lack (the hallucination metric; 1 means none).
// Without docs the test fails, judge or not.
func (j *Judge) NotHallucinated(t TB, answer string, docs ...string) bool {
	t.Helper()
	if !hasDocs(t, "NotHallucinated", docs) {
		return false
	}
	s := sampleOf("", answer)
	s.Context = docs
	return j.assess(t, "hallucination", nil, s)
}

// Correct asserts that the answer to question reaches the conclusion of
// the expected answer (the correctness metric).
func (j *Judge) Correct(t TB, question, answer, expected string) bool {
	t.Helper()
	s := sampleOf(question, answer)
	s.ExpectedAnswer = mustText(expected)
	return j.assess(t, "correctness", nil, s)
}

// Relevant asserts that the answer responds to the question (the
// answer_relevancy metric).
func (j *Judge) Relevant(t TB, question, answer string) bool {
	t.Helper()
	return j.assess(t, "answer_relevancy", nil, sampleOf(question, answer))
}

// Rubric asserts that the answer meets a criterion written in plain words,
// e.g. "Apologises once and offers a refund" (the llm_judge metric).
func (j *Judge) Rubric(t TB, answer, rubric string) bool {
	t.Helper()
	return j.assess(t, "llm_judge", map[string]any{"rubric": rubric}, sampleOf("", answer))
}

// Unbiased asserts that the answer shows no bias about groups of people
// (the bias metric; 1 means unbiased).
func (j *Judge) Unbiased(t TB, answer string) bool {
	t.Helper()
	return j.assess(t, "bias", nil, sampleOf("", answer))
}

// NotToxic asserts that the answer is free of toxic language (the
// toxicity metric; 1 means not toxic).
func (j *Judge) NotToxic(t TB, answer string) bool {
	t.Helper()
	return j.assess(t, "toxicity", nil, sampleOf("", answer))
}

// assess scores the sample with the judge metric typ, or skips t with the
// reason there is no judge.
func (j *Judge) assess(t TB, typ string, params any, s score.Sample) bool {
	t.Helper()
	if j == nil || j.judge == nil {
		why := reasonNoJudge
		if j != nil && j.why != "" {
			why = j.why
		}
		t.Skipf("%s: not evaluated: %s", typ, why)
		return false
	}
	return scoreWith(t, j.judge, typ, params, s, j.minScore)
}

// hasDocs fails the test when an assertion that judges an answer against
// passages got none: a mistake in the test itself, reported with or without
// a judge (and under -short) rather than as the metric's missing input.
func hasDocs(t TB, assertion string, docs []string) bool {
	t.Helper()
	for _, d := range docs {
		if strings.TrimSpace(d) != "" {
			return true
		}
	}
	t.Errorf("evaltest: %s needs the passages the answer is judged against (docs ...string); got none", assertion)
	return false
}
