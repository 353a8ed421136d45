package suite

import (
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/llm"
)

// JudgeOverride overrides a suite's judge section: evalrun's --judge-*
// flags, or the EVAL_JUDGE_* variables evaltest reads. Names say, for
// messages, what set each value ("--judge-provider" or
// "EVAL_JUDGE_PROVIDER") and Ask how to ask for one ("give" or "set").
type JudgeOverride struct {
	Provider, Model, BaseURL             string
	ProviderName, ModelName, BaseURLName string
	Ask                                  string
}

// JudgeSettings merges the suite's judge section (nil: none) with o, the
// override winning: without a suite judge only a model configures one; a
// provider other than the suite's needs a model too and drops the suite's
// endpoint, which belongs to its own provider. ok is false when no judge
// is configured. Settings that do not validate are an error.
func JudgeSettings(st *ModelConfig, o JudgeOverride) (s llm.Settings, ok bool, err error) {
	provider, model, baseURL := strings.TrimSpace(o.Provider), strings.TrimSpace(o.Model), strings.TrimSpace(o.BaseURL)
	if st == nil && model == "" {
		var given []string // only the settings given are named
		if provider != "" {
			given = append(given, o.ProviderName)
		}
		if baseURL != "" {
			given = append(given, o.BaseURLName)
		}
		if len(given) > 0 {
			return llm.Settings{}, false, fmt.Errorf("%s: the suite names no judge, so %s %s too",
				strings.Join(given, "/"), o.Ask, o.ModelName)
		}
		return llm.Settings{}, false, nil
	}
	var m ModelConfig
	if st != nil {
		m = *st
	}
	if provider != "" && st != nil && provider != m.Provider {
		if model == "" {
			return llm.Settings{}, false, fmt.Errorf("%s: the suite's judge model %q belongs to %s; %s %s too",
				setting(o.ProviderName, provider), m.Model, m.Provider, o.Ask, o.ModelName)
		}
		m.BaseURL = ""
	}
	if provider != "" {
		m.Provider = provider
	}
	if m.Provider == "" {
		m.Provider = llm.ProviderOpenAI
	}
	if model != "" {
		m.Model = model
	}
	if baseURL != "" {
		m.BaseURL = baseURL
	}
	s = m.Settings()
	if err := s.Validate(); err != nil {
		return llm.Settings{}, false, fmt.Errorf("judge: %w", err)
	}
	return s, true, nil
}

// setting writes a setting as its source spells it: "--flag value" or
// "VARIABLE=value".
func setting(name, value string) string {
	if strings.HasPrefix(name, "-") {
		return name + " " + value
	}
	return name + "=" + value
}
