package score

import (
	"encoding/json"
	"reflect"
	"testing"
)

// TestDefinition_Needs: the built-in types declare the question fields
// they cannot judge without, and a "value" param lifts exact_match's and
// equals' need for an expected answer.
func TestDefinition_Needs(t *testing.T) {
	r := Builtins()
	tests := []struct {
		typ, params string
		want        []string
	}{
		{"faithfulness", "", []string{NeedContext}},
		{"hallucination", "", []string{NeedContext}},
		{"semantic_accuracy", "", []string{NeedExpectedAnswer}},
		{"correctness", `{"position_swap": true}`, []string{NeedExpectedAnswer}},
		{"exact_match", "", []string{NeedExpectedAnswer}},
		{"exact_match", `{"case_sensitive": false}`, []string{NeedExpectedAnswer}},
		{"exact_match", `{"value": "ok"}`, nil},
		{"equals", `{"value": null}`, nil},
		{"action_group", "", []string{NeedExpectedActions}},
		{"answer_relevancy", "", nil},
		{"contains", `{"value": "x"}`, nil},
	}
	for _, tt := range tests {
		if got := r[tt.typ].Required(json.RawMessage(tt.params)); !reflect.DeepEqual(got, tt.want) {
			t.Errorf("%s %s: Required = %v, want %v", tt.typ, tt.params, got, tt.want)
		}
	}
}

// TestSample_Has: what counts as a given field.
func TestSample_Has(t *testing.T) {
	tests := []struct {
		name string
		s    Sample
		need string
		want bool
	}{
		{"no expected answer", Sample{}, NeedExpectedAnswer, false},
		{"null expected answer", Sample{ExpectedAnswer: json.RawMessage("null")}, NeedExpectedAnswer, false},
		{"empty string is an answer", Sample{ExpectedAnswer: json.RawMessage(`""`)}, NeedExpectedAnswer, true},
		{"blank context", Sample{Context: []string{" ", ""}}, NeedContext, false},
		{"context", Sample{Context: []string{"", "c"}}, NeedContext, true},
		{"no expected actions", Sample{}, NeedExpectedActions, false},
		{"[] expects no call", Sample{ExpectedActions: []Action{}}, NeedExpectedActions, true},
		{"unknown need", Sample{ExpectedAnswer: json.RawMessage(`"a"`)}, "colour", false},
	}
	for _, tt := range tests {
		if got := tt.s.Has(tt.need); got != tt.want {
			t.Errorf("%s: Has(%q) = %v, want %v", tt.name, tt.need, got, tt.want)
		}
	}
}
