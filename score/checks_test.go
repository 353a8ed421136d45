package score

import (
	"context"
	"encoding/json"
	"errors"
	"math"
	"strings"
	"testing"
)

// checkCase is one row of a scorer's table: build the type with params,
// score the sample, and expect either a score and a reason fragment or a
// metric error of a kind.
type checkCase struct {
	name    string
	params  string
	sample  Sample
	score   float64
	reason  string // substring of the reason
	errKind string // when set, Score must fail with a *Error of this kind
}

// deterministic is a registry of this file's types only (no LLM metrics).
func deterministic() Registry {
	r := Registry{}
	addChecks(r)
	addActionGroup(r)
	addTrajectoryChecks(r)
	addTraceChecks(r)
	return r
}

func mustBuild(tb testing.TB, typ, params string) Scorer {
	tb.Helper()
	var raw json.RawMessage
	if params != "" {
		raw = json.RawMessage(params)
	}
	s, err := deterministic().Build(typ, raw, nil)
	if err != nil {
		tb.Fatalf("build %s %s: %v", typ, params, err)
	}
	return s
}

func runChecks(t *testing.T, typ string, cases []checkCase) {
	t.Helper()
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			a, err := mustBuild(t, typ, tc.params).Score(context.Background(), tc.sample)
			if tc.errKind != "" {
				var e *Error
				if !errors.As(err, &e) {
					t.Fatalf("Score() error = %v, want a *Error of kind %q", err, tc.errKind)
				}
				if got, want := e.Kind, tc.errKind; got != want {
					t.Fatalf("error kind = %q, want %q (%v)", got, want, err)
				}
				if e.Message == "" {
					t.Fatal("error message is empty")
				}
				return
			}
			if err != nil {
				t.Fatalf("Score() error = %v", err)
			}
			if got, want := a.Score, tc.score; math.Abs(got-want) > 1e-9 {
				t.Errorf("score = %v, want %v (reason %q)", got, want, a.Reason)
			}
			if a.Reason == "" {
				t.Error("reason is empty")
			}
			if !strings.Contains(a.Reason, tc.reason) {
				t.Errorf("reason = %q, want it to contain %q", a.Reason, tc.reason)
			}
		})
	}
}

// answer builds a sample whose output is the JSON text raw ("" for none).
func answer(raw string) Sample {
	if raw == "" {
		return Sample{}
	}
	return Sample{Output: json.RawMessage(raw)}
}

// says builds a sample whose output is the JSON string s.
func says(s string) Sample {
	b, _ := json.Marshal(s)
	return Sample{Output: b}
}

func withExpected(s Sample, raw string) Sample {
	s.ExpectedAnswer = json.RawMessage(raw)
	return s
}

func TestExactMatch_Score(t *testing.T) {
	runChecks(t, "exact_match", []checkCase{
		{name: "expected answer", sample: withExpected(says("You can return it within 30 days."), `"You can return it within 30 days."`),
			score: 1, reason: `equals the expected text "You can return it within 30 days."`},
		{name: "surrounding whitespace trimmed", sample: withExpected(says("  Paris\n"), `" Paris "`), score: 1},
		{name: "different text", sample: withExpected(says("You have 14 days."), `"You can return it within 30 days."`),
			score: 0, reason: `output "You have 14 days." differs from the expected text`},
		{name: "case matters by default", sample: withExpected(says("paris"), `"Paris"`), score: 0},
		{name: "case ignored", params: `{"case_sensitive": false}`, sample: withExpected(says("PARIS"), `"paris"`),
			score: 1, reason: "(ignoring case)"},
		{name: "unicode case folding", params: `{"case_sensitive": false}`, sample: withExpected(says("STRASSE"), `"straße"`), score: 1},
		{name: "unicode exact", sample: withExpected(says("café 東京 🚀"), `"café 東京 🚀"`), score: 1},
		{name: "no unicode normalization", sample: withExpected(says("cafe\u0301"), `"caf\u00e9"`), score: 0},
		{name: "value param wins", params: `{"value": "42"}`, sample: withExpected(says("42"), `"other"`), score: 1},
		{name: "number output as text", sample: withExpected(answer(`42`), `"42"`), score: 1},
		{name: "object output compacted", sample: withExpected(answer(`{ "a" : 1 }`), `{"a":1}`), score: 1},
		{name: "empty output", sample: withExpected(Sample{}, `"Paris"`), score: 0, reason: "empty output differs"},
		{name: "null output", sample: withExpected(answer(`null`), `"Paris"`), score: 0, reason: "empty output"},
		{name: "empty value matches empty output", params: `{"value": ""}`, sample: answer(`null`), score: 1},
		{name: "no expected answer", sample: says("Paris"), errKind: "missing_expected_answer"},
		{name: "null expected answer", sample: withExpected(says("Paris"), `null`), errKind: "missing_expected_answer"},
		{name: "long output quoted briefly", sample: withExpected(says(strings.Repeat("x", 500)), `"y"`),
			score: 0, reason: "… (500 chars)"},
		{name: "control characters escaped", sample: withExpected(says("a\nb\x1b[31m"), `"c"`), score: 0, reason: `"a\nb\x1b[31m"`},
	})
}

func TestContains_Score(t *testing.T) {
	runChecks(t, "contains", []checkCase{
		{name: "found", params: `{"value": "30 days"}`, sample: says("Return within 30 days."), score: 1, reason: `output contains "30 days"`},
		{name: "not found", params: `{"value": "30 days"}`, sample: says("Return within 14 days."),
			score: 0, reason: `output "Return within 14 days." does not contain "30 days"`},
		{name: "case matters by default", params: `{"value": "30 DAYS"}`, sample: says("30 days"), score: 0},
		{name: "case ignored", params: `{"value": "30 DAYS", "case_sensitive": false}`, sample: says("within 30 days"), score: 1, reason: "(ignoring case)"},
		{name: "unicode", params: `{"value": "東京"}`, sample: says("私は東京に住んでいます"), score: 1},
		{name: "graded values", params: `{"values": ["30 days", "receipt", "refund"]}`, sample: says("Bring the receipt within 30 days."),
			score: 2.0 / 3, reason: `contains 2 of 3 values; missing "refund"`},
		{name: "all values", params: `{"values": ["a", "b"]}`, sample: says("ab"), score: 1, reason: "all 2 values"},
		{name: "empty output", params: `{"value": "x"}`, sample: Sample{}, score: 0, reason: "empty output does not contain"},
		{name: "null output", params: `{"value": "null"}`, sample: answer(`null`), score: 0},
		{name: "object output searched as JSON", params: `{"value": "\"status\":\"shipped\""}`, sample: answer(`{"status": "shipped"}`), score: 1},
	})
}

func TestNotContains_Score(t *testing.T) {
	runChecks(t, "not_contains", []checkCase{
		{name: "absent", params: `{"value": "sorry"}`, sample: says("Here you go."), score: 1, reason: `contains none of "sorry"`},
		{name: "present", params: `{"value": "sorry"}`, sample: says("I am sorry."), score: 0, reason: `contains forbidden "sorry"`},
		{name: "case ignored", params: `{"value": "SORRY", "case_sensitive": false}`, sample: says("sorry"), score: 0},
		{name: "graded", params: `{"values": ["apple", "banana", "cherry", "durian"]}`, sample: says("apple and banana"), score: 0.5, reason: `forbidden "apple", "banana"`},
		{name: "empty output passes", params: `{"value": "x"}`, sample: Sample{}, score: 1, reason: "empty output contains none"},
	})
}

func TestMatches_Score(t *testing.T) {
	runChecks(t, "matches", []checkCase{
		{name: "match", params: `{"pattern": "order #\\d{5}"}`, sample: says("Your order #12345 shipped"), score: 1, reason: `at "order #12345"`},
		{name: "no match", params: `{"pattern": "order #\\d{5}"}`, sample: says("Your order shipped"), score: 0, reason: `does not match the pattern "order #\\d{5}"`},
		{name: "anchored on trimmed text", params: `{"pattern": "^Yes$"}`, sample: says("  Yes\n"), score: 1},
		{name: "case ignored", params: `{"pattern": "^yes", "case_sensitive": false}`, sample: says("YES!"), score: 1},
		{name: "unicode class", params: `{"pattern": "^\\p{Han}+$"}`, sample: says("東京"), score: 1},
		{name: "empty output", params: `{"pattern": "."}`, sample: Sample{}, score: 0, reason: "empty output"},
		{name: "null output matches empty pattern", params: `{"pattern": "^$"}`, sample: answer(`null`), score: 1},
	})
}

func TestStartsWith_Score(t *testing.T) {
	runChecks(t, "starts_with", []checkCase{
		{name: "yes", params: `{"value": "Hello"}`, sample: says("  Hello there"), score: 1, reason: `output starts with "Hello"`},
		{name: "no", params: `{"value": "Hello"}`, sample: says("Hi there"), score: 0, reason: `does not start with "Hello"`},
		{name: "case ignored", params: `{"value": "ÉCOLE", "case_sensitive": false}`, sample: says("école ouverte"), score: 1},
		{name: "empty output", params: `{"value": "Hello"}`, sample: Sample{}, score: 0},
	})
}

func TestEndsWith_Score(t *testing.T) {
	runChecks(t, "ends_with", []checkCase{
		{name: "yes", params: `{"value": "Goodbye."}`, sample: says("See you. Goodbye.\n"), score: 1, reason: `ends with "Goodbye."`},
		{name: "no", params: `{"value": "Goodbye."}`, sample: says("Goodbye. See you."), score: 0, reason: "does not end with"},
		{name: "emoji", params: `{"value": "🚀"}`, sample: says("launch 🚀"), score: 1},
		{name: "null output", params: `{"value": "x"}`, sample: answer(`null`), score: 0, reason: "empty output"},
	})
}

func TestZeroValueScorers_Score(t *testing.T) {
	for _, tc := range []struct {
		name   string
		scorer Scorer
	}{
		{"contains", &Contains{}},
		{"not_contains", &NotContains{}},
		{"matches", &Matches{}},
		{"json_schema", &JSONSchema{}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := tc.scorer.Score(context.Background(), says("x"))
			var e *Error
			if !errors.As(err, &e) {
				t.Fatalf("Score() error = %v, want a *Error", err)
			}
			if got, want := e.Kind, "misconfigured"; got != want {
				t.Errorf("kind = %q, want %q", got, want)
			}
		})
	}
}
