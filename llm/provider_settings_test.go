package llm

import (
	"errors"
	"math"
	"strings"
	"testing"
)

func TestSettings_Validate(t *testing.T) {
	hot, nan := 2.5, math.NaN()
	cases := []struct {
		name string
		s    Settings
		want string // "" means valid
	}{
		{"openai", Settings{Provider: "openai", Model: "gpt-4o-mini"}, ""},
		{"ollama with url", Settings{Provider: "ollama", Model: "llama3", BaseURL: "http://127.0.0.1:11434"}, ""},
		{"no provider", Settings{Model: "m"}, "provider is required"},
		{"unknown provider", Settings{Provider: "vertex", Model: "m"}, "unknown provider"},
		{"no model", Settings{Provider: "openai"}, "model is required"},
		{"unparsable url", Settings{Provider: "ollama", Model: "m", BaseURL: "http://[::1"}, "not a valid URL"},
		{"no scheme", Settings{Provider: "ollama", Model: "m", BaseURL: "localhost:11434"}, "http://"},
		{"ftp", Settings{Provider: "openai", Model: "m", BaseURL: "ftp://example.com/v1"}, "http://"},
		{"no host", Settings{Provider: "openai", Model: "m", BaseURL: "http:///v1"}, "no host"},
		{"query", Settings{Provider: "openai", Model: "m", BaseURL: "https://x.example/v1?key=1"}, "query"},
		{"bad port", Settings{Provider: "openai", Model: "m", BaseURL: "http://h:port/v1"}, "not a valid URL"},
		{"temperature", Settings{Provider: "openai", Model: "m", Temperature: &hot}, "temperature"},
		{"nan temperature", Settings{Provider: "openai", Model: "m", Temperature: &nan}, "temperature"},
		{"max tokens", Settings{Provider: "openai", Model: "m", MaxTokens: -1}, "max tokens"},
		{"timeout", Settings{Provider: "openai", Model: "m", Timeout: -1}, "timeout"},
		{"attempts", Settings{Provider: "openai", Model: "m", Retry: Retry{MaxAttempts: 50}}, "retry attempts"},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			err := tc.s.Validate()
			if tc.want == "" {
				if err != nil {
					t.Fatalf("Validate = %v, want nil", err)
				}
				return
			}
			if !errors.Is(err, ErrInvalidSettings) || !strings.Contains(err.Error(), tc.want) {
				t.Fatalf("Validate = %v, want ErrInvalidSettings mentioning %q", err, tc.want)
			}
		})
	}
}

func TestNewClient_Credentials(t *testing.T) {
	noEnv := Options{Getenv: func(string) string { return "" }}
	for _, tc := range []struct {
		s    Settings
		want string
	}{
		{Settings{Provider: "openai", Model: "m"}, "OPENAI_API_KEY is not set"},
		{Settings{Provider: "anthropic", Model: "m"}, "ANTHROPIC_API_KEY is not set"},
	} {
		if _, err := NewClient(tc.s, noEnv); !errors.Is(err, ErrInvalidSettings) || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%s: err = %v, want %q", tc.s.Provider, err, tc.want)
		}
	}
	// A self-hosted compatible server and Ollama need no key.
	for _, s := range []Settings{
		{Provider: "openai", Model: "m", BaseURL: "http://127.0.0.1:8000/v1"},
		{Provider: "ollama", Model: "m"},
	} {
		if _, err := NewClient(s, noEnv); err != nil {
			t.Errorf("%s: %v", s.Provider, err)
		}
	}
}

func TestUsageFrom_Price(t *testing.T) {
	u := usageFrom(Settings{Provider: "openai", Model: "gpt-4o-mini-2024-07-18"},
		map[string]any{"PromptTokens": 1_000_000, "CompletionTokens": 2_000_000})
	// 1M input at $0.15 + 2M output at $0.60 = $1.35.
	if u.Cost == nil || math.Abs(*u.Cost-1.35) > 1e-9 {
		t.Errorf("cost = %v, want 1.35", u.Cost)
	}
	u = usageFrom(Settings{Provider: "anthropic", Model: "claude-3-5-haiku-latest"},
		map[string]any{"InputTokens": 500_000, "OutputTokens": 100_000})
	// 0.5M at $0.80 + 0.1M at $4.00 = $0.80.
	if u.InputTokens != 500_000 || u.Cost == nil || math.Abs(*u.Cost-0.8) > 1e-9 {
		t.Errorf("usage = %+v, want 500000 in and $0.80", u)
	}
	for _, s := range []Settings{
		{Provider: "openai", Model: "my-finetune"},
		{Provider: "openai", Model: "gpt-4o-mini", BaseURL: "http://127.0.0.1:8000/v1"},
		{Provider: "ollama", Model: "llama3"},
	} {
		if u := usageFrom(s, map[string]any{"PromptTokens": 10}); u.Cost != nil {
			t.Errorf("%+v: cost = %v, want unknown", s, *u.Cost)
		}
	}
}
