package score

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strings"
)

// DAG is a decision graph metric: a small tree of yes/no nodes, each a
// question to the judge or a deterministic check, whose edges lead to
// other nodes or to leaves holding the score. The score depends only on
// the nodes' verdicts: the same verdicts always walk the same path to the
// same leaf.
type DAG struct {
	root  string
	nodes map[string]*dagNode
	judge Judge
}

var _ Scorer = (*DAG)(nil)

// dagNode is one node: exactly one of question (a judge node) or check.
type dagNode struct {
	id        string
	question  string
	check     Scorer
	checkType string
	threshold float64
	yes, no   dagEdge
}

// dagEdge leads to a node (next) or is a leaf (score, label).
type dagEdge struct {
	next  string
	score float64
	label string
}

// MaxDAGNodes bounds a decision graph's size: a graph is a rule, not a
// program.
const MaxDAGNodes = 50

// dagParams are the JSON parameters of a dag evaluator.
type dagParams struct {
	Root  string                     `json:"root"`
	Nodes map[string]json.RawMessage `json:"nodes"`
}

type dagNodeParams struct {
	Judge     string          `json:"judge"`
	Check     json.RawMessage `json:"check"`
	Threshold *float64        `json:"threshold"`
	Yes       json.RawMessage `json:"yes"`
	No        json.RawMessage `json:"no"`
}

type dagCheckParams struct {
	Type   string          `json:"type"`
	Params json.RawMessage `json:"params"`
}

type dagLeafParams struct {
	Score *float64 `json:"score"`
	Label string   `json:"label"`
}

// addDAG registers the dag type; its check nodes are built from the
// deterministic types of r (never a judge metric, never another dag).
func addDAG(r Registry) {
	r["dag"] = Definition{NeedsJudge: true, Doc: dagDoc(), New: func(params json.RawMessage, judge Judge) (Scorer, error) {
		return newDAG(r, params, judge)
	}}
}

// newDAG builds and validates a decision graph. Every problem names its
// place in the params (nodes.ID.yes, ...).
func newDAG(r Registry, params json.RawMessage, judge Judge) (*DAG, error) {
	var p dagParams
	if err := decodeParams(params, &p, true); err != nil {
		return nil, fmt.Errorf(`%w: dag wants {"root": NODE_ID, "nodes": {NODE_ID: NODE, ...}} and no other key (each NODE a judge question or a check, with yes and no edges)`, ErrInvalidParams)
	}
	if judge == nil {
		return nil, fmt.Errorf("%w: dag needs a judge", ErrInvalidParams)
	}
	if len(p.Nodes) == 0 {
		return nil, fmt.Errorf("%w: nodes: want at least one node", ErrInvalidParams)
	}
	if len(p.Nodes) > MaxDAGNodes {
		return nil, fmt.Errorf("%w: nodes: %d nodes, want at most %d", ErrInvalidParams, len(p.Nodes), MaxDAGNodes)
	}
	d := &DAG{root: p.Root, nodes: make(map[string]*dagNode, len(p.Nodes)), judge: judge}
	for _, id := range sortedKeys(p.Nodes) {
		n, err := buildDAGNode(r, id, p.Nodes[id])
		if err != nil {
			return nil, fmt.Errorf("%w: nodes.%s%v", ErrInvalidParams, id, err)
		}
		d.nodes[id] = n
	}
	if _, ok := d.nodes[p.Root]; !ok {
		return nil, fmt.Errorf("%w: root: %q is not a node (want one of %s)", ErrInvalidParams, p.Root, strings.Join(sortedKeys(p.Nodes), ", "))
	}
	if err := d.checkShape(); err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidParams, err)
	}
	return d, nil
}

// buildDAGNode reads one node; its error starts with the sub-path (".yes: ...").
func buildDAGNode(r Registry, id string, raw json.RawMessage) (*dagNode, error) {
	var np dagNodeParams
	if err := decodeParams(raw, &np, true); err != nil {
		return nil, fmt.Errorf(`: want {"judge": "yes/no question"} or {"check": {"type": ..., "params": ...}} with "yes" and "no": %v`, err)
	}
	n := &dagNode{id: id, question: strings.TrimSpace(np.Judge), threshold: 1}
	hasCheck := len(np.Check) > 0 && string(np.Check) != "null"
	switch {
	case n.question != "" && hasCheck:
		return nil, fmt.Errorf(`: give "judge" or "check", not both`)
	case n.question == "" && !hasCheck:
		return nil, fmt.Errorf(`: want "judge" (a yes/no question) or "check" (a deterministic check)`)
	case hasCheck:
		var cp dagCheckParams
		if err := decodeParams(np.Check, &cp, true); err != nil {
			return nil, fmt.Errorf(`.check: want {"type": "contains", "params": {...}}: %v`, err)
		}
		def, ok := r[cp.Type]
		if !ok || def.NeedsJudge || cp.Type == "dag" {
			return nil, fmt.Errorf(".check.type: %q is not a deterministic check (want one of %s)", cp.Type, strings.Join(deterministicTypes(r), ", "))
		}
		sc, err := def.New(cp.Params, nil)
		if err != nil {
			return nil, fmt.Errorf(".check.params: %v", err)
		}
		n.check, n.checkType = sc, cp.Type
		if np.Threshold != nil {
			if t := *np.Threshold; t < 0 || t > 1 || math.IsNaN(t) {
				return nil, fmt.Errorf(".threshold: %v is outside 0..1", t)
			}
			n.threshold = *np.Threshold
		}
	case np.Threshold != nil:
		return nil, fmt.Errorf(".threshold: only a check node has a threshold (a judge node answers yes or no)")
	}
	var err error
	if n.yes, err = parseDAGEdge(np.Yes); err != nil {
		return nil, fmt.Errorf(".yes: %v", err)
	}
	if n.no, err = parseDAGEdge(np.No); err != nil {
		return nil, fmt.Errorf(".no: %v", err)
	}
	return n, nil
}

// parseDAGEdge reads an edge: a node id (string) or a leaf {"score": 0..1}.
func parseDAGEdge(raw json.RawMessage) (dagEdge, error) {
	s := strings.TrimSpace(string(raw))
	if s == "" || s == "null" {
		return dagEdge{}, fmt.Errorf(`missing: want a node id or a leaf {"score": 0..1}`)
	}
	var next string
	if json.Unmarshal(raw, &next) == nil {
		if strings.TrimSpace(next) == "" {
			return dagEdge{}, fmt.Errorf("want a node id, got an empty string")
		}
		return dagEdge{next: next}, nil
	}
	var leaf dagLeafParams
	if err := decodeParams(raw, &leaf, true); err != nil || leaf.Score == nil {
		return dagEdge{}, fmt.Errorf(`want a node id or a leaf {"score": 0..1, "label": "..."}, got %s`, clip(s))
	}
	if v := *leaf.Score; v < 0 || v > 1 || math.IsNaN(v) {
		return dagEdge{}, fmt.Errorf("score: %v is outside 0..1", v)
	}
	return dagEdge{score: *leaf.Score, label: leaf.Label}, nil
}

// checkShape refuses edges to unknown nodes, cycles and nodes the root
// cannot reach.
func (d *DAG) checkShape() error {
	for _, id := range sortedKeys(d.nodes) {
		n := d.nodes[id]
		for _, e := range []struct {
			name string
			edge dagEdge
		}{{"yes", n.yes}, {"no", n.no}} {
			if e.edge.next != "" && d.nodes[e.edge.next] == nil {
				return fmt.Errorf("nodes.%s.%s: %q is not a node (want one of %s)", id, e.name, e.edge.next, strings.Join(sortedKeys(d.nodes), ", "))
			}
		}
	}
	state := map[string]int{} // 1 on the current path, 2 done
	var visit func(id string, path []string) error
	visit = func(id string, path []string) error {
		state[id] = 1
		n := d.nodes[id]
		for _, e := range []struct {
			name string
			next string
		}{{"yes", n.yes.next}, {"no", n.no.next}} {
			switch {
			case e.next == "":
			case state[e.next] == 1:
				return fmt.Errorf("nodes.%s.%s: leads back to %q, a cycle (%s → %s)", id, e.name, e.next, strings.Join(append(path, id), " → "), e.next)
			case state[e.next] == 0:
				if err := visit(e.next, append(path, id)); err != nil {
					return err
				}
			}
		}
		state[id] = 2
		return nil
	}
	if err := visit(d.root, nil); err != nil {
		return err
	}
	for _, id := range sortedKeys(d.nodes) {
		if state[id] == 0 {
			return fmt.Errorf("nodes.%s: unreachable from the root %q, so its leaves can never score", id, d.root)
		}
	}
	return nil
}

// DAGStep is one node on the path a sample took.
type DAGStep struct {
	Node     string  `json:"node"`
	Kind     string  `json:"kind"` // "judge" or "check"
	Question string  `json:"question,omitempty"`
	Check    string  `json:"check,omitempty"`
	Score    float64 `json:"score"` // the judge's or the check's score
	Verdict  string  `json:"verdict"`
	Reason   string  `json:"reason"`
}

// Score walks the graph from the root: each node's verdict picks its yes
// or no edge until a leaf, whose score is the metric's. A node that cannot
// decide (a judge or check error) is the metric's error.
func (d *DAG) Score(ctx context.Context, s Sample) (Assessment, error) {
	var path []DAGStep
	var usage *Usage
	id := d.root
	for range len(d.nodes) + 1 {
		n := d.nodes[id]
		step, u, err := d.decide(ctx, n, s)
		if err != nil {
			return Assessment{}, dagError(err, id, path)
		}
		if u != nil {
			sum := addUsage(valueOr(usage), *u)
			usage = &sum
		}
		path = append(path, step)
		e := n.no
		if step.Verdict == "yes" {
			e = n.yes
		}
		if e.next == "" {
			return dagAssessment(path, e, usage), nil
		}
		id = e.next
	}
	return Assessment{}, &Error{Kind: KindInvalidReply, Message: "decision graph: the walk did not reach a leaf"} // checkShape makes this unreachable
}

// decide asks one node for its verdict.
func (d *DAG) decide(ctx context.Context, n *dagNode, s Sample) (DAGStep, *Usage, error) {
	if n.check != nil {
		a, err := n.check.Score(ctx, s)
		if err != nil {
			return DAGStep{}, nil, err
		}
		return DAGStep{Node: n.id, Kind: "check", Check: n.checkType, Score: a.Score, Verdict: yesNo(a.Score >= n.threshold), Reason: a.Reason}, nil, nil
	}
	spec := metricSpec{name: "dag", rubric: "YES/NO QUESTION about the answer, written by the suite author:\n" + n.question +
		"\n\nScore: 1 when the answer to this question is yes, 0 when it is no. Decide from the evaluation context only."}
	a, err := d.judge.Assess(ctx, systemPrompt(spec.rubric), userPrompt(spec, s, false))
	if err != nil {
		return DAGStep{}, nil, err
	}
	return DAGStep{Node: n.id, Kind: "judge", Question: n.question, Score: a.Score, Verdict: yesNo(a.Score >= 0.5), Reason: a.Reason}, a.Usage, nil
}
