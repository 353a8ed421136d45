package score

import (
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/internal/jsonvalue"
)

// The trajectory modes of action_group. Without a "mode" (or "arguments",
// or "ignore_paths") param action_group keeps its original rule (ordered,
// exact, scored along a longest common subsequence, see ActionGroup); with
// one it matches the trace under that mode:
//
//	strict     the same calls in the same places: score = positions that
//	           match / max(expected, observed)
//	in_order   the expected calls appear in order; other calls may come
//	           between: score = longest common subsequence / expected
//	unordered  the same calls in any order: score = matched pairs /
//	           max(expected, observed)
//	subset     every observed call was expected (extra calls fail):
//	           score = matched / observed
//	superset   every expected call was observed (extra calls are fine):
//	           score = matched / expected
//
// An empty side that makes the denominator 0 scores 1. Arguments compare
// "exact" (as JSON values) or "partial" (every key the expected arguments
// give must be there with a matching value; observed keys not expected
// are ignored; arrays match element by element and must have the same
// length). "ignore_paths" removes argument paths from both sides before
// comparing: dotted keys, "[n]" or ".n" for an array index and "*" for
// any key or index ("query.limit", "$.filters.*.id"). As in the original
// rule, groups must be equal only when both calls give one.
const (
	ModeStrict    = "strict"
	ModeInOrder   = "in_order"
	ModeUnordered = "unordered"
	ModeSubset    = "subset"
	ModeSuperset  = "superset"
)

// trajectoryModes lists the modes in display order.
var trajectoryModes = []string{ModeStrict, ModeInOrder, ModeUnordered, ModeSubset, ModeSuperset}

// maxMatchCells bounds expected × observed for the modes (the unordered
// matching is quadratic in it), so a runaway trace is an error.
const maxMatchCells = 1 << 18

// trajectoryRule is how action_group matches when given a mode.
type trajectoryRule struct {
	mode    string
	partial bool
	ignore  [][]string // paths, split into segments
}

// parseTrajectoryRule reads the mode params; ok is false when none is
// given (the original rule applies).
func parseTrajectoryRule(p params) (trajectoryRule, bool, error) {
	if !p.has("mode") && !p.has("arguments") && !p.has("ignore_paths") {
		return trajectoryRule{}, false, nil
	}
	r := trajectoryRule{mode: ModeStrict}
	if m, ok, err := p.text("mode", true); err != nil {
		return r, false, err
	} else if ok {
		if !inList(trajectoryModes, m) {
			return r, false, fmt.Errorf("%w: param \"mode\": expected one of %s, got %s", ErrInvalidParams, strings.Join(quoteAll(trajectoryModes), ", "), quote(m))
		}
		r.mode = m
	}
	if a, ok, err := p.text("arguments", true); err != nil {
		return r, false, err
	} else if ok {
		switch a {
		case "exact":
		case "partial":
			r.partial = true
		default:
			return r, false, fmt.Errorf("%w: param \"arguments\": expected \"exact\" or \"partial\", got %s", ErrInvalidParams, quote(a))
		}
	}
	paths, _, err := p.texts("ignore_paths")
	if err != nil {
		return r, false, err
	}
	for i, path := range paths {
		segs, err := splitArgPath(path)
		if err != nil {
			return r, false, fmt.Errorf("%w: param \"ignore_paths[%d]\": %v", ErrInvalidParams, i, err)
		}
		r.ignore = append(r.ignore, segs)
	}
	return r, true, nil
}

// splitArgPath splits "$.a.b[0].*" into ["a","b","0","*"].
func splitArgPath(path string) ([]string, error) {
	p := strings.TrimPrefix(strings.TrimPrefix(path, "$"), ".")
	p = strings.NewReplacer("[", ".", "]", "").Replace(p)
	if p == "" {
		return nil, fmt.Errorf("expected a path such as \"query.limit\", got %s", quote(path))
	}
	segs := strings.Split(p, ".")
	for _, s := range segs {
		if s == "" {
			return nil, fmt.Errorf("path %s has an empty segment", quote(path))
		}
	}
	return segs, nil
}

// without returns v with every value at the path removed (v is copied
// where it changes, never modified).
func without(v any, path []string) any {
	if len(path) == 0 {
		return v
	}
	head, rest := path[0], path[1:]
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			switch {
			case (head == "*" || head == k) && len(rest) == 0:
				continue
			case head == "*" || head == k:
				out[k] = without(x, rest)
			default:
				out[k] = x
			}
		}
		return out
	case []any:
		out := make([]any, 0, len(t))
		for i, x := range t {
			match := head == "*" || head == fmt.Sprint(i)
			switch {
			case match && len(rest) == 0:
				continue
			case match:
				out = append(out, without(x, rest))
			default:
				out = append(out, x)
			}
		}
		return out
	}
	return v
}

// prepare removes the ignored paths from a call's arguments.
func (r trajectoryRule) prepare(c call) call {
	for _, path := range r.ignore {
		c.args = without(c.args, path)
	}
	if m, ok := c.args.(map[string]any); ok && len(m) == 0 {
		c.args = nil
	}
	return c
}

// matches reports whether an observed call satisfies an expected one.
func (r trajectoryRule) matches(exp, obs call) bool {
	if !exp.valid || !obs.valid || exp.Name != obs.Name || !sameGroup(exp.Group, obs.Group) {
		return false
	}
	if r.partial {
		return partialMatch(exp.args, obs.args)
	}
	return jsonvalue.Same(exp.args, obs.args)
}

// partialMatch reports whether got has everything want gives.
func partialMatch(want, got any) bool {
	switch w := want.(type) {
	case nil:
		return true
	case map[string]any:
		g, ok := got.(map[string]any)
		if !ok {
			return false
		}
		for k, wv := range w {
			gv, ok := g[k]
			if !ok || !partialMatch(wv, gv) {
				return false
			}
		}
		return true
	case []any:
		g, ok := got.([]any)
		if !ok || len(g) != len(w) {
			return false
		}
		for i := range w {
			if !partialMatch(w[i], g[i]) {
				return false
			}
		}
		return true
	}
	return jsonvalue.Same(want, got)
}

// trajectoryMatch is the outcome of matching under a mode: which expected
// call each observed one matched (-1: none).
type trajectoryMatch struct {
	pairs      []callPair
	unExpected []int // expected indexes left unmatched
	unObserved []int // observed indexes left unmatched
}

// match aligns the traces under the rule's mode.
func (r trajectoryRule) match(exp, obs []call) trajectoryMatch {
	var pairs []callPair
	switch r.mode {
	case ModeStrict:
		for i := range min(len(exp), len(obs)) {
			if r.matches(exp[i], obs[i]) {
				pairs = append(pairs, callPair{i, i})
			}
		}
	case ModeInOrder:
		pairs = lcsPairs(exp, obs, r.matches)
	default:
		pairs = bipartite(exp, obs, r.matches)
	}
	usedE, usedO := make([]bool, len(exp)), make([]bool, len(obs))
	for _, p := range pairs {
		usedE[p.exp], usedO[p.obs] = true, true
	}
	m := trajectoryMatch{pairs: pairs}
	for i, u := range usedE {
		if !u {
			m.unExpected = append(m.unExpected, i)
		}
	}
	for j, u := range usedO {
		if !u {
			m.unObserved = append(m.unObserved, j)
		}
	}
	return m
}

// score is the mode's fraction (1 when its denominator is 0).
func (r trajectoryRule) score(m trajectoryMatch, n, k int) float64 {
	den := max(n, k)
	switch r.mode {
	case ModeInOrder, ModeSuperset:
		den = n
	case ModeSubset:
		den = k
	}
	if den == 0 {
		return 1
	}
	return float64(len(m.pairs)) / float64(den)
}

// lcsTable is the longest-common-subsequence table of two traces under a
// match predicate: lcs[i][j] is the LCS length of exp[i:] and obs[j:].
func lcsTable(exp, obs []call, eq func(a, b call) bool) [][]int32 {
	n, m := len(exp), len(obs)
	lcs := make([][]int32, n+1)
	for i := range lcs {
		lcs[i] = make([]int32, m+1)
	}
	for i := n - 1; i >= 0; i-- {
		for j := m - 1; j >= 0; j-- {
			if eq(exp[i], obs[j]) {
				lcs[i][j] = lcs[i+1][j+1] + 1
			} else {
				lcs[i][j] = max(lcs[i+1][j], lcs[i][j+1])
			}
		}
	}
	return lcs
}

// lcsPairs is a longest common subsequence under a match predicate.
func lcsPairs(exp, obs []call, eq func(a, b call) bool) []callPair {
	n, m := len(exp), len(obs)
	lcs := lcsTable(exp, obs, eq)
	var pairs []callPair
	for i, j := 0, 0; i < n && j < m; {
		switch {
		case eq(exp[i], obs[j]) && lcs[i][j] == lcs[i+1][j+1]+1:
			pairs = append(pairs, callPair{i, j})
			i, j = i+1, j+1
		case lcs[i+1][j] >= lcs[i][j+1]:
			i++
		default:
			j++
		}
	}
	return pairs
}

// bipartite is a maximum matching of expected to observed calls
// (augmenting paths), so one loose expected call cannot take the only
// observed call a stricter one could match.
func bipartite(exp, obs []call, eq func(a, b call) bool) []callPair {
	edges := make([][]int, len(exp))
	for i := range exp {
		for j := range obs {
			if eq(exp[i], obs[j]) {
				edges[i] = append(edges[i], j)
			}
		}
	}
	owner := make([]int, len(obs))
	for j := range owner {
		owner[j] = -1
	}
	var try func(i int, seen []bool) bool
	try = func(i int, seen []bool) bool {
		for _, j := range edges[i] {
			if seen[j] {
				continue
			}
			seen[j] = true
			if owner[j] < 0 || try(owner[j], seen) {
				owner[j] = i
				return true
			}
		}
		return false
	}
	for i := range exp {
		try(i, make([]bool, len(obs)))
	}
	var pairs []callPair
	for j, i := range owner {
		if i >= 0 {
			pairs = append(pairs, callPair{i, j})
		}
	}
	return pairs
}

// arguments names how arguments compare: "exact" or "partial".
func (r trajectoryRule) arguments() string {
	if r.partial {
		return "partial"
	}
	return "exact"
}

// reason explains the match in one line.
func (r trajectoryRule) reason(m trajectoryMatch, exp, obs []call, score float64) string {
	args := r.arguments()
	head := fmt.Sprintf("%s (arguments %s): %d of %d expected calls matched among %d observed (score %.3g)",
		r.mode, args, len(m.pairs), len(exp), len(obs), score)
	parts := []string{head}
	if len(m.unExpected) > 0 && r.mode != ModeSubset {
		parts = append(parts, "missing: "+listCalls(m.unExpected, func(e int) string { return fmt.Sprintf("#%d %s", e+1, exp[e].describe()) }))
	}
	if len(m.unObserved) > 0 && r.mode != ModeInOrder && r.mode != ModeSuperset {
		parts = append(parts, "extra: "+listCalls(m.unObserved, func(o int) string { return fmt.Sprintf("#%d %s", o+1, obs[o].describe()) }))
	}
	return strings.Join(parts, "; ")
}

// scoreTrajectory is action_group under a mode.
func (r trajectoryRule) scoreTrajectory(expected, observed []call) (Assessment, error) {
	if len(expected)*len(observed) > maxMatchCells {
		return Assessment{}, &Error{Kind: "trace_too_long",
			Message: fmt.Sprintf("action_group: %d expected and %d observed calls are too many to match", len(expected), len(observed))}
	}
	for i := range expected {
		expected[i] = r.prepare(expected[i])
	}
	for j := range observed {
		observed[j] = r.prepare(observed[j])
	}
	m := r.match(expected, observed)
	score := r.score(m, len(expected), len(observed))
	return Assessment{Score: score, Reason: r.reason(m, expected, observed, score), Details: map[string]any{
		"mode": r.mode, "arguments": r.arguments(), "expected": len(expected), "observed": len(observed), "matched": len(m.pairs),
		"missing": len(m.unExpected), "extra": len(m.unObserved),
	}}, nil
}
