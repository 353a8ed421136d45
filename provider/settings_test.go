package provider

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/llm"
)

func TestNewClient_Credentials(t *testing.T) {
	noEnv := Options{Getenv: func(string) string { return "" }}
	for _, tc := range []struct {
		s    llm.Settings
		want string
	}{
		{llm.Settings{Provider: "openai", Model: "m"}, "OPENAI_API_KEY is not set"},
		{llm.Settings{Provider: "anthropic", Model: "m"}, "ANTHROPIC_API_KEY is not set"},
	} {
		if _, err := NewClient(tc.s, noEnv); !errors.Is(err, llm.ErrInvalidSettings) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.s.Provider, err, tc.want)
		}
	}
	// A self-hosted compatible server and Ollama need no key.
	for _, s := range []llm.Settings{
		{Provider: "openai", Model: "m", BaseURL: "http://127.0.0.1:8000/v1"},
		{Provider: "ollama", Model: "m"},
	} {
		if _, err := NewClient(s, noEnv); err != nil {
			t.Errorf("%s: %v", s.Provider, err)
		}
	}
}

func TestUsageFrom_Price(t *testing.T) {
	u := usageFrom(llm.Settings{Provider: "openai", Model: "gpt-4o-mini-2024-07-18"}, nil,
		map[string]any{"PromptTokens": 1_000_000, "CompletionTokens": 2_000_000})
	// 1M input at $0.15 + 2M output at $0.60 = $1.35.
	if u.Cost == nil || math.Abs(*u.Cost-1.35) > 1e-9 {
		t.Errorf("cost = %v, want 1.35", u.Cost)
	}
	u = usageFrom(llm.Settings{Provider: "anthropic", Model: "claude-3-5-haiku-latest"}, nil,
		map[string]any{"InputTokens": 500_000, "OutputTokens": 100_000})
	// 0.5M at $0.80 + 0.1M at $4.00 = $0.80.
	if u.InputTokens != 500_000 || u.Cost == nil || math.Abs(*u.Cost-0.8) > 1e-9 {
		t.Errorf("usage = %+v, want 500000 in and $0.80", u)
	}
	for _, s := range []llm.Settings{
		{Provider: "openai", Model: "my-finetune"},
		{Provider: "openai", Model: "gpt-4o-mini", BaseURL: "http://127.0.0.1:8000/v1"},
		{Provider: "ollama", Model: "llama3"},
	} {
		if u := usageFrom(s, nil, map[string]any{"PromptTokens": 10}); u.Cost != nil {
			t.Errorf("%+v: cost = %v, want unknown", s, *u.Cost)
		}
	}
}
