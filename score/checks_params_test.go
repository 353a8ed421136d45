package score

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"sync"
	"testing"
)

func TestRegistry_Build_invalidParams(t *testing.T) {
	for _, tc := range []struct {
		typ, params string
		want        string // substring of the error
	}{
		{"exact_match", `[1]`, "params: expected a JSON object, got an array"},
		{"exact_match", `"value"`, `params: expected a JSON object, got the string "value"`},
		{"exact_match", `{"value": 1}`, `param "value": expected a string, got the number 1`},
		{"exact_match", `{"value": null}`, `param "value": expected a string, got null`},
		{"exact_match", `{"case_sensitive": "no"}`, `param "case_sensitive": expected a boolean (true or false), got the string "no"`},
		{"exact_match", `{"valeu": "x"}`, `unknown param "valeu": expected one of "value", "case_sensitive"`},
		{"exact_match", `{"value": "x"`, "expected a JSON object, got invalid JSON"},
		{"exact_match", `{"value": "a", "value": "b"}`, `param "value" is given twice`},
		{"equals", `{"expected": 1}`, `unknown param "expected": expected one of "value"`},
		{"contains", ``, `params "value" and "values": expected exactly one of them`},
		{"contains", `{"value": "a", "values": ["b"]}`, "exactly one of them"},
		{"contains", `{"value": ""}`, `param "value": expected a non-empty string, got the string ""`},
		{"contains", `{"values": []}`, `param "values": expected a non-empty array of non-empty strings, got an array`},
		{"contains", `{"values": "a"}`, `param "values": expected a non-empty array of non-empty strings, got the string "a"`},
		{"contains", `{"values": ["a", 2]}`, `param "values[1]": expected a non-empty string, got the number 2`},
		{"not_contains", `{"values": ["a", ""]}`, `param "values[1]": expected a non-empty string`},
		{"not_contains", `{"value": "a", "case_sensitive": 0}`, `param "case_sensitive": expected a boolean`},
		{"matches", `{}`, `param "pattern" is missing: expected a non-empty string`},
		{"matches", `{"pattern": "(unclosed"}`, `param "pattern": expected a Go (RE2) regular expression: error parsing regexp: missing closing )`},
		{"matches", `{"pattern": "(?<=a)b"}`, `param "pattern": expected a Go (RE2) regular expression`},
		{"matches", `{"value": "x"}`, `unknown param "value": expected one of "pattern", "case_sensitive"`},
		{"starts_with", `{}`, `param "value" is missing`},
		{"ends_with", `{"value": ["x"]}`, `param "value": expected a non-empty string, got an array`},
		{"valid_json", `{"strict": true}`, `unknown param "strict": this type takes no params`},
		{"json_schema", `{}`, `param "schema" is missing: expected a JSON Schema (object or boolean)`},
		{"json_schema", `{"schema": "object"}`, `param "schema": expected a JSON Schema (object or boolean), got the string "object"`},
		{"json_schema", `{"schema": {"type": "strnig"}}`, `param "schema": expected a valid JSON Schema`},
		{"json_schema", `{"schema": {"$ref": "https://example.com/s.json"}}`, "is not loaded: references outside the schema are refused"},
		{"min_length", `{}`, `param "limit" is missing: expected a non-negative integer`},
		{"min_length", `{"limit": -1}`, `param "limit": expected a non-negative integer, got the number -1`},
		{"max_length", `{"limit": 2.5}`, `param "limit": expected a non-negative integer, got the number 2.5`},
		{"max_length", `{"limit": "10"}`, `param "limit": expected a non-negative integer, got the string "10"`},
		{"max_words", `{"limit": 1e20}`, `param "limit": expected a non-negative integer`},
		{"max_words", `{"max": 3}`, `unknown param "max": expected one of "limit"`},
		{"is_url", `{"schemes": []}`, `param "schemes": expected a non-empty array of non-empty strings`},
		{"is_email", `{"x": 1}`, "takes no params"},
		{"max_latency_ms", `{"limit": "500ms"}`, `param "limit": expected a finite number >= 0, got the string "500ms"`},
		{"max_latency_ms", `{"limit": -5}`, `param "limit": expected a finite number >= 0, got the number -5`},
		{"max_cost", `{}`, `param "limit" is missing: expected a finite number >= 0`},
		{"max_cost", `{"limit": 1e400}`, `param "limit": expected a finite number >= 0, got the number 1e400`},
		{"max_cost", `{"limit": true}`, `got the boolean true`},
		{"action_group", `{"order": "any"}`, `unknown param "order": expected one of "mode", "arguments", "ignore_paths"`},
		{"action_group", `{"mode": "any"}`, `param "mode": expected one of "strict"`},
		{"tool_used", `{}`, `tools`},
		{"span_duration", `{"max_ms": 1, "percentile": 0}`, `percentile`},
		{"error_spans", `{"max_count": 1, "max_share": 0.5}`, `not both`},
	} {
		t.Run(tc.typ+" "+tc.params, func(t *testing.T) {
			s, err := deterministic().Build(tc.typ, json.RawMessage(tc.params), nil)
			if err == nil {
				t.Fatalf("Build() = %T, want an error", s)
			}
			if s != nil {
				t.Errorf("Build() returned a scorer %T with the error", s)
			}
			if !errors.Is(err, ErrInvalidParams) {
				t.Errorf("error %q does not wrap ErrInvalidParams", err)
			}
			if !strings.Contains(err.Error(), tc.want) {
				t.Errorf("error = %q, want it to contain %q", err, tc.want)
			}
			if !strings.HasPrefix(err.Error(), `build evaluator "`+tc.typ+`": invalid evaluator parameters: `) {
				t.Errorf("error = %q, want the registry's prefix", err)
			}
		})
	}
}

func TestRegistry_Build_noParams(t *testing.T) {
	// Types without required params accept absent, null and empty params.
	for _, typ := range []string{"exact_match", "equals", "valid_json", "is_url", "is_email", "action_group"} {
		for _, params := range []string{"", "null", "{}", " { } "} {
			t.Run(typ+" "+params, func(t *testing.T) {
				if _, err := deterministic().Build(typ, json.RawMessage(params), nil); err != nil {
					t.Errorf("Build() error = %v", err)
				}
			})
		}
	}
}

func TestAddChecks(t *testing.T) {
	want := []string{"contains", "ends_with", "equals", "exact_match", "is_email", "is_url", "json_schema",
		"matches", "max_cost", "max_latency_ms", "max_length", "max_words", "min_length", "not_contains",
		"starts_with", "valid_json"}
	r := Registry{}
	addChecks(r)
	if got, want := strings.Join(r.Names(), ","), strings.Join(want, ","); got != want {
		t.Errorf("Names() = %s, want %s", got, want)
	}
	for name, def := range r {
		if def.NeedsJudge {
			t.Errorf("%s needs a judge; deterministic checks never do", name)
		}
	}
}

func TestQuote(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"plain", `"plain"`},
		{"a\nb", `"a\nb"`},
		{`say "hi"`, `"say \"hi\""`},
		{"東京", `"東京"`},
		{strings.Repeat("é", 81), `"` + strings.Repeat("é", 80) + `"… (81 chars)`},
		{"bad\xffbyte", `"bad\xffbyte"`},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got, want := quote(tc.in), tc.want; got != want {
				t.Errorf("quote(%q) = %s, want %s", tc.in, got, want)
			}
		})
	}
}

func TestClip(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`{"a":1}`, `{"a":1}`},
		{"a\x1bb\n", `a\x1bb\n`},
		{strings.Repeat("x", 100), strings.Repeat("x", 80) + "…"},
	} {
		t.Run(tc.in, func(t *testing.T) {
			if got, want := clip(tc.in), tc.want; got != want {
				t.Errorf("clip(%q) = %s, want %s", tc.in, got, want)
			}
		})
	}
}

// TestScorers_Score_concurrent shares one built scorer of every type
// between goroutines, as the runner does; run it with -race.
func TestScorers_Score_concurrent(t *testing.T) {
	params := map[string]string{
		"contains": `{"value": "a", "case_sensitive": false}`, "not_contains": `{"value": "b"}`,
		"matches": `{"pattern": "a+"}`, "starts_with": `{"value": "a"}`, "ends_with": `{"value": "a"}`,
		"json_schema": `{"schema": {"type": "string", "format": "email"}}`, "min_length": `{"limit": 1}`,
		"max_length": `{"limit": 9}`, "max_words": `{"limit": 2}`, "max_latency_ms": `{"limit": 5}`, "max_cost": `{"limit": 1}`,
		"tool_used": `{"tools": ["a"]}`, "tool_not_used": `{"tools": ["b"]}`, "step_budget": `{"max": 3}`, "span_duration": `{"max_ms": 1}`,
	}
	cost := 0.5
	sample := Sample{Output: json.RawMessage(`"aaa"`), ExpectedAnswer: json.RawMessage(`"aaa"`), Cost: &cost,
		ExpectedActions: []Action{{Group: "g", Name: "a"}}, Actions: []Action{{Group: "g", Name: "a"}}}
	r := deterministic()
	for _, name := range r.Names() {
		t.Run(name, func(t *testing.T) {
			s := mustBuild(t, name, params[name])
			first, firstErr := s.Score(context.Background(), sample)
			var wg sync.WaitGroup
			for range 8 {
				wg.Go(func() {
					got, err := s.Score(context.Background(), sample)
					if got.Score != first.Score || got.Reason != first.Reason || (err == nil) != (firstErr == nil) {
						t.Errorf("concurrent Score() = %v, %v; want %v, %v", got, err, first, firstErr)
					}
				})
			}
			wg.Wait()
		})
	}
}

// FuzzScorers feeds every scorer arbitrary outputs and traces: none may
// panic, and each either fails with an error or returns a score in [0,1]
// with a reason.
func FuzzScorers(f *testing.F) {
	for _, seed := range []string{``, `null`, `"x"`, `{`, `"\xff"`, `[[[[[[[[[[]]]]]]]]]]`, `1e999`, `"{\"a\":1}"`, `{"a": "東京"}`} {
		f.Add([]byte(seed), []byte(`[{"group": "g", "name": "n", "arguments": 1}]`))
	}
	params := map[string]string{
		"contains": `{"value": "a", "case_sensitive": false}`, "not_contains": `{"values": ["a", "b"]}`,
		"matches": `{"pattern": "^a"}`, "starts_with": `{"value": "a"}`, "ends_with": `{"value": "a"}`,
		"json_schema": `{"schema": {"type": "object", "required": ["a"]}}`, "min_length": `{"limit": 1}`,
		"max_length": `{"limit": 3}`, "max_words": `{"limit": 1}`, "max_latency_ms": `{"limit": 1}`,
		"max_cost": `{"limit": 1}`, "equals": `{"value": {"a": 1}}`,
		"tool_used": `{"tools": ["n"]}`, "tool_not_used": `{"tools": ["n"]}`, "step_budget": `{"max": 1}`, "span_duration": `{"max_ms": 1}`,
	}
	r := deterministic()
	scorers := map[string]Scorer{}
	for _, name := range r.Names() {
		scorers[name] = mustBuild(f, name, params[name])
	}
	f.Fuzz(func(t *testing.T, output, actions []byte) {
		var observed []Action
		_ = json.Unmarshal(actions, &observed)
		s := Sample{Output: output, ExpectedAnswer: output, Actions: observed,
			ExpectedActions: []Action{{Group: "g", Name: "n", Arguments: json.RawMessage(`1`)}}}
		for name, sc := range scorers {
			a, err := sc.Score(context.Background(), s)
			if err != nil {
				continue
			}
			if a.Score < 0 || a.Score > 1 || a.Reason == "" {
				t.Errorf("%s: Score() = %v, %q; want a score in [0,1] and a reason", name, a.Score, a.Reason)
			}
		}
	})
}
