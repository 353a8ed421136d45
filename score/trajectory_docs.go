package score

import "encoding/json"

// addTrajectoryDocs documents action_group, the trajectory checks and the
// trace checks.
func addTrajectoryDocs(docs map[string]Doc) {
	tools := Param{Name: "tools", Schema: stringList, Required: true, Description: "Tool names (an action's name)."}
	pattern := Param{Name: "pattern", Schema: nonEmptyString, Description: "Span-name glob: * any characters, ? one (default \"*\")."}
	modes := make([]any, len(trajectoryModes))
	for i, m := range trajectoryModes {
		modes[i] = m
	}
	docs["action_group"] = Doc{Summary: "The observed tool calls match the question's expected_actions (group, name, arguments, order; or a trajectory mode).",
		Params: []Param{
			{Name: "mode", Schema: map[string]any{"type": "string", "enum": modes}, Description: "strict, in_order, unordered, subset or superset; absent keeps the ordered exact rule with partial credit."},
			{Name: "arguments", Schema: map[string]any{"type": "string", "enum": []any{"exact", "partial"}}, Description: "exact (default): arguments equal as JSON; partial: the observed arguments hold every expected key and value."},
			{Name: "ignore_paths", Schema: stringList, Description: "Argument paths left out of the comparison (\"query.limit\", \"items.*.id\")."},
		},
		Example: json.RawMessage(`{"mode": "unordered", "arguments": "partial"}`)}
	docs["tool_used"] = Doc{Summary: "Each named tool was called between min and max times (score: the fraction within bounds).",
		Params:  []Param{tools, {Name: "min", Schema: count, Description: "Fewest calls of each (default 1)."}, {Name: "max", Schema: count, Description: "Most calls of each (default no limit)."}},
		Example: json.RawMessage(`{"tools": ["search"], "max": 2}`)}
	docs["tool_not_used"] = Doc{Summary: "None of the forbidden tools was called.",
		Params: []Param{tools}, Example: json.RawMessage(`{"tools": ["delete_account"]}`)}
	docs["step_budget"] = Doc{Summary: "The agent made at most max tool calls.",
		Params: []Param{{Name: "max", Schema: count, Required: true, Description: "The most calls allowed."}}, Example: json.RawMessage(`{"max": 5}`)}
	docs["tool_loop"] = Doc{Summary: "No call (same name and arguments) was repeated more than max_repeats times in a row.",
		Params: []Param{{Name: "max_repeats", Schema: map[string]any{"type": "integer", "minimum": 1}, Description: "Repeats in a row allowed (default 2)."}}, Example: json.RawMessage(`{"max_repeats": 2}`)}
	docs["tool_success"] = Doc{Summary: "Every tool call succeeded (the status of calls taken from spans; score: the fraction that did)."}
	docs["span_count"] = Doc{Summary: "Between min and max of the agent's spans match the pattern (needs --traces).",
		Params:  []Param{pattern, {Name: "min", Schema: count, Description: "Fewest matching spans (default 1)."}, {Name: "max", Schema: count, Description: "Most matching spans (default no limit)."}},
		Example: json.RawMessage(`{"pattern": "execute_tool *", "max": 4}`)}
	docs["span_duration"] = Doc{Summary: "The percentile of matching spans' durations is at most max_ms (needs --traces).",
		Params:  []Param{pattern, {Name: "max_ms", Schema: amount, Required: true, Description: "Milliseconds."}, {Name: "percentile", Schema: amount, Description: "Nearest-rank percentile in (0, 100] (default 100: the slowest)."}},
		Example: json.RawMessage(`{"pattern": "chat *", "max_ms": 2000, "percentile": 95}`)}
	docs["error_spans"] = Doc{Summary: "At most max_count (or max_share) of the matching spans have an error status (needs --traces).",
		Params:  []Param{pattern, {Name: "max_count", Schema: count, Description: "Error spans allowed (default 0)."}, {Name: "max_share", Schema: map[string]any{"type": "number", "minimum": 0, "maximum": 1}, Description: "Share of error spans allowed, 0 to 1 (instead of max_count)."}},
		Example: json.RawMessage(`{"max_share": 0.1}`)}
}
