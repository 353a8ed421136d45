package llm

import (
	"regexp"

	"github.com/agentevals/agentevals/score"
)

// Price is a model's list price in USD per million tokens.
type Price struct {
	InputPerMTok  float64
	OutputPerMTok float64
}

// prices is the small table of list prices (USD per million tokens, standard
// tier, no caching or batch discounts) as published by the providers when
// this table was written. They apply only on the provider's own endpoint
// (no base URL override): a compatible server or Ollama may charge anything,
// so its cost stays unknown (nil), never a guessed number. Dated snapshots
// ("gpt-4o-mini-2024-07-18", "claude-3-5-haiku-20241022") use the price of
// their family name. Update entries when the providers change their prices.
func prices() map[string]map[string]Price {
	return map[string]map[string]Price{
		ProviderOpenAI: {
			"gpt-4o":       {2.50, 10.00},
			"gpt-4o-mini":  {0.15, 0.60},
			"gpt-4.1":      {2.00, 8.00},
			"gpt-4.1-mini": {0.40, 1.60},
			"gpt-4.1-nano": {0.10, 0.40},
		},
		ProviderAnthropic: {
			"claude-3-5-haiku":  {0.80, 4.00},
			"claude-3-5-sonnet": {3.00, 15.00},
			"claude-3-haiku":    {0.25, 1.25},
			"claude-sonnet-4":   {3.00, 15.00},
		},
	}
}

var snapshotSuffix = regexp.MustCompile(`-(\d{4}-\d{2}-\d{2}|\d{8}|latest)$`)

// PriceOf returns the list price of a model on the provider's own endpoint
// and whether it is known.
func PriceOf(provider, model string) (Price, bool) {
	table := prices()[provider]
	if p, ok := table[model]; ok {
		return p, true
	}
	p, ok := table[snapshotSuffix.ReplaceAllString(model, "")]
	return p, ok
}

// usageFrom normalises langchaingo's per-provider GenerationInfo keys
// (OpenAI and Ollama: PromptTokens/CompletionTokens; Anthropic:
// InputTokens/OutputTokens) and prices the call when the price is known.
func usageFrom(s Settings, info map[string]any) score.Usage {
	in, out := intInfo(info, "PromptTokens"), intInfo(info, "CompletionTokens")
	if s.Provider == ProviderAnthropic {
		in, out = intInfo(info, "InputTokens"), intInfo(info, "OutputTokens")
	}
	u := score.Usage{InputTokens: in, OutputTokens: out}
	if p, ok := s.price(); ok {
		cost := (float64(in)*p.InputPerMTok + float64(out)*p.OutputPerMTok) / 1e6
		u.Cost = &cost
	}
	return u
}

// price is the list price of the settings' model, known only on the
// provider's own endpoint (no base URL override).
func (s Settings) price() (Price, bool) {
	if s.BaseURL != "" {
		return Price{}, false
	}
	return PriceOf(s.Provider, s.Model)
}

func intInfo(info map[string]any, key string) int64 {
	switch v := info[key].(type) {
	case int:
		return int64(v)
	case int64:
		return v
	case float64:
		return int64(v)
	}
	return 0
}
