package suite

// This file reads the suite's named evaluators and resolves a metric name
// to its registry type.

import (
	"encoding/json"
	"strings"

	"github.com/agentevals-go/agentevals/internal/suggest"
	"github.com/agentevals-go/agentevals/score"
)

func (s *Suite) parseEvaluators(p Problems, raw json.RawMessage) {
	ms, ok := members(raw)
	if !ok {
		p.add("$.evaluators", "want an object of named evaluators, got %s", describe(raw))
		return
	}
	for _, m := range ms {
		path := child("$.evaluators", m.key)
		if strings.TrimSpace(m.key) == "" {
			p.add(path, "want a non-empty evaluator name")
			continue
		}
		obj := p.objectHint(path, m.value, `: an evaluator's options go under "params", as in {"type": "contains", "params": {"value": "Paris"}}; an inline check takes them flat`, "type", "params", "threshold")
		if obj == nil {
			continue
		}
		ev := Evaluator{Name: m.key, Params: obj["params"]}
		typ, ok := obj["type"]
		if !ok {
			p.add(child(path, "type"), "missing: want one of %s", strings.Join(s.Registry.Names(), ", "))
			continue
		}
		if ev.Type, ok = p.nonEmpty(child(path, "type"), typ); !ok {
			continue
		}
		def, known := s.Registry[ev.Type]
		if !known {
			p.add(child(path, "type"), "unknown evaluator type %s%s (want one of %s)", suggest.Quote(ev.Type), closeTypes(s, ev.Type), strings.Join(s.Registry.Names(), ", "))
			continue
		}
		if ev.Params != nil && !isNull(ev.Params) && ev.Params[0] != '{' {
			p.add(child(path, "params"), "want an object, got %s", describe(ev.Params))
			continue
		}
		ev.Threshold = 1
		if def.NeedsJudge {
			ev.Threshold = defaultThreshold
		}
		if t, ok := obj["threshold"]; ok {
			ev.Threshold, _ = p.threshold(child(path, "threshold"), t)
		}
		sc, err := def.New(ev.Params, score.ContextJudge{})
		if err != nil {
			p.add(child(path, "params"), "%v", err)
			continue
		}
		ev.scorer = sc
		if !s.checkOutcome(p, path, ev, false) {
			continue
		}
		s.Evaluators = append(s.Evaluators, ev)
	}
}

// evaluator returns the suite evaluator called name.
func (s *Suite) evaluator(name string) (Evaluator, bool) {
	for _, ev := range s.Evaluators {
		if ev.Name == name {
			return ev, true
		}
	}
	return Evaluator{}, false
}

// MetricDefinition resolves a metric name: a suite evaluator, or a registry
// type used without parameters.
func (s *Suite) MetricDefinition(name string) (typ string, params json.RawMessage, ok bool) {
	if ev, found := s.evaluator(name); found {
		return ev.Type, ev.Params, true
	}
	if _, ok := s.typeScorer(name); !ok {
		return "", nil, false
	}
	return name, nil, true
}
