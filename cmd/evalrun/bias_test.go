package main

import (
	"bytes"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/provider"
	"github.com/agentevals-go/agentevals/suite"
)

func TestModelFamily(t *testing.T) {
	for model, want := range map[string]string{
		"gpt-4o-mini": "openai-gpt", "o3-mini": "openai-gpt", "GPT-4.1": "openai-gpt",
		"claude-3-5-haiku-latest": "claude", "llama3.1": "llama", "llama3.1:8b": "llama",
		"meta-llama/Llama-3.1-8B-Instruct": "llama", "mistral-large": "mistral", "qwen2.5": "qwen",
		"judge": "", "": "",
	} {
		if got := ModelFamily(model); got != want {
			t.Errorf("ModelFamily(%q) = %q, want %q", model, got, want)
		}
	}
}

// TestWarnSameFamily: a judge of the llm agent's family is warned about;
// another family, or an agent that is not an llm, is not.
func TestWarnSameFamily(t *testing.T) {
	judge, err := provider.NewJudge(llm.Settings{Provider: "openai", Model: "gpt-4o-mini", BaseURL: "http://127.0.0.1:9/v1"},
		provider.Options{Getenv: func(string) string { return "" }}, nil)
	if err != nil {
		t.Fatal(err)
	}
	for _, tt := range []struct {
		agent *suite.ModelConfig
		warn  bool
	}{
		{&suite.ModelConfig{Provider: "openai", Model: "gpt-4.1"}, true},
		{&suite.ModelConfig{Provider: "anthropic", Model: "claude-3-5-haiku-latest"}, false},
		{nil, false},
	} {
		var buf bytes.Buffer
		warnSameFamily(&buf, tt.agent, judge, "")
		if got := strings.Contains(buf.String(), "are both openai-gpt models"); got != tt.warn {
			t.Errorf("agent %+v: warning %q, want warned = %v", tt.agent, buf.String(), tt.warn)
		}
	}
}
