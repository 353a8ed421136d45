package main

import (
	"context"
	"fmt"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/agentevals/agentevals/llm"
	"github.com/agentevals/agentevals/score"
	"github.com/agentevals/agentevals/suite"
)

// JudgeFlags select and override the suite's judge. Flags win over their
// environment variables, which win over the suite's judge section.
// Credentials come only from the provider's usual environment variables
// (OPENAI_API_KEY, ANTHROPIC_API_KEY; none for Ollama).
type JudgeFlags struct {
	JudgeProvider string  `name:"judge-provider" env:"EVAL_JUDGE_PROVIDER" placeholder:"NAME" help:"Judge provider: openai (also any OpenAI-compatible server), anthropic or ollama. Default: the suite's, else openai."`
	JudgeModel    string  `name:"judge-model" env:"EVAL_JUDGE_MODEL" placeholder:"MODEL" help:"Judge model; configures a judge even when the suite names none."`
	JudgeBaseURL  string  `name:"judge-base-url" env:"EVAL_JUDGE_BASE_URL" placeholder:"URL" help:"Judge endpoint, e.g. http://127.0.0.1:11434 for Ollama or https://host/v1 for an OpenAI-compatible server."`
	NoJudge       envBool `name:"no-judge" env:"EVAL_NO_JUDGE" help:"Run without a judge: LLM metrics are not calculated (null) and the run's fingerprint says so."`
	JudgeCache    string  `name:"judge-cache" env:"EVAL_JUDGE_CACHE" placeholder:"DIR" help:"Reuse successful judge verdicts stored in DIR (keyed on provider, model, settings and the full prompt); errors are never cached."`

	built *llm.LLMJudge `kong:"-"`
	// limiter paces the judge's calls (the progress line shows its rate).
	limiter *llm.Limiter `kong:"-"`
}

// judge returns the judge configured by the suite and flags, or nil when
// none is configured or --no-judge is given. Invalid settings, a missing
// credential or an unusable cache directory are exit-2 errors, reported
// before any agent runs.
func (f *JudgeFlags) judge(ctx context.Context, cfg *suite.ModelConfig) (score.Judge, error) {
	s, ok, err := f.settings(cfg)
	if err != nil || !ok {
		return nil, err
	}
	var cache *llm.Cache
	if f.JudgeCache != "" {
		if cache, err = llm.OpenCache(f.JudgeCache); err != nil {
			return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("--judge-cache: %w", err)}
		}
	}
	f.limiter = llm.NewLimiter()
	j, err := llm.NewLLMJudge(s, llm.Options{Limiter: f.limiter}, cache)
	if err != nil {
		return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("judge: %w", err)}
	}
	f.built = j
	return j, nil
}

// settings merges the suite's judge section with the flags; ok is false
// when no judge is configured.
func (f *JudgeFlags) settings(cfg *suite.ModelConfig) (llm.Settings, bool, error) {
	if f.NoJudge {
		return llm.Settings{}, false, nil
	}
	s, ok, err := suite.JudgeSettings(cfg, suite.JudgeOverride{
		Provider: f.JudgeProvider, Model: f.JudgeModel, BaseURL: f.JudgeBaseURL,
		ProviderName: "--judge-provider", ModelName: "--judge-model", BaseURLName: "--judge-base-url", Ask: "give"})
	if err != nil {
		return llm.Settings{}, false, &exitError{Code: exitInvalid, Err: err}
	}
	return s, ok, nil
}

// judgeSummary adds which judge ran and the cache counters to the run
// summary (runner.ExecOptions.ExtraSummary; see llm.LLMJudge.RunSummary).
// It returns nil when no judge was built.
func (f *JudgeFlags) judgeSummary() map[string]any {
	if f.built == nil {
		return nil
	}
	return f.built.RunSummary()
}

// envBool is a boolean flag whose environment variable may be set but
// empty, as CI templates often leave it ("EVAL_NO_JUDGE="): empty reads as
// false instead of failing every command.
type envBool bool

var _ kong.BoolMapperValue = (*envBool)(nil)

// IsBool makes the flag take no value on the command line.
func (b *envBool) IsBool() bool { return true }

// Decode reads the flag (true when it carries no value) or its
// environment value.
func (b *envBool) Decode(ctx *kong.DecodeContext) error {
	if ctx.Scan.Peek().Type != kong.FlagValueToken {
		*b = true
		return nil
	}
	token := ctx.Scan.Pop()
	switch v := token.Value.(type) {
	case bool:
		*b = envBool(v)
		return nil
	case string:
		switch strings.ToLower(strings.TrimSpace(v)) {
		case "", "false", "0", "no":
			*b = false
			return nil
		case "true", "1", "yes":
			*b = true
			return nil
		}
		return fmt.Errorf("want true, 1, yes, false, 0, no or empty, got %q", v)
	}
	return fmt.Errorf("want a boolean, got %v", token.Value)
}
