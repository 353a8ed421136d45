package suite

import (
	"encoding/json"
	"fmt"
	"time"
)

// ModelConfig names a model behind a provider: the suite's "judge" section
// and the "llm" agent type share it.
type ModelConfig struct {
	// Provider is openai (and any OpenAI-compatible server), anthropic, ollama, azure (Azure OpenAI), gemini or bedrock.
	Provider string `json:"provider"`
	Model    string `json:"model"`
	// BaseURL overrides the provider's default endpoint.
	BaseURL     string   `json:"base_url,omitempty"`
	Temperature *float64 `json:"temperature,omitempty"`
	MaxTokens   int      `json:"max_tokens,omitempty"`
	Timeout     Duration `json:"timeout,omitempty"`
	// SystemPrompt is used by the llm agent type only.
	SystemPrompt string `json:"system_prompt,omitempty"`
}

// Duration is a time.Duration written as a Go duration string ("60s").
type Duration time.Duration

// MarshalJSON writes the duration as a string.
func (d Duration) MarshalJSON() ([]byte, error) { return json.Marshal(time.Duration(d).String()) }

// UnmarshalJSON reads a duration string such as "90s" or "1m30s".
func (d *Duration) UnmarshalJSON(b []byte) error {
	var s string
	if err := json.Unmarshal(b, &s); err != nil {
		return fmt.Errorf("want a duration string such as \"60s\"")
	}
	v, err := time.ParseDuration(s)
	if err != nil || v < 0 {
		return fmt.Errorf("want a positive duration such as \"60s\", got %q", s)
	}
	*d = Duration(v)
	return nil
}
