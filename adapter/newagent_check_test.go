package adapter

import (
	"errors"
	"testing"

	"github.com/agentevals-go/agentevals/modelkit"
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
			if _, nerr := New(cfg, Options{LLM: modelkit.Models{}.Agent}); nerr == nil || s.ValidateAgent() == nil {
				t.Errorf("New = %v, CheckAgent = %v: both must refuse", nerr, s.ValidateAgent())
			}
		})
	}
}

// TestNew_LLMWithoutModels: an llm agent needs the model providers passed
// in (Options.LLM); without them New says so instead of linking them.
func TestNew_LLMWithoutModels(t *testing.T) {
	cfg := suite.AgentConfig{Name: "A", Type: suite.AgentLLM, LLM: &suite.ModelConfig{Provider: "openai", Model: "m", BaseURL: "http://127.0.0.1:1/v1"}}
	if _, err := New(cfg, Options{}); !errors.Is(err, ErrNoModels) {
		t.Errorf("New without Options.LLM: err = %v, want ErrNoModels", err)
	}
}
