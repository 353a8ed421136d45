package suite

import (
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"strings"
	"testing"
)

// TestLoad_RefusesMetricsMissingTheirInputs: a metric whose evaluator
// needs an expected answer, context or expected actions the question lacks
// is refused when the suite loads (it could only be an error in every run),
// naming the metric's path; params that supply the value are accepted.
func TestLoad_RefusesMetricsMissingTheirInputs(t *testing.T) {
	const head = `{"suite": "S", "agent": {"name": "A", "command": ["true"]},
	  "evaluators": {"fixed": {"type": "exact_match", "params": {"value": "ok"}},
	    "null": {"type": "equals", "params": {"value": null}},
	    "exact": {"type": "exact_match"}, "calls": {"type": "action_group"}},
	  "questions": [`
	tests := []struct {
		name, question, want string // want "" means accepted
	}{
		{"faithfulness without context", `{"question": "q", "minimum_scores": {"faithfulness": 0.8}}`,
			`$.questions[0].minimum_scores.faithfulness: needs the question's context (none given)`},
		{"hallucination with blank context", `{"question": "q", "context": [" "], "minimum_scores": {"hallucination": 0.8}}`,
			`$.questions[0].minimum_scores.hallucination: needs the question's context (only blank passages given)`},
		{"semantic_accuracy without expected answer", `{"question": "q", "minimum_scores": {"semantic_accuracy": 0.9}}`,
			`$.questions[0].minimum_scores.semantic_accuracy: needs the question's expected_answer (none given)`},
		{"exact_match with a null expected answer", `{"question": "q", "expected_answer": null, "minimum_scores": {"exact_match": 1}}`,
			`$.questions[0].minimum_scores.exact_match: needs the question's expected_answer (none given, and no "value" param)`},
		{"suite evaluator without expected answer", `{"question": "q", "minimum_scores": {"exact": 1}}`,
			`$.questions[0].minimum_scores.exact: needs the question's expected_answer`},
		{"action_group without expected actions", `{"question": "q", "minimum_scores": {"calls": 1}}`,
			`$.questions[0].minimum_scores.calls: needs the question's expected_actions (none given: write "expected_actions": [{"group": "policies", "name": "lookup_policy", "arguments": {"topic": "returns"}}]; [] expects no call)`},
		{"defaults without expected answer", `{"question": "q"}`,
			`$.questions[0]: default metric "exact" needs the question's expected_answer (none given, and no "value" param); give it, or list the metrics in minimum_scores`},
		{"value params supply the answer", `{"question": "q", "minimum_scores": {"fixed": 1, "null": 1}}`, ""},
		{"[] expects no call", `{"question": "q", "expected_actions": [], "minimum_scores": {"calls": 1}}`, ""},
		{"metrics needing nothing", `{"question": "q", "minimum_scores": {"answer_relevancy": 0.9, "is_url": 1, "toxicity": 1}}`, ""},
		{"everything given", `{"question": "q", "expected_answer": "a", "expected_actions": [{"group": "g", "name": "n"}], "context": "c",
			"minimum_scores": {"faithfulness": 1, "correctness": 1, "exact": 1, "calls": 1}}`, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			path := testfile.Write(t, t.TempDir(), "suite.json", head+tt.question+`]}`)
			_, err := Load(path)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("Load: %v", err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), path+": "+tt.want) {
				t.Fatalf("Load = %v\nwant %s: %s", err, path, tt.want)
			}
		})
	}
}

// TestLoad_GoldenLineMissingExpected names the golden-set line and its own
// field name ("expected") when a default metric needs it.
func TestLoad_GoldenLineMissingExpected(t *testing.T) {
	dir := t.TempDir()
	testfile.Write(t, dir, "g.jsonl", `{"input": "a", "expected": "b"}`+"\n"+`{"input": "c"}`+"\n")
	path := testfile.Write(t, dir, "suite.json", `{"suite": "S", "agent": {"name": "A", "command": ["true"]}, "golden_set": "g.jsonl"}`)
	_, err := Load(path)
	want := `load suite: g.jsonl:2: $: default metric "semantic_accuracy" needs the line's expected (none given)`
	if err == nil || err.Error() != want {
		t.Fatalf("Load = %v\nwant %s", err, want)
	}
}
