package monitor

import (
	"sort"

	"github.com/agentevals-go/agentevals/tracefile"
)

// Match reports whether the case's traces pass every field of the filter:
// the service, the root span's name, gen_ai.agent.name on some span, and
// each attribute on some span.
func (f Filter) Match(c *tracefile.Case) bool {
	if f.Service != "" && c.Service != f.Service {
		return false
	}
	root, agentName := f.RootSpan == "", f.AgentName == ""
	attrs := map[string]bool{}
	for _, t := range c.Turns {
		rec := t.Evidence.Record
		if rec == nil {
			continue
		}
		ids := map[string]bool{}
		for _, sp := range rec.Spans {
			ids[sp.SpanID] = true
		}
		for _, sp := range rec.Spans {
			if !root && (sp.ParentID == "" || !ids[sp.ParentID]) && sp.Name == f.RootSpan {
				root = true
			}
			if !agentName && sp.Attributes.Value("gen_ai.agent.name") == f.AgentName {
				agentName = true
			}
			for k, v := range f.Attributes {
				if got, ok := sp.Attributes.Get(k); ok && got == v {
					attrs[k] = true
				}
			}
		}
	}
	return root && agentName && len(attrs) == len(f.Attributes)
}

// sortCases orders cases by their first trace's start, then id, so that
// the cases a cap keeps do not depend on the order traces closed.
func sortCases(cs []*tracefile.Case) {
	sort.SliceStable(cs, func(i, j int) bool {
		a, b := cs[i].Source().Start, cs[j].Source().Start
		if !a.Equal(b) {
			return a.Before(b)
		}
		return caseID(cs[i]) < caseID(cs[j])
	})
}
