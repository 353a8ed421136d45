package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/alecthomas/kong"

	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/modelkit"
	"github.com/agentevals-go/agentevals/money"
	"github.com/agentevals-go/agentevals/prices"
	"github.com/agentevals-go/agentevals/provider"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// JudgeFlags select and override the suite's judge. Flags win over their
// environment variables, which win over the suite's judge section.
// Credentials come only from the provider's usual environment variables
// (OPENAI_API_KEY, ANTHROPIC_API_KEY; none for Ollama).
type JudgeFlags struct {
	JudgeProvider string  `name:"judge-provider" env:"EVAL_JUDGE_PROVIDER" placeholder:"NAME" help:"Judge provider: openai (also any OpenAI-compatible server), anthropic, ollama, azure (Azure OpenAI; --judge-base-url is the resource, --judge-model the deployment; AZURE_OPENAI_API_KEY), gemini (GEMINI_API_KEY) or bedrock (AWS_ACCESS_KEY_ID, AWS_SECRET_ACCESS_KEY, AWS_REGION). Default: the suite's, else openai."`
	JudgeModel    string  `name:"judge-model" env:"EVAL_JUDGE_MODEL" placeholder:"MODEL" help:"Judge model; configures a judge even when the suite names none."`
	JudgeBaseURL  string  `name:"judge-base-url" env:"EVAL_JUDGE_BASE_URL" placeholder:"URL" help:"Judge endpoint, e.g. http://127.0.0.1:11434 for Ollama or https://host/v1 for an OpenAI-compatible server."`
	NoJudge       envBool `name:"no-judge" env:"EVAL_NO_JUDGE" help:"Run without a judge: LLM metrics are not calculated (null) and the run's fingerprint says so."`
	Prices        string  `name:"prices" env:"EVALRUN_PRICES" type:"path" placeholder:"FILE" help:"Your own model prices, over the vendored catalog of public list prices: {\"prices\": [{\"provider\": \"openai\", \"model\": \"M\", \"input_mtok\": USD, \"output_mtok\": USD}]} per million tokens; an entry without provider applies on any endpoint (a local or compatible server). Unpriced models keep an unknown (null) cost."`
	JudgeCache    string  `name:"judge-cache" env:"EVAL_JUDGE_CACHE" placeholder:"DIR" help:"Reuse successful judge verdicts stored in DIR (keyed on provider, model, settings and the full prompt); errors are never cached."`

	built *provider.Judge `kong:"-"`
	// limiter paces the judge's calls (the progress line shows its rate).
	limiter *llm.Limiter `kong:"-"`
	// prices is the catalog read from Prices (see catalog).
	prices *prices.Catalog `kong:"-"`
	// typed holds the names of the judge flags given on the command line
	// (see AfterApply); the others came from their environment variables.
	typed map[string]bool `kong:"-"`
}

// AfterApply records which flags were typed on the command line, so that
// errors name what the user gave (a flag or its variable) and a suite that
// needs no judge ignores the judge variables of the environment.
func (f *JudgeFlags) AfterApply(kctx *kong.Context) error {
	f.typed = map[string]bool{}
	for _, p := range kctx.Path {
		if p.Flag != nil {
			f.typed[p.Flag.Name] = true
		}
	}
	return nil
}

// source is how the user gave a judge setting: its environment variable
// when it came from there, else its flag (typed, or missing and asked for).
func (f *JudgeFlags) source(flag, variable, value string) string {
	if f.typed == nil || f.typed[flag] || value == "" {
		return "--" + flag
	}
	return variable
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
	setup, err := f.setup(nil)
	if err != nil {
		return nil, err
	}
	j, limiter, err := setup.Judge(s, f.JudgeCache)
	if errors.Is(err, provider.ErrCache) {
		return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("--judge-cache: %w", err)}
	}
	if err != nil {
		return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("judge: %w", err)}
	}
	f.limiter = limiter
	f.built, _ = j.(*provider.Judge)
	return j, nil
}

// setup is how run, experiment and the judge commands build agents and
// judges (eval.Setup): the model providers, the --prices catalog, and the
// process guardian of g (nil: none).
func (f *JudgeFlags) setup(g *Globals) (eval.Setup, error) {
	catalog, err := f.catalog()
	if err != nil {
		return eval.Setup{}, err
	}
	s := eval.Setup{Models: modelkit.Models{}, Prices: catalog}
	if g != nil {
		s.Guard, s.Warnings = g.guard, g.Stderr
	}
	return s, nil
}

// catalog is the price catalog under the --prices file, read once; a bad
// file is an exit-2 error.
func (f *JudgeFlags) catalog() (*prices.Catalog, error) {
	if f.prices == nil {
		c, err := prices.Load(f.Prices)
		if err != nil {
			return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("--prices: %w", err)}
		}
		f.prices = c
	}
	return f.prices, nil
}

// settings merges the suite's judge section with the flags; ok is false
// when no judge is configured.
func (f *JudgeFlags) settings(cfg *suite.ModelConfig) (llm.Settings, bool, error) {
	if f.NoJudge {
		return llm.Settings{}, false, nil
	}
	s, ok, err := suite.JudgeSettings(cfg, suite.JudgeOverride{
		Provider: f.JudgeProvider, Model: f.JudgeModel, BaseURL: f.JudgeBaseURL,
		ProviderName: f.source("judge-provider", "EVAL_JUDGE_PROVIDER", f.JudgeProvider),
		ModelName:    f.source("judge-model", "EVAL_JUDGE_MODEL", f.JudgeModel),
		BaseURLName:  f.source("judge-base-url", "EVAL_JUDGE_BASE_URL", f.JudgeBaseURL), Ask: "give"})
	if err != nil {
		return llm.Settings{}, false, &exitError{Code: exitInvalid, Err: err}
	}
	return s, ok, nil
}

// checkTyped validates only the judge flags typed on the command line
// against the suite's judge section: for a suite that needs no judge, the
// EVAL_JUDGE_* variables of the environment (set for other suites) are not
// read at all.
func (f *JudgeFlags) checkTyped(cfg *suite.ModelConfig) error {
	typed := *f
	for flag, v := range map[string]*string{"judge-provider": &typed.JudgeProvider, "judge-model": &typed.JudgeModel, "judge-base-url": &typed.JudgeBaseURL} {
		if !f.typed[flag] {
			*v = ""
		}
	}
	_, _, err := typed.settings(cfg)
	return err
}

// judgeSummary adds which judge ran and the cache counters to the run
// summary (runner.ExecOptions.ExtraSummary; see provider.Judge.RunSummary).
// It returns nil when no judge was built.
func (f *JudgeFlags) judgeSummary() map[string]any {
	if f.built == nil {
		return nil
	}
	return f.built.RunSummary()
}

var _ eval.Models = modelkit.Models{}

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

// SpendFlags cap what the judge may cost one run (run, experiment: each
// variant's run; score-traces: each window).
type SpendFlags struct {
	MaxJudgeSpend string `name:"max-judge-spend" env:"EVAL_MAX_JUDGE_SPEND" placeholder:"USD" help:"Cap the judge's cost per run at USD (e.g. 2.50): once its calls have cost that much no further judged metric starts and the rest are not calculated, with the reason (metrics already started finish, so the total can pass the cap by what they cost). The judge model needs a known price (the catalog or --prices); an unpriced model is refused."`
}

// meter is the spend meter of one run with judge j, capped by
// --max-judge-spend, else by fallback (a monitor's max_judge_spend, named
// from); nil when neither caps it or no judge runs. A judge whose model
// has no known price is an exit-2 error: its cost could not be counted.
func (f SpendFlags) meter(j *provider.Judge, fallback money.Decimal, from string) (*money.Meter, error) {
	limit, name := money.Decimal(strings.TrimSpace(f.MaxJudgeSpend)), "--max-judge-spend"
	if limit == "" {
		limit, name = fallback, from
	}
	if limit == "" || j == nil {
		return nil, nil
	}
	m, err := money.NewMeter(limit)
	if err != nil {
		return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("%s: %w", name, err)}
	}
	if s, ok := j.Priced(); !ok {
		return nil, &exitError{Code: exitInvalid, Err: fmt.Errorf("%s: the judge model %s %q has no known price, so its spending cannot be counted: give its price in a --prices file ({\"prices\": [{\"model\": %q, \"input_mtok\": USD, \"output_mtok\": USD}]})",
			name, s.Provider, s.Model, s.Model)}
	}
	return m, nil
}
