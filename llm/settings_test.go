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
