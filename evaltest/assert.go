package evaltest

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
)

// TB is what the assertions need of a test: *testing.T and *testing.B
// satisfy it.
type TB interface {
	Helper()
	Errorf(format string, args ...any)
	Logf(format string, args ...any)
	Skipf(format string, args ...any)
	Context() context.Context
}

var (
	_ TB = (*testing.T)(nil)
	_ TB = (*testing.B)(nil)
)

// checkThreshold is what a deterministic assertion needs: every value
// found, the pattern matched, the limit held (the checks score 1 or 0, or
// the fraction of values that held).
const checkThreshold = 1.0

// Contains asserts that the answer contains every value (case-sensitive),
// as the contains check of a suite does.
func Contains(t TB, answer string, values ...string) bool {
	t.Helper()
	return Check(t, "contains", map[string]any{"values": values}, answer)
}

// NotContains asserts that the answer contains none of the values
// (case-sensitive), as the not_contains check does.
func NotContains(t TB, answer string, values ...string) bool {
	t.Helper()
	return Check(t, "not_contains", map[string]any{"values": values}, answer)
}

// Matches asserts that the Go (RE2) regular expression pattern matches
// somewhere in the answer, as the matches check does.
func Matches(t TB, answer, pattern string) bool {
	t.Helper()
	return Check(t, "matches", map[string]any{"pattern": pattern}, answer)
}

// Equal asserts that the answer equals want after trimming surrounding
// white space, as the exact_match check with a value does.
func Equal(t TB, answer, want string) bool {
	t.Helper()
	return Check(t, "exact_match", map[string]any{"value": want}, answer)
}

// JSON asserts that the answer text is one valid JSON value, as the
// valid_json check does.
func JSON(t TB, answer string) bool {
	t.Helper()
	return Check(t, "valid_json", nil, answer)
}

// MatchesSchema asserts that the answer text is JSON valid against schema,
// a JSON Schema given as a JSON string or []byte, or as a Go value that
// encodes to one (e.g. a map), as the json_schema check does.
func MatchesSchema(t TB, answer string, schema any) bool {
	t.Helper()
	var text []byte
	switch s := schema.(type) {
	case string:
		text = []byte(s)
	case []byte:
		text = s
	}
	if text != nil {
		if err := json.Unmarshal(text, new(any)); err != nil { // json.Valid says no more than "invalid"
			t.Errorf("evaltest.MatchesSchema: the schema is not valid JSON: %v", err)
			return false
		}
		schema = json.RawMessage(text)
	}
	return Check(t, "json_schema", map[string]any{"schema": schema}, answer)
}

// MaxLength asserts that the answer has at most limit characters
// (Unicode code points), as the max_length check does.
func MaxLength(t TB, answer string, limit int) bool {
	t.Helper()
	return Check(t, "max_length", map[string]any{"limit": limit}, answer)
}

// MinLength asserts that the answer has at least limit characters, as the
// min_length check does.
func MinLength(t TB, answer string, limit int) bool {
	t.Helper()
	return Check(t, "min_length", map[string]any{"limit": limit}, answer)
}

// MaxWords asserts that the answer has at most limit words, as the
// max_words check does.
func MaxWords(t TB, answer string, limit int) bool {
	t.Helper()
	return Check(t, "max_words", map[string]any{"limit": limit}, answer)
}

// MaxTokens asserts that the response used at most limit output tokens,
// as the agent reported them (Response.OutputTokens, the figure evalrun
// saves). Tokens are never estimated: a response that reports no
// output_tokens fails the assertion, since the bound cannot be checked.
func MaxTokens(t TB, resp agent.Response, limit int64) bool {
	t.Helper()
	if resp.OutputTokens == nil {
		t.Errorf("evaltest.MaxTokens: the response reports no output_tokens, so its length in tokens is unknown "+
			"(report usage from the agent, or bound the text with MaxWords); want at most %d", limit)
		return false
	}
	if got := *resp.OutputTokens; got > limit {
		t.Errorf("evaltest.MaxTokens: the response used %d output tokens, more than the limit %d", got, limit)
		return false
	}
	t.Logf("max tokens: the response used %d output tokens (limit %d)", *resp.OutputTokens, limit)
	return true
}

// Check asserts that the answer passes the suite check of type typ (a
// score.Builtins type such as "is_url" or "starts_with") with params
// (anything that encodes to the check's JSON params; nil for none), scored
// as in a suite with threshold 1. Judge-backed types need a Judge: use its
// methods.
func Check(t TB, typ string, params any, answer string) bool {
	t.Helper()
	return scoreWith(t, nil, typ, params, sampleOf("", answer), checkThreshold)
}

// sampleOf is a judges sample of one answer to question ("" for none).
func sampleOf(question, answer string) score.Sample {
	s := score.Sample{Output: mustText(answer)}
	if question != "" {
		s.Question = mustText(question)
	}
	return s
}

// mustText encodes s as a JSON string (always possible).
func mustText(s string) json.RawMessage {
	b, _ := json.Marshal(s)
	return b
}

// scoreWith builds the scorer of type typ from the score registry, scores the
// sample and fails t with the score, threshold and reason when it misses
// threshold or cannot be scored; it logs the reason when it passes.
func scoreWith(t TB, judge score.Judge, typ string, params any, s score.Sample, threshold float64) bool {
	t.Helper()
	def, ok := score.Builtins()[typ]
	if !ok {
		t.Errorf("evaltest: check %q: unknown type; want one of %s", typ, strings.Join(score.Builtins().Names(), ", "))
		return false
	}
	if def.NeedsJudge && judge == nil {
		t.Errorf("evaltest: check %q needs a judge: use evaltest.NewJudge(t).Check", typ)
		return false
	}
	raw, err := json.Marshal(params)
	if err != nil || params == nil {
		raw = nil
	}
	if err != nil {
		t.Errorf("evaltest: check %s: params: %v", typ, err)
		return false
	}
	sc, err := def.New(raw, judge)
	if err != nil {
		t.Errorf("evaltest: check %s: %v", typ, err)
		return false
	}
	a, err := sc.Score(t.Context(), s)
	if err == nil && (math.IsNaN(a.Score) || a.Score < 0 || a.Score > 1 || strings.TrimSpace(a.Reason) == "") {
		err = fmt.Errorf("invalid assessment: score %v, reason %q", a.Score, a.Reason)
	}
	if err != nil {
		t.Errorf("%s: not scored: %s", typ, sanitize.EscapeText(err.Error()))
		return false
	}
	if a.Score < threshold {
		t.Errorf("%s: score %.3f below threshold %.3f: %s", typ, a.Score, threshold, sanitize.EscapeText(a.Reason))
		return false
	}
	t.Logf("%s: score %.3f (threshold %.3f): %s", typ, a.Score, threshold, sanitize.EscapeText(a.Reason))
	return true
}
