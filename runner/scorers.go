package runner

import (
	"fmt"

	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// ScorerSet holds the scorers of a run: one per calculated suite-level
// metric name, and one per inline check of each case.
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

// BuildScorers builds the scorers of every calculated metric: judge-backed
// ones only with a judge.
func BuildScorers(s *suite.Suite, calculated []string, judge score.Judge) (ScorerSet, error) {
	return buildScorers(s, s.Registry, calculated, judge)
}

// buildScorers is BuildScorers with the registry reg (the suite's, with
// outcome checks bound to the run).
func buildScorers(s *suite.Suite, reg score.Registry, calculated []string, judge score.Judge) (ScorerSet, error) {
	ss := ScorerSet{shared: map[string]score.Scorer{}, inline: map[*suite.Case]map[string]score.Scorer{}}
	for _, c := range s.Cases {
		for _, ev := range c.Checks {
			if judge == nil && s.Registry[ev.Type].NeedsJudge {
				continue
			}
			sc, err := reg.Build(ev.Type, ev.Params, judge)
			if err != nil {
				return ss, fmt.Errorf("execute suite: %s: check %q: %w", c.Source, ev.Name, err)
			}
			if ss.inline[c] == nil {
				ss.inline[c] = map[string]score.Scorer{}
			}
			ss.inline[c][ev.Name] = sc
		}
	}
	for _, name := range calculated {
		typ, params, ok := s.MetricDefinition(name)
		if !ok {
			continue // only inline checks have this name
		}
		if judge == nil && s.Registry[typ].NeedsJudge {
			continue
		}
		sc, err := reg.Build(typ, params, judge)
		if err != nil {
			return ss, fmt.Errorf("execute suite: metric %q: %w", name, err)
		}
		ss.shared[name] = sc
	}
	return ss, nil
}
