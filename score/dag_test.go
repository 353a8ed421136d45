package score

import (
	"context"
	"encoding/json"
	"errors"
	"strings"
	"testing"
)

// verdictJudge answers a DAG judge node by the question it finds in the
// system prompt: 1 (yes) or 0 (no) from answers, or an error when the
// question is not listed.
type verdictJudge struct {
	answers map[string]float64
	calls   int
}

func (j *verdictJudge) Assess(_ context.Context, system, _ string) (Assessment, error) {
	j.calls++
	for q, v := range j.answers {
		if strings.Contains(system, q) {
			return Assessment{Score: v, Reason: "about " + q, Usage: &Usage{InputTokens: 10, OutputTokens: 2}}, nil
		}
	}
	return Assessment{}, &Error{Kind: KindServerError, Message: "503 from the scripted judge"}
}

const refundDAG = `{"root": "deadline", "nodes": {
  "deadline": {"check": {"type": "contains", "params": {"value": "30 days"}}, "yes": "polite", "no": {"score": 0, "label": "wrong deadline"}},
  "polite": {"judge": "Is the answer polite?", "yes": "receipt", "no": {"score": 0.5, "label": "right but curt"}},
  "receipt": {"judge": "Does it mention the receipt?", "yes": {"score": 1}, "no": {"score": 0.8}}}}`

func TestDAG_Score(t *testing.T) {
	tests := []struct {
		name    string
		answer  string
		polite  float64
		receipt float64
		want    float64
		path    string
	}{
		{"wrong deadline stops at the check", "Within 7 days.", 1, 1, 0, "deadline=no"},
		{"curt", "30 days.", 0, 1, 0.5, "deadline=yes → polite=no"},
		{"polite without receipt", "Gladly: 30 days.", 0.9, 0.2, 0.8, "deadline=yes → polite=yes → receipt=no"},
		{"everything", "Gladly: 30 days with the receipt.", 0.7, 0.5, 1, "deadline=yes → polite=yes → receipt=yes"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			j := &verdictJudge{answers: map[string]float64{"polite": tt.polite, "receipt": tt.receipt}}
			d, err := newDAG(Builtins(), json.RawMessage(refundDAG), j)
			if err != nil {
				t.Fatal(err)
			}
			s := Sample{Question: json.RawMessage(`"How long?"`), Output: json.RawMessage(mustJSON(tt.answer))}
			// The same verdicts give the same score, every time.
			for range 3 {
				a, err := d.Score(context.Background(), s)
				if err != nil {
					t.Fatal(err)
				}
				if a.Score != tt.want || !strings.Contains(a.Reason, tt.path+" → score") {
					t.Errorf("score %v, reason %q; want %v along %s", a.Score, a.Reason, tt.want, tt.path)
				}
				steps := a.Details["dag_path"].([]DAGStep)
				if len(steps) != strings.Count(tt.path, "→")+1 || steps[0].Kind != "check" || steps[0].Reason == "" {
					t.Errorf("path = %+v", steps)
				}
				for _, st := range steps[1:] {
					if st.Kind != "judge" || !strings.HasPrefix(st.Reason, "about ") {
						t.Errorf("judge step without its reason: %+v", st)
					}
				}
			}
		})
	}
}

// TestDAG_Errors: a node that cannot decide is the metric's error, never
// a walk down its "no" edge.
func TestDAG_Errors(t *testing.T) {
	j := &verdictJudge{answers: map[string]float64{"polite": 1}} // the receipt node errors
	d, err := newDAG(Builtins(), json.RawMessage(refundDAG), j)
	if err != nil {
		t.Fatal(err)
	}
	_, err = d.Score(context.Background(), Sample{Output: json.RawMessage(`"30 days, thanks"`)})
	var se *Error
	if !errors.As(err, &se) || se.Kind != KindServerError || se.Details["dag_node"] != "receipt" || len(se.Details["dag_path"].([]DAGStep)) != 2 {
		t.Fatalf("error = %#v", err)
	}
}

// TestDAG_Invalid: every malformed graph is refused at load with the
// place in its params.
func TestDAG_Invalid(t *testing.T) {
	check := `{"check": {"type": "contains", "params": {"value": "x"}}, `
	tests := []struct{ name, params, want string }{
		{"no params", ``, "dag wants"},
		{"unknown root", `{"root": "x", "nodes": {"a": {"judge": "q?", "yes": {"score": 1}, "no": {"score": 0}}}}`, `root: "x" is not a node`},
		{"missing child", `{"root": "a", "nodes": {"a": {"judge": "q?", "yes": {"score": 1}}}}`, "nodes.a.no: missing"},
		{"unknown child", `{"root": "a", "nodes": {"a": {"judge": "q?", "yes": "b", "no": {"score": 0}}}}`, `nodes.a.yes: "b" is not a node`},
		{"leaf above 1", `{"root": "a", "nodes": {"a": {"judge": "q?", "yes": {"score": 1.5}, "no": {"score": 0}}}}`, "nodes.a.yes: score: 1.5 is outside 0..1"},
		{"leaf below 0", `{"root": "a", "nodes": {"a": {"judge": "q?", "yes": {"score": 1}, "no": {"score": -0.1}}}}`, "nodes.a.no: score: -0.1 is outside 0..1"},
		{"leaf without score", `{"root": "a", "nodes": {"a": {"judge": "q?", "yes": {"label": "x"}, "no": {"score": 0}}}}`, "nodes.a.yes: want a node id or a leaf"},
		{"cycle", `{"root": "a", "nodes": {"a": {"judge": "q?", "yes": "b", "no": {"score": 0}}, "b": ` + check + `"yes": "a", "no": {"score": 1}}}}`, `nodes.b.yes: leads back to "a", a cycle (a → b → a)`},
		{"self loop", `{"root": "a", "nodes": {"a": {"judge": "q?", "yes": "a", "no": {"score": 0}}}}`, `nodes.a.yes: leads back to "a"`},
		{"unreachable", `{"root": "a", "nodes": {"a": {"judge": "q?", "yes": {"score": 1}, "no": {"score": 0}}, "z": {"judge": "q?", "yes": {"score": 1}, "no": {"score": 0}}}}`, `nodes.z: unreachable from the root "a"`},
		{"judge and check", `{"root": "a", "nodes": {"a": {"judge": "q?", "check": {"type": "valid_json"}, "yes": {"score": 1}, "no": {"score": 0}}}}`, `nodes.a: give "judge" or "check", not both`},
		{"judge metric as check", `{"root": "a", "nodes": {"a": {"check": {"type": "correctness"}, "yes": {"score": 1}, "no": {"score": 0}}}}`, `nodes.a.check.type: "correctness" is not a deterministic check`},
		{"bad check params", `{"root": "a", "nodes": {"a": {"check": {"type": "contains"}, "yes": {"score": 1}, "no": {"score": 0}}}}`, "nodes.a.check.params:"},
		{"threshold on a judge node", `{"root": "a", "nodes": {"a": {"judge": "q?", "threshold": 0.5, "yes": {"score": 1}, "no": {"score": 0}}}}`, "nodes.a.threshold: only a check node"},
		{"unknown key", `{"root": "a", "nodes": {"a": {"judge": "q?", "then": 1, "yes": {"score": 1}, "no": {"score": 0}}}}`, `nodes.a: want`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := newDAG(Builtins(), json.RawMessage(tt.params), &verdictJudge{})
			if !errors.Is(err, ErrInvalidParams) || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("error = %v, want ErrInvalidParams with %q", err, tt.want)
			}
		})
	}
}

func mustJSON(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}
