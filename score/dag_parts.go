package score

import (
	"encoding/json"
	"errors"
	"fmt"
	"sort"
	"strings"
)

// dagAssessment is the score of the leaf reached, the path in the details
// (node by node: its verdict and reason) and the summed judge usage.
func dagAssessment(path []DAGStep, leaf dagEdge, usage *Usage) Assessment {
	var walk []string
	for _, st := range path {
		walk = append(walk, st.Node+"="+st.Verdict)
	}
	reason := fmt.Sprintf("Decision path %s → score %g", strings.Join(walk, " → "), leaf.score)
	if leaf.label != "" {
		reason += " (" + leaf.label + ")"
	}
	last := path[len(path)-1]
	reason += ". Last node: " + last.Reason
	details := map[string]any{"metric_type": "dag", "dag_path": path,
		"dag_leaf": map[string]any{"score": leaf.score, "label": leaf.label}}
	return Assessment{Score: leaf.score, Reason: reason, Details: details, Usage: usage}
}

// dagError is a node's failure as the metric's error, with the path
// walked before it.
func dagError(err error, node string, path []DAGStep) error {
	var se *Error
	if !errors.As(err, &se) {
		se = &Error{Kind: KindProviderError, Message: err.Error()}
	}
	out := &Error{Kind: se.Kind, Message: fmt.Sprintf("decision graph node %q: %s", node, se.Message), Details: map[string]any{}}
	for k, v := range se.Details {
		out.Details[k] = v
	}
	out.Details["metric_type"] = "dag"
	out.Details["dag_node"] = node
	out.Details["dag_path"] = path
	return out
}

func yesNo(b bool) string {
	if b {
		return "yes"
	}
	return "no"
}

func valueOr(u *Usage) Usage {
	if u == nil {
		return Usage{}
	}
	return *u
}

func sortedKeys[V any](m map[string]V) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

// deterministicTypes lists the types a check node may use.
func deterministicTypes(r Registry) []string {
	var out []string
	for _, n := range r.Names() {
		if !r[n].NeedsJudge && n != "dag" {
			out = append(out, n)
		}
	}
	return out
}

func dagDoc() Doc {
	return Doc{Summary: "A decision graph of yes/no nodes (judge questions or deterministic checks) whose leaves hold the score; the path taken is kept with the verdict.",
		Params: []Param{
			{Name: "root", Schema: nonEmptyString, Required: true, Description: "The id of the first node."},
			{Name: "nodes", Schema: map[string]any{"type": "object", "minProperties": 1}, Required: true,
				Description: `Node id → {"judge": "yes/no question"} or {"check": {"type": "contains", "params": {...}}, "threshold": 1}, each with "yes" and "no": a node id or a leaf {"score": 0..1, "label": "..."}.`},
		},
		Example: json.RawMessage(`{"root": "cites", "nodes": {` +
			`"cites": {"check": {"type": "contains", "params": {"value": "30 days"}}, "yes": "polite", "no": {"score": 0, "label": "wrong deadline"}},` +
			`"polite": {"judge": "Is the answer polite?", "yes": {"score": 1}, "no": {"score": 0.5, "label": "right but curt"}}}}`)}
}

// DAGPathOf reads the decision path stored with a dag metric: in its
// details (response_metadata.metric_details of its name) or, for a walk
// that stopped at a failing node, in its error details. It returns nil
// when neither holds one.
func DAGPathOf(details map[string]json.RawMessage, errorDetails json.RawMessage) []DAGStep {
	var path []DAGStep
	if raw, ok := details["dag_path"]; ok && json.Unmarshal(raw, &path) == nil && len(path) > 0 {
		return path
	}
	var ed struct {
		Path []DAGStep `json:"dag_path"`
	}
	if len(errorDetails) > 0 && json.Unmarshal(errorDetails, &ed) == nil {
		return ed.Path
	}
	return nil
}
