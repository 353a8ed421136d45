package runner

import "errors"

// newLLMAgent builds the "llm" agent type (placeholder until issue 4 lands).
func newLLMAgent(cfg ModelConfig) (Agent, error) {
	return nil, errors.New("llm agent: not implemented yet")
}
