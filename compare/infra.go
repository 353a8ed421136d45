package compare

import (
	"encoding/json"
	"sort"

	"agentevals/models"
)

// InfrastructureFailure reports whether the run is marked as failed from
// infrastructure: its summary holds models.InfrastructureFailureKey with a
// non-null value (the runner writes it when every agent call, or every
// judge call, failed from infrastructure). The rule for automatic
// baselines: an automatic baseline is never a run marked as an
// infrastructure failure; pass --baseline to use one anyway.
func InfrastructureFailure(run *models.Run) bool {
	var sum map[string]json.RawMessage
	if run.Summary.IsNull() || json.Unmarshal(run.Summary, &sum) != nil {
		return false
	}
	v, ok := sum[models.InfrastructureFailureKey]
	return ok && string(v) != "null"
}

// InfrastructureFailures lists what the run's infrastructure-failure mark
// says, one "side: what failed" line per side (agent, judge) in name
// order; nil when the run is not marked. A mark that is not an object of
// strings is shown as its JSON text.
func InfrastructureFailures(run *models.Run) []string {
	if !InfrastructureFailure(run) {
		return nil
	}
	var sum map[string]json.RawMessage
	_ = json.Unmarshal(run.Summary, &sum) // valid: InfrastructureFailure decoded it
	raw := sum[models.InfrastructureFailureKey]
	var sides map[string]string
	if json.Unmarshal(raw, &sides) != nil || len(sides) == 0 {
		return []string{string(raw)}
	}
	out := make([]string, 0, len(sides))
	for side, what := range sides {
		out = append(out, side+": "+what)
	}
	sort.Strings(out)
	return out
}
