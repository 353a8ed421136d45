package compare

import (
	"bytes"
	"sort"

	"github.com/agentevals-go/agentevals/models"
)

// InfrastructureFailure reports whether the run is marked as failed from
// infrastructure: its summary holds models.InfrastructureFailureKey with a
// non-empty object, the runner's record (written when every agent call, or
// every judge call, failed from infrastructure); any other value, such as
// a false written by a Ruby app, marks nothing. The rule for automatic
// baselines: an automatic baseline is never a run marked as an
// infrastructure failure; pass --baseline to use one anyway.
func InfrastructureFailure(run *models.Run) bool {
	return InfrastructureFailures(run) != nil
}

// InfrastructureFailures lists what the run's infrastructure-failure mark
// says, one "side: what failed" line per side (agent, judge) in name
// order; nil when the run is not marked. A mark that is not an object of
// strings is shown as its JSON text.
func InfrastructureFailures(run *models.Run) []string {
	s, err := models.DecodeRunSummary(run.Summary)
	if err != nil {
		return nil
	}
	if raw, ok := s.Extra[models.InfrastructureFailureKey]; ok { // not an object of strings
		// Only an object is the mark (evalrun's record); another value,
		// such as a false a Ruby app wrote, marks nothing.
		if t := bytes.TrimSpace(raw); len(t) == 0 || t[0] != '{' || string(t) == "{}" {
			return nil
		}
		return []string{string(raw)}
	}
	out := make([]string, 0, len(s.InfrastructureFailure))
	for side, what := range s.InfrastructureFailure {
		out = append(out, side+": "+what)
	}
	if len(out) == 0 {
		return nil
	}
	sort.Strings(out)
	return out
}
