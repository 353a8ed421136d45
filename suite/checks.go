package suite

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"github.com/agentevals-go/agentevals/internal/suggest"
	"github.com/agentevals-go/agentevals/score"
)

// Per-question checks and explicit defaults.
//
// A question (inline, or a golden-set line) may carry its own checks:
//
//	"checks": [{"type": "contains", "value": "Paris"},
//	           {"type": "matches", "name": "year", "pattern": "\\b1889\\b", "threshold": 1}]
//
// Each check's keys are "type" (a registry type), "name" and "threshold"
// (both optional); every other key is one of the type's params. A check
// becomes a metric of that question only. Naming rule: the metric is named
// by the check's type, or by its "name" when given; within one question
// every metric name is unique (two checks of one type need a "name" each),
// and a check's name may be neither the name of a suite evaluator nor the
// name of another registry type, so a metric name always means one thing
// in a run's evidence. Thresholds default like evaluators: 1, or 0.9 for
// judge-backed types.
//
// Which metrics a question is scored on:
//
//   - minimum_scores given: exactly those, plus the question's checks;
//   - otherwise, when the suite states "defaults": the defaults, plus the
//     question's checks;
//   - otherwise (the gem's rule, kept): a question without checks gets
//     every suite evaluator (or, with none declared, semantic_accuracy and
//     answer_relevancy at 0.9); a question with checks gets only its checks.
//
// "defaults" is an array of metric names (suite evaluators or types usable
// without params) at their default thresholds, or an object of metric name
// to threshold; [] means no defaults at all.

// checkKeys are the keys of an inline check that are not params.
var checkKeys = []string{"type", "name", "threshold"}

// parseChecks reads a question's inline checks. owner is the names that
// minimum_scores already uses in the question.
func (s *Suite) parseChecks(p Problems, path string, raw json.RawMessage, owner []Metric) []Evaluator {
	if raw == nil || isNull(raw) {
		return nil
	}
	var items []json.RawMessage
	if raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		p.add(path, `want an array of checks such as [{"type": "contains", "value": "Paris"}], got %s`, describe(raw))
		return nil
	}
	taken := map[string]string{}
	for _, m := range owner {
		taken[m.Name] = "minimum_scores"
	}
	var out []Evaluator
	for i, item := range items {
		ip := Index(path, i)
		if ev, ok := s.parseCheck(p, ip, item); ok {
			if first, dup := taken[ev.Name]; dup {
				p.add(ip, "metric name %q is already used by %s of this question: give the check a distinct \"name\"", ev.Name, first)
				continue
			}
			taken[ev.Name] = ip
			out = append(out, ev)
		}
	}
	return out
}

// parseCheck reads one inline check into an evaluator bound to its name.
func (s *Suite) parseCheck(p Problems, path string, raw json.RawMessage) (Evaluator, bool) {
	ms, ok := members(raw)
	if !ok {
		p.add(path, "want a check object with a \"type\", got %s", describe(raw))
		return Evaluator{}, false
	}
	var ev Evaluator
	params := map[string]json.RawMessage{}
	var typ, name, threshold, nested json.RawMessage
	for _, m := range ms {
		switch m.key {
		case "type":
			typ = m.value
		case "name":
			name = m.value
		case "threshold":
			threshold = m.value
		case "params":
			nested = m.value
		default:
			params[m.key] = m.value
		}
	}
	if nested != nil && !mergeNested(p, child(path, "params"), nested, params) {
		return ev, false
	}
	if typ == nil {
		p.add(child(path, "type"), "missing: want one of %s", strings.Join(s.Registry.Names(), ", "))
		return ev, false
	}
	if ev.Type, ok = p.nonEmpty(child(path, "type"), typ); !ok {
		return ev, false
	}
	def, known := s.Registry[ev.Type]
	if !known {
		p.add(child(path, "type"), "unknown check type %s%s (want one of %s; `evalrun checks` lists them)", suggest.Quote(ev.Type), closeTypes(s, ev.Type), strings.Join(s.Registry.Names(), ", "))
		return ev, false
	}
	ev.Name = ev.Type
	if name != nil {
		if ev.Name, ok = p.nonEmpty(child(path, "name"), name); !ok {
			return ev, false
		}
	}
	if _, clash := s.evaluator(ev.Name); clash {
		p.add(path, "metric name %q is a suite evaluator's name: give the check a distinct \"name\"", ev.Name)
		return ev, false
	}
	if _, isType := s.Registry[ev.Name]; isType && ev.Name != ev.Type {
		p.add(child(path, "name"), "%q is the name of another check type: choose a name that is not a type", ev.Name)
		return ev, false
	}
	ev.Threshold = 1
	if def.NeedsJudge {
		ev.Threshold = defaultThreshold
	}
	if threshold != nil {
		if ev.Threshold, ok = p.threshold(child(path, "threshold"), threshold); !ok {
			return ev, false
		}
	}
	if len(params) > 0 {
		b, err := json.Marshal(params) // sorted keys: a stable form for the digest
		if err != nil {
			p.add(path, "params: %v", err)
			return ev, false
		}
		ev.Params = b
	}
	sc, err := def.New(ev.Params, score.ContextJudge{})
	if err != nil {
		p.add(path, "%s check: %v", ev.Type, err)
		return ev, false
	}
	ev.scorer = sc
	return ev, s.checkOutcome(p, path, ev, true)
}

// mergeNested accepts a check written like an evaluator, its options under
// "params": they join the flat ones (the same check, the same digest). A
// key given both ways, or params that are not an object, is a problem.
func mergeNested(p Problems, path string, raw json.RawMessage, params map[string]json.RawMessage) bool {
	if isNull(raw) {
		return true
	}
	ms, ok := members(raw)
	if !ok {
		p.add(path, `want an object of the check's options (or write them flat in an inline check: {"type": "contains", "value": "Paris"}), got %s`, describe(raw))
		return false
	}
	for _, m := range ms {
		if _, dup := params[m.key]; dup {
			p.add(child(path, m.key), "given both flat and under \"params\": write the options flat in an inline check")
			return false
		}
		params[m.key] = m.value
	}
	return true
}

// parseDefaults reads the suite's "defaults": an array of metric names or
// an object of metric name to threshold.
func (s *Suite) parseDefaults(p Problems, raw json.RawMessage) {
	s.DefaultsStated = true
	s.Defaults = []Metric{}
	add := func(path, name string, threshold float64, explicit bool) {
		typ, _, ok := s.MetricDefinition(name)
		if !ok {
			p.add(path, "unknown metric %q (want a suite evaluator name or a type usable without params: %s)", name, s.usableTypes())
			return
		}
		for _, m := range s.Defaults {
			if m.Name == name {
				p.add(path, "%q is listed twice", name)
				return
			}
		}
		if !explicit {
			threshold = 1
			if ev, isEv := s.evaluator(name); isEv {
				threshold = ev.Threshold
			} else if s.Registry[typ].NeedsJudge {
				threshold = defaultThreshold
			}
		}
		s.Defaults = append(s.Defaults, Metric{Name: name, Threshold: threshold})
	}
	switch {
	case len(raw) > 0 && raw[0] == '[':
		var names []json.RawMessage
		if json.Unmarshal(raw, &names) != nil {
			p.add("$.defaults", "want an array of metric names, got %s", describe(raw))
			return
		}
		for i, n := range names {
			if name, ok := p.nonEmpty(Index("$.defaults", i), n); ok {
				add(Index("$.defaults", i), name, 0, false)
			}
		}
	case len(raw) > 0 && raw[0] == '{':
		ms, _ := members(raw)
		for _, m := range ms {
			if t, ok := p.threshold(child("$.defaults", m.key), m.value); ok {
				add(child("$.defaults", m.key), m.key, t, true)
			}
		}
	default:
		p.add("$.defaults", "want an array of metric names (or an object of metric name to threshold), got %s", describe(raw))
	}
}

// definitionFor resolves a metric name of case c: one of its inline
// checks, else a suite evaluator or a registry type used without params.
func (s *Suite) definitionFor(c *Case, name string) (typ string, params json.RawMessage, ok bool) {
	if ev, found := c.Check(name); found {
		return ev.Type, ev.Params, true
	}
	return s.MetricDefinition(name)
}

// Check returns the case's inline check called name.
func (c *Case) Check(name string) (Evaluator, bool) {
	for _, ev := range c.Checks {
		if ev.Name == name {
			return ev, true
		}
	}
	return Evaluator{}, false
}

// valueTypes are the check types whose fixed expected value is written for
// one question: as a default of several questions they are almost always a
// mistake (the "golden-set trap").
var valueTypes = map[string]string{"contains": "value", "exact_match": "value", "equals": "value",
	"matches": "pattern", "starts_with": "value", "ends_with": "value"}

// warnDefaults records a warning for each default metric that is a check
// with a fixed expected value applied by default to more than one
// question.
func (s *Suite) warnDefaults() {
	uses := map[string]int{}
	for _, c := range s.Cases {
		for _, name := range c.defaulted {
			uses[name]++
		}
	}
	var names []string
	for name := range uses {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		ev, ok := s.evaluator(name)
		if !ok || uses[name] < 2 {
			continue
		}
		param, fixed := valueTypes[ev.Type]
		if !fixed || !hasParam(ev.Params, param, "values") {
			continue
		}
		how := "the gem's rule makes every evaluator a default when the suite states no \"defaults\""
		if s.DefaultsStated {
			how = "it is listed in \"defaults\""
		}
		s.Warnings = append(s.Warnings, Problem{File: s.Path, Path: child("$.evaluators", name),
			Message: fmt.Sprintf("%s check with a fixed %s is a default of %d questions (%s); it was probably written for one question: move it into that question's \"checks\", or state \"defaults\" without it",
				ev.Type, param, uses[name], how)})
	}
}

// hasParam reports whether the params object has one of the names.
func hasParam(raw json.RawMessage, names ...string) bool {
	var ps map[string]json.RawMessage
	if json.Unmarshal(raw, &ps) != nil {
		return false
	}
	for _, n := range names {
		if _, ok := ps[n]; ok {
			return true
		}
	}
	return false
}

// checkDefinitions lists, for the digest, a case's inline checks.
func checkDefinitions(c *Case) []any {
	out := make([]any, len(c.Checks))
	for i, ev := range c.Checks {
		out[i] = map[string]any{"name": ev.Name, "type": ev.Type, "params": nullable(ev.Params), "threshold": ev.Threshold}
	}
	return out
}
