package llm

import (
	"time"

	"github.com/agentevals-go/agentevals/prices"
	"github.com/agentevals-go/agentevals/score"
)

// usageFrom normalises langchaingo's per-provider GenerationInfo keys
// (OpenAI and Ollama: PromptTokens/CompletionTokens; Anthropic:
// InputTokens/OutputTokens) and prices the call when the price is known.
func usageFrom(s Settings, info map[string]any) score.Usage {
	in, out := intInfo(info, "PromptTokens"), intInfo(info, "CompletionTokens")
	switch s.Provider {
	case ProviderAnthropic:
		in, out = intInfo(info, "InputTokens"), intInfo(info, "OutputTokens")
	case ProviderBedrock:
		in, out = intInfo(info, "input_tokens"), intInfo(info, "output_tokens")
	}
	u := score.Usage{InputTokens: in, OutputTokens: out}
	if cost, ok := s.cost(in, out); ok {
		u.Cost = &cost
	}
	return u
}

// cost is what a call of in and out tokens cost at the list price of the
// settings' model, known on the provider's own endpoint or one the price
// catalog recognises; a compatible or local server's price is unknown
// unless the user's price file names the model.
func (s Settings) cost(in, out int64) (float64, bool) {
	c := s.prices
	if c == nil {
		var err error
		if c, err = prices.Default(); err != nil {
			return 0, false
		}
	}
	p, ok := c.Lookup(prices.Call{Provider: catalogProvider(s.Provider), BaseURL: s.BaseURL, Model: s.Model, At: time.Now()})
	if !ok {
		return 0, false
	}
	return p.Cost(in, out)
}

func intInfo(info map[string]any, key string) int64 {
	switch v := info[key].(type) {
	case int:
		return int64(v)
	case int32:
		return int64(v)
	case int64:
		return v
	case float64:
		return int64(v)
	}
	return 0
}

// catalogProvider is the price catalog's id of a provider.
func catalogProvider(provider string) string {
	switch provider {
	case ProviderGemini:
		return "google"
	case ProviderBedrock:
		return "aws"
	}
	return provider
}
