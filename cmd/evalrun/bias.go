package main

import (
	"fmt"
	"io"
	"strings"

	"github.com/agentevals-go/agentevals/provider"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/suite"
)

// modelFamilies map a model name's first word to its family: a judge of
// the agent's own family tends to prefer the agent's answers.
var modelFamilies = []struct{ prefix, family string }{
	{"gpt", "openai-gpt"}, {"o1", "openai-gpt"}, {"o3", "openai-gpt"}, {"o4", "openai-gpt"}, {"chatgpt", "openai-gpt"},
	{"claude", "claude"}, {"gemini", "gemini"}, {"gemma", "gemini"}, {"llama", "llama"}, {"mistral", "mistral"},
	{"mixtral", "mistral"}, {"qwen", "qwen"}, {"deepseek", "deepseek"}, {"phi", "phi"}, {"command", "cohere"},
}

// ModelFamily is the family of a model name ("gpt-4o-mini" → openai-gpt),
// read past any vendor path ("meta-llama/Llama-3.1-8B" → llama); "" when
// unknown.
func ModelFamily(model string) string {
	m := strings.ToLower(strings.TrimSpace(model))
	if i := strings.LastIndex(m, "/"); i >= 0 {
		m = m[i+1:]
	}
	if i := strings.Index(m, ":"); i >= 0 && !strings.HasPrefix(m, "o") {
		m = m[:i]
	}
	for _, f := range modelFamilies {
		if strings.HasPrefix(m, f.prefix) {
			return f.family
		}
	}
	return ""
}

// warnSameFamily warns when the judge and an llm agent share a model
// family (self-preference bias).
func warnSameFamily(w io.Writer, agentCfg *suite.ModelConfig, judge *provider.Judge, what string) {
	if agentCfg == nil || judge == nil {
		return
	}
	jm := judge.Totals().Model
	if fam := ModelFamily(jm); fam != "" && fam == ModelFamily(agentCfg.Model) {
		fmt.Fprintf(w, "warning: %sthe judge (%s) and the llm agent (%s) are both %s models: a judge tends to prefer answers of its own family; judge with another family (--judge-model) or check the judge against human labels (evalrun label, calibrate)\n",
			what, sanitize.EscapeText(jm), sanitize.EscapeText(agentCfg.Model), fam)
	}
}
