package judges

// addLLMMetrics registers the judge-backed metrics (semantic_accuracy, …).
func addLLMMetrics(r Registry) {}
