package provider

import (
	"time"

	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/prices"
	"github.com/agentevals-go/agentevals/score"
)

// usageFrom normalises langchaingo's per-provider GenerationInfo keys
// (OpenAI and Ollama: PromptTokens/CompletionTokens; Anthropic:
// InputTokens/OutputTokens) and prices the call when the price is known.
func usageFrom(s llm.Settings, cat *prices.Catalog, info map[string]any) score.Usage {
	in, out := intInfo(info, "PromptTokens"), intInfo(info, "CompletionTokens")
	switch s.Provider {
	case llm.ProviderAnthropic:
		in, out = intInfo(info, "InputTokens"), intInfo(info, "OutputTokens")
	case llm.ProviderBedrock:
		in, out = intInfo(info, "input_tokens"), intInfo(info, "output_tokens")
	}
	u := score.Usage{InputTokens: in, OutputTokens: out}
	if cost, ok := callCost(s, cat, in, out); ok {
		u.Cost = &cost
	}
	return u
}

// callCost is what a call of in and out tokens cost at the list price of
// the settings' model (cat over the vendored catalog; nil: the catalog), known on the provider's own endpoint or one the price
// catalog recognises; a compatible or local server's price is unknown
// unless the user's price file names the model.
func callCost(s llm.Settings, cat *prices.Catalog, in, out int64) (float64, bool) {
	c := cat
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
	case llm.ProviderGemini:
		return "google"
	case llm.ProviderBedrock:
		return "aws"
	}
	return provider
}
