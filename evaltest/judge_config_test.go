package evaltest

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/modelkit"
	"github.com/agentevals-go/agentevals/suite"
)

func TestJudgeSettings(t *testing.T) {
	st := &suite.ModelConfig{Provider: "ollama", Model: "llama3", BaseURL: "http://127.0.0.1:11434"}
	tests := []struct {
		name      string
		suite     *suite.ModelConfig
		env       map[string]string
		ok        bool
		provider  string
		model     string
		baseURL   string
		errSubstr string
	}{
		{name: "nothing configured", ok: false},
		{name: "model from the environment", env: map[string]string{envJudgeModel: "m", envJudgeBaseURL: "http://127.0.0.1:1/v1"},
			ok: true, provider: "openai", model: "m", baseURL: "http://127.0.0.1:1/v1"},
		{name: "suite judge", suite: st, ok: true, provider: "ollama", model: "llama3", baseURL: "http://127.0.0.1:11434"},
		{name: "environment overrides the suite's model", suite: st, env: map[string]string{envJudgeModel: "qwen"},
			ok: true, provider: "ollama", model: "qwen", baseURL: "http://127.0.0.1:11434"},
		{name: "provider without a model", env: map[string]string{envJudgeProvider: "anthropic"}, errSubstr: "set EVAL_JUDGE_MODEL too"},
		{name: "other provider keeps the suite's model", suite: st, env: map[string]string{envJudgeProvider: "openai"},
			errSubstr: `the suite's judge model "llama3" belongs to ollama`},
		{name: "unknown provider", env: map[string]string{envJudgeModel: "m", envJudgeProvider: "nope"}, errSubstr: "nope"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, ok, err := judgeSettings(tt.suite, func(k string) string { return tt.env[k] })
			if tt.errSubstr != "" {
				if err == nil || !strings.Contains(err.Error(), tt.errSubstr) {
					t.Fatalf("err %v, want one containing %q", err, tt.errSubstr)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if ok != tt.ok || s.Provider != tt.provider || s.Model != tt.model || s.BaseURL != tt.baseURL {
				t.Errorf("got ok=%v %s/%s at %q, want ok=%v %s/%s at %q", ok, s.Provider, s.Model, s.BaseURL, tt.ok, tt.provider, tt.model, tt.baseURL)
			}
		})
	}
}

func TestResolveJudge_reasons(t *testing.T) {
	env := map[string]string{envJudgeModel: "m", envJudgeBaseURL: "http://127.0.0.1:1/v1", envNoJudge: "1"}
	c, err := newConfig([]Option{withEnv(func(k string) string { return env[k] }), WithModels(modelkit.Models{})})
	if err != nil {
		t.Fatal(err)
	}
	if j, why, err := c.resolveJudge(nil, true); j != nil || why != reasonShort || err != nil {
		t.Errorf("-short: %v %q %v", j, why, err)
	}
	if j, why, err := c.resolveJudge(nil, false); j != nil || why != reasonOff || err != nil {
		t.Errorf("EVAL_NO_JUDGE=1: %v %q %v", j, why, err)
	}
	env[envNoJudge] = "perhaps"
	if _, _, err := c.resolveJudge(nil, false); err == nil || !strings.Contains(err.Error(), `EVAL_NO_JUDGE="perhaps"`) {
		t.Errorf("EVAL_NO_JUDGE=perhaps: %v", err)
	}
	env[envNoJudge] = ""
	if j, _, err := c.resolveJudge(nil, false); j == nil || err != nil {
		t.Errorf("EVAL_JUDGE_MODEL with a base URL: judge %v, err %v", j, err)
	}
	c.models = nil // a judge is configured, and nothing can build it
	if j, _, err := c.resolveJudge(nil, false); j != nil || err == nil || !strings.Contains(err.Error(), "evaltest.WithModels(modelkit.Models{})") {
		t.Errorf("EVAL_JUDGE_MODEL without WithModels: judge %v, err %v, want the error naming WithModels", j, err)
	}
}
