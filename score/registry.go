package score

// Builtins returns a fresh registry with every built-in evaluator type:
// the deterministic checks, action_group and the LLM metrics.
func Builtins() Registry {
	r := Registry{}
	addChecks(r)
	addActionGroup(r)
	AddLLMMetrics(r)
	declareLLMNeeds(r)
	addConversationMetrics(r)
	addTokenBudget(r)
	addToolResultBudget(r)
	addTrajectoryChecks(r)
	addTraceChecks(r)
	addDAG(r)
	addRetrieval(r)
	addContextual(r)
	addTaskCompletion(r)
	addOutcomeChecks(r)
	attachDocs(r)
	return r
}

// declareLLMNeeds copies each built-in judge metric's inputs (metricSpec's
// needs, which LLMMetric checks per case) into its Definition.Needs, so a
// suite whose question lacks them is refused when it is loaded.
func declareLLMNeeds(r Registry) {
	for _, spec := range builtinMetricSpecs() {
		def, ok := r[spec.name]
		if !ok {
			continue
		}
		def.Needs = nil
		if spec.needs.expected {
			def.Needs = append(def.Needs, NeedExpectedAnswer)
		}
		if spec.needs.context {
			def.Needs = append(def.Needs, NeedContext)
		}
		r[spec.name] = def
	}
}
