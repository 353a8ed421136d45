package runner

import (
	"context"
	"errors"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/suite"
)

// goldenTrapSuite is the golden-set scenario written without the
// trap: each line carries its own expected substring, and the suite states
// which metrics every question gets.
const goldenTrapSuite = `{
  "suite": "Trivia", "agent": {"name": "A"},
  "evaluators": {
    "no_apology": {"type": "not_contains", "params": {"value": "sorry", "case_sensitive": false}},
    "brief": {"type": "max_words", "params": {"limit": 20}}
  },
  "defaults": ["no_apology", "brief"],
  "golden_set": "golden.jsonl"
}`

const goldenTrapLines = `{"id": "capital", "input": "Capital of France?", "checks": [{"type": "contains", "value": "Paris"}]}
{"id": "boil", "input": "At what temperature does water boil?", "checks": [{"type": "contains", "value": "100"}, {"type": "contains", "name": "unit", "value": "°C"}]}
{"id": "tower", "input": "When was the Eiffel Tower built?", "minimum_scores": {"brief": 1}, "checks": [{"type": "matches", "pattern": "\\b1889\\b"}]}
{"id": "plain", "input": "Say hello."}
`

func TestChecks_GoldenSetScoredOnlyByOwnAndDefaultChecks(t *testing.T) {
	dir := t.TempDir()
	testfile.Write(t, dir, "golden.jsonl", goldenTrapLines)
	s, err := suite.Load(testfile.Write(t, dir, "suite.json", goldenTrapSuite))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 0 {
		t.Errorf("warnings = %v, want none", s.Warnings)
	}
	a := answers(map[string]string{
		"capital": "Paris.",
		"boil":    "Water boils at 100 °C at sea level.",
		"tower":   "It was finished in 1889.",
		"plain":   "Hello!",
	})
	run, err := Execute(context.Background(), s, a, ExecOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := map[string][]string{
		"capital": {"no_apology", "brief", "contains"},
		"boil":    {"no_apology", "brief", "contains", "unit"},
		"tower":   {"brief", "matches"},
		"plain":   {"no_apology", "brief"},
	}
	for _, c := range run.Cases {
		var names []string
		for _, m := range c.Metrics {
			names = append(names, m.Name)
			if !m.Passed {
				t.Errorf("%s: metric %s failed: %s", c.CaseID, m.Name, deref(m.Reason))
			}
		}
		if !reflect.DeepEqual(names, want[c.CaseID]) {
			t.Errorf("%s: metrics %v, want %v", c.CaseID, names, want[c.CaseID])
		}
		if c.Status != models.StatusPassed {
			t.Errorf("%s: status %s, want passed", c.CaseID, c.Status)
		}
	}
}

func deref(s *string) string {
	if s == nil {
		return "<nil>"
	}
	return *s
}

func TestChecks_TrapIsWarned(t *testing.T) {
	dir := t.TempDir()
	testfile.Write(t, dir, "golden.jsonl", `{"input": "Capital of France?", "expected": "Paris"}
{"input": "At what temperature does water boil?", "expected": "100 °C"}
`)
	s, err := suite.Load(testfile.Write(t, dir, "suite.json", `{"suite": "T", "agent": {"name": "A"},
	  "evaluators": {"paris": {"type": "contains", "params": {"value": "Paris"}}, "exact": {"type": "exact_match"}},
	  "golden_set": "golden.jsonl"}`))
	if err != nil {
		t.Fatal(err)
	}
	if len(s.Warnings) != 1 {
		t.Fatalf("warnings = %v, want one about paris", s.Warnings)
	}
	w := s.Warnings[0].String()
	for _, part := range []string{"$.evaluators.paris", "contains check with a fixed value is a default of 2 questions", "\"checks\""} {
		if !strings.Contains(w, part) {
			t.Errorf("warning %q lacks %q", w, part)
		}
	}
}

func TestChecks_Digest(t *testing.T) {
	digest := func(value string) string {
		s := mustLoad(t, `{"suite": "T", "agent": {"name": "A"}, "questions": [
		  {"id": "q", "question": "q?", "checks": [{"type": "contains", "value": "`+value+`"}]}]}`)
		d, err := s.Digest(s.Calculated(false))
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	if digest("Paris") == digest("Rome") {
		t.Error("changing an inline check's value keeps the digest")
	}
	if digest("Paris") != digest("Paris") {
		t.Error("the digest of one definition changes")
	}
}

func TestChecks_Problems(t *testing.T) {
	tests := []struct {
		name, suite, want string
	}{
		{"unknown type", `"questions": [{"question": "q", "checks": [{"type": "contians", "value": "x"}]}]`,
			`$.questions[0].checks[0].type: unknown check type "contians" (did you mean "contains"?)`},
		{"wrong param type", `"questions": [{"question": "q", "checks": [{"type": "contains", "value": 3}]}]`,
			`$.questions[0].checks[0]: contains check: invalid evaluator parameters: param "value": expected a non-empty string, got the number 3`},
		{"misspelled param", `"questions": [{"question": "q", "checks": [{"type": "contains", "valeu": "x"}]}]`,
			`unknown param "valeu"`},
		{"two of one type", `"questions": [{"question": "q", "checks": [{"type": "contains", "value": "x"}, {"type": "contains", "value": "y"}]}]`,
			`$.questions[0].checks[1]: metric name "contains" is already used by $.questions[0].checks[0] of this question`},
		{"clash with evaluator", `"evaluators": {"x": {"type": "valid_json"}}, "questions": [{"question": "q", "checks": [{"type": "contains", "name": "x", "value": "y"}]}]`,
			`suite evaluator's name`},
		{"name of another type", `"questions": [{"question": "q", "checks": [{"type": "contains", "name": "valid_json", "value": "y"}]}]`,
			`"valid_json" is the name of another check type`},
		{"clash with minimum_scores", `"questions": [{"question": "q", "minimum_scores": {"valid_json": 1}, "checks": [{"type": "valid_json"}]}]`,
			`already used by minimum_scores`},
		{"unknown default", `"defaults": ["nope"], "questions": [{"question": "q"}]`, `$.defaults[0]: unknown metric "nope"`},
		{"empty defaults", `"defaults": [], "questions": [{"question": "q"}]`, `no metric: the suite's defaults are []`},
		{"needs expected", `"questions": [{"question": "q", "checks": [{"type": "exact_match"}]}]`,
			`$.questions[0].checks: check "exact_match" needs the question's expected_answer`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := testfile.Write(t, t.TempDir(), "suite.json", `{"suite": "T", "agent": {"name": "A"}, `+tt.suite+`}`)
			_, err := suite.Load(path)
			var ve *suite.ValidationError
			if !errors.As(err, &ve) {
				t.Fatalf("Load = %v, want a *ValidationError", err)
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error %q\nwant it to contain %q", err, tt.want)
			}
			if !strings.Contains(err.Error(), filepath.Base(path)) {
				t.Errorf("error %q does not name the file", err)
			}
		})
	}
}

func TestChecks_DefaultsObjectAndGemRule(t *testing.T) {
	s := mustLoad(t, `{"suite": "T", "agent": {"name": "A"},
	  "evaluators": {"json": {"type": "valid_json"}, "short": {"type": "max_length", "params": {"limit": 5}, "threshold": 1}},
	  "defaults": {"json": 0.5},
	  "questions": [{"id": "a", "question": "q"}, {"id": "b", "question": "q", "checks": [{"type": "min_length", "limit": 1}]}]}`)
	if got, want := s.Cases[0].Metrics, []suite.Metric{{Name: "json", Threshold: 0.5}}; !reflect.DeepEqual(got, want) {
		t.Errorf("a: %v, want %v", got, want)
	}
	if got, want := s.Cases[1].Metrics, []suite.Metric{{Name: "json", Threshold: 0.5}, {Name: "min_length", Threshold: 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("b: %v, want %v", got, want)
	}
	// No "defaults": a question without checks gets every evaluator (the
	// gem's rule), a question with checks only its checks.
	g := mustLoad(t, `{"suite": "T", "agent": {"name": "A"},
	  "evaluators": {"json": {"type": "valid_json"}},
	  "questions": [{"id": "a", "question": "q"}, {"id": "b", "question": "q", "checks": [{"type": "min_length", "limit": 1}]}]}`)
	if got, want := g.Cases[0].Metrics, []suite.Metric{{Name: "json", Threshold: 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("gem rule a: %v, want %v", got, want)
	}
	if got, want := g.Cases[1].Metrics, []suite.Metric{{Name: "min_length", Threshold: 1}}; !reflect.DeepEqual(got, want) {
		t.Errorf("gem rule b: %v, want %v", got, want)
	}
}
