package adapter

import (
	"testing"

	"github.com/agentevals-go/agentevals/suite"
)

// TestNewAgent_RefusesWhatCheckAgentRefuses keeps suite.CheckAgent, which
// validates without building, in step with New.
func TestNewAgent_RefusesWhatCheckAgentRefuses(t *testing.T) {
	for name, cfg := range map[string]suite.AgentConfig{
		"name only":                   {Name: "A"},
		"llm agent, unknown provider": {Name: "A", Type: suite.AgentLLM, LLM: &suite.ModelConfig{Provider: "x", Model: "m"}},
	} {
		t.Run(name, func(t *testing.T) {
			s := &suite.Suite{Agent: cfg}
			if _, nerr := New(cfg, Options{}); nerr == nil || s.ValidateAgent() == nil {
				t.Errorf("New = %v, CheckAgent = %v: both must refuse", nerr, s.ValidateAgent())
			}
		})
	}
}
