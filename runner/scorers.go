package runner

import (
	"fmt"

	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// ScorerSet holds the scorers of a run: one per calculated suite-level
// metric name, and one per inline check of each case. They are the
// suite's, built once when it was loaded (suite.Suite.Scorer); judge-backed
// ones ask the judge of the scoring context (score.WithJudge).
type ScorerSet struct {
	shared map[string]score.Scorer
	inline map[*suite.Case]map[string]score.Scorer
}

// Scorer returns the scorer of case c's metric name; false when the metric
// is not calculated.
func (ss ScorerSet) Scorer(c *suite.Case, name string) (score.Scorer, bool) {
	if _, ok := c.Check(name); ok {
		sc, ok := ss.inline[c][name]
		return sc, ok
	}
	sc, ok := ss.shared[name]
	return sc, ok
}

// Scorers gathers the suite's scorers of every calculated metric:
// judge-backed ones only when withJudge. Score them under a context that
// carries the judge (score.WithJudge).
func Scorers(s *suite.Suite, calculated []string, withJudge bool) (ScorerSet, error) {
	ss := ScorerSet{shared: map[string]score.Scorer{}, inline: map[*suite.Case]map[string]score.Scorer{}}
	for _, c := range s.Cases {
		for _, ev := range c.Checks {
			if !withJudge && s.Registry[ev.Type].NeedsJudge {
				continue
			}
			sc, _, err := s.Scorer(c, ev.Name)
			if err != nil {
				return ss, fmt.Errorf("execute suite: %w", err)
			}
			if ss.inline[c] == nil {
				ss.inline[c] = map[string]score.Scorer{}
			}
			ss.inline[c][ev.Name] = sc
		}
	}
	for _, name := range calculated {
		typ, _, ok := s.MetricDefinition(name)
		if !ok {
			continue // only inline checks have this name
		}
		if !withJudge && s.Registry[typ].NeedsJudge {
			continue
		}
		sc, _, err := s.Scorer(nil, name)
		if err != nil {
			return ss, fmt.Errorf("execute suite: %w", err)
		}
		ss.shared[name] = sc
	}
	return ss, nil
}

// bind rebuilds, with reg (the suite's registry bound to a run's outcome
// runtime), only the scorers whose type reg binds to the run: verifiers
// and state checks, which hold the run's programs and connections. Every
// other scorer is kept as built.
func (ss ScorerSet) bind(s *suite.Suite, reg score.Registry) (ScorerSet, error) {
	bound := func(typ string) bool { return typ == score.Verifier || typ == score.StateCheck }
	out := ScorerSet{shared: make(map[string]score.Scorer, len(ss.shared)), inline: make(map[*suite.Case]map[string]score.Scorer, len(ss.inline))}
	for name, sc := range ss.shared {
		if typ, params, _ := s.MetricDefinition(name); bound(typ) {
			var err error
			if sc, err = reg.Build(typ, params, score.ContextJudge{}); err != nil {
				return out, fmt.Errorf("execute suite: metric %q: %w", name, err)
			}
		}
		out.shared[name] = sc
	}
	for c, checks := range ss.inline {
		m := make(map[string]score.Scorer, len(checks))
		for name, sc := range checks {
			if ev, _ := c.Check(name); bound(ev.Type) {
				var err error
				if sc, err = reg.Build(ev.Type, ev.Params, score.ContextJudge{}); err != nil {
					return out, fmt.Errorf("execute suite: %s: check %q: %w", c.Source, name, err)
				}
			}
			m[name] = sc
		}
		out.inline[c] = m
	}
	return out, nil
}
