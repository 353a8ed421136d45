package judges

// Builtins returns a fresh registry with every built-in evaluator type:
// the deterministic checks, action_group and the LLM metrics.
func Builtins() Registry {
	r := Registry{}
	addChecks(r)
	addActionGroup(r)
	addLLMMetrics(r)
	addToolResultBudget(r)
	return r
}
