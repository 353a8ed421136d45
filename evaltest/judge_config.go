package evaltest

import (
	"fmt"
	"strconv"

	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/prices"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// Environment variables of the judge, shared with evalrun (its
// --judge-* flags read the same ones).
const (
	envJudgeProvider = "EVAL_JUDGE_PROVIDER"
	envJudgeModel    = "EVAL_JUDGE_MODEL"
	envJudgeBaseURL  = "EVAL_JUDGE_BASE_URL"
	envJudgeCache    = "EVAL_JUDGE_CACHE"
	envNoJudge       = "EVAL_NO_JUDGE"
	envPrices        = "EVALRUN_PRICES"
)

// Why a judge-backed check was not evaluated.
const (
	reasonShort   = "skipped under -short: judge-backed checks call a model"
	reasonNoJudge = "no judge configured (set " + envJudgeModel + " and the provider's credential, or pass evaltest.WithJudge)"
	reasonOff     = "judge switched off (evaltest.WithoutJudge or " + envNoJudge + ")"
)

// resolveJudge returns the judge of c for a suite whose judge section is
// suite (nil: none), or why there is none (short is testing.Short()).
// Invalid settings, a missing credential or an unusable cache are errors,
// as they are exit-2 errors of evalrun.
func (c *config) resolveJudge(st *suite.ModelConfig, short bool) (score.Judge, string, error) {
	switch {
	case short:
		return nil, reasonShort, nil
	case c.judge != nil:
		return c.judge, "", nil
	case c.noJudge:
		return nil, reasonOff, nil
	}
	if v := c.getenv(envNoJudge); v != "" {
		off, err := strconv.ParseBool(v)
		if err != nil {
			return nil, "", fmt.Errorf("judge: %s=%q: want true or false (1 or 0)", envNoJudge, v)
		}
		if off {
			return nil, reasonOff, nil
		}
	}
	s, ok, err := judgeSettings(st, c.getenv)
	if err != nil || !ok {
		return nil, reasonNoJudge, err
	}
	if c.models == nil {
		return nil, "", fmt.Errorf("judge: %s configures one, and a judge calls a model: pass evaltest.WithModels(modelkit.Models{}) to build it, "+
			"or evaltest.WithJudge", judgeSource(st))
	}
	setup, err := c.setup()
	if err != nil {
		return nil, "", err
	}
	j, _, err := setup.Judge(s, c.getenv(envJudgeCache))
	if err != nil {
		return nil, "", fmt.Errorf("judge: %w", err)
	}
	return j, "", nil
}

// judgeSource names what configured the judge: the suite's judge section
// or the environment.
func judgeSource(st *suite.ModelConfig) string {
	if st != nil {
		return "the suite's judge section"
	}
	return envJudgeModel
}

// setup is how Run and NewJudge build agents and judges, as evalrun builds
// them (eval.Setup): the models of WithModels, priced by the catalog under
// the EVALRUN_PRICES file, read once. No process guardian: it is evalrun's
// own binary; the agents' process groups and parent-death signal remain.
func (c *config) setup() (eval.Setup, error) {
	if c.models != nil && c.catalog == nil {
		cat, err := prices.Load(c.getenv(envPrices))
		if err != nil {
			return eval.Setup{}, fmt.Errorf("%s: %w", envPrices, err)
		}
		c.catalog = cat
	}
	return eval.Setup{Models: c.models, Prices: c.catalog}, nil
}

// judgeSettings merges the suite's judge section with the environment the
// way evalrun merges it with its flags (suite.JudgeSettings): the
// environment wins; without a suite judge only EVAL_JUDGE_MODEL configures
// one; ok is false when none is configured.
func judgeSettings(s *suite.ModelConfig, getenv func(string) string) (llm.Settings, bool, error) {
	return suite.JudgeSettings(s, suite.JudgeOverride{
		Provider: getenv(envJudgeProvider), Model: getenv(envJudgeModel), BaseURL: getenv(envJudgeBaseURL),
		ProviderName: envJudgeProvider, ModelName: envJudgeModel, BaseURLName: envJudgeBaseURL, Ask: "set"})
}
