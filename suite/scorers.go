package suite

import (
	"fmt"

	"github.com/agentevals-go/agentevals/score"
)

// typeScorers holds the scorer of each registry type a loaded suite uses
// by name, without parameters; nil where the type cannot be built so.
type typeScorers map[string]score.Scorer

// typeScorer returns the scorer of registry type name used without
// parameters; false when there is no such type or it needs parameters.
// While Load parses, each one is built once and kept; after that (seal),
// a type no question used is built afresh on every call, so a loaded suite
// is only ever read.
func (s *Suite) typeScorer(name string) (score.Scorer, bool) {
	if sc, kept := s.typed[name]; kept {
		return sc, sc != nil
	}
	def, found := s.Registry[name]
	if !found {
		return nil, false
	}
	sc, err := def.New(nil, score.ContextJudge{})
	if err != nil {
		sc = nil
	}
	if s.typed != nil && !s.sealed {
		s.typed[name] = sc
	}
	return sc, sc != nil
}

// seal ends Load's building: every metric name of every question has been
// resolved, and its scorer kept, before the suite is handed out.
func (s *Suite) seal() {
	for _, c := range s.Cases {
		for _, m := range c.Metrics {
			if _, inline := c.Check(m.Name); !inline {
				s.MetricDefinition(m.Name)
			}
		}
	}
	s.sealed = true
}

// Scorer returns the scorer of case c's metric name: its inline check's,
// else the suite evaluator's or the registry type's of that name (only
// those when c is nil); false when the name resolves to none. A loaded suite built each of them once,
// when it was loaded, with score.ContextJudge: judge-backed scorers ask the
// judge of the context they score under (score.WithJudge). Only an
// evaluator made by hand, not by Load, is built here, on every call.
func (s *Suite) Scorer(c *Case, name string) (score.Scorer, bool, error) {
	var ev Evaluator
	inline := false
	if c != nil {
		ev, inline = c.Check(name)
	}
	if !inline {
		var found bool
		if ev, found = s.evaluator(name); !found {
			sc, ok := s.typeScorer(name)
			return sc, ok, nil
		}
	}
	if ev.scorer != nil {
		return ev.scorer, true, nil
	}
	sc, err := s.Registry.Build(ev.Type, ev.Params, score.ContextJudge{})
	if err != nil {
		where := fmt.Sprintf("metric %q", name)
		if inline {
			where = fmt.Sprintf("%s: check %q", c.Source, name)
		}
		return nil, false, fmt.Errorf("%s: %w", where, err)
	}
	return sc, true, nil
}
