package suite

import (
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/score"
)

// Validate reports every problem that would stop evalrun from running the
// suite with the agent its file describes, beyond what Load checks: the
// agent section names an agent NewAgent can build (Load accepts an agent
// with only a name, for suites run with a Go function agent), the judge
// section's settings are usable, and every metric's scorer can be built
// (Load built them; only an evaluator made by hand is built here).
// Replay fixtures are checked by Load. Validate starts no process, opens no
// connection and reads no credential or environment variable, so it suits
// `evalrun validate` on a machine without the run's secrets. Problems come
// back as a *ValidationError.
func (s *Suite) Validate() error {
	var list []Problem
	p := Problems{File: s.Path, List: &list}
	checkAgent(p, s.Agent)
	if s.Judge != nil {
		if err := s.Judge.Settings().Validate(); err != nil {
			p.add("$.judge", "%s", strings.TrimPrefix(err.Error(), llm.ErrInvalidSettings.Error()+": "))
		}
	}
	for _, name := range s.Calculated(true) {
		ev, found := s.evaluator(name)
		if !found || ev.scorer != nil {
			continue // built by Load, or an inline check's or a type's name, which resolve only when built
		}
		if _, err := s.Registry.Build(ev.Type, ev.Params, score.ContextJudge{}); err != nil {
			p.add("$", "metric %q: %v", name, err)
		}
	}
	if len(list) > 0 {
		return &ValidationError{Problems: list}
	}
	return nil
}

// ValidateAgent is the agent part of Check: it reports, as a
// *ValidationError, an agent section NewAgent would refuse, without
// building the agent.
func (s *Suite) ValidateAgent() error {
	var list []Problem
	checkAgent(Problems{File: s.Path, List: &list}, s.Agent)
	if len(list) > 0 {
		return &ValidationError{Problems: list}
	}
	return nil
}

// ErrNoAgentType is NewAgent's refusal of an agent section that names no
// way to reach the agent.
var ErrNoAgentType = errors.New("want a command, worker, http or llm agent (set command, url or llm)")

// checkAgent records what NewAgent would refuse in cfg, leaving out what
// depends on the environment (header_env values, provider credentials).
func checkAgent(p Problems, cfg AgentConfig) {
	switch cfg.Type {
	case AgentCommand, AgentWorker, AgentHTTP:
	case AgentLLM:
		if cfg.LLM == nil {
			p.add("$.agent.llm", "missing: an llm agent needs an llm section (provider, model)")
			return
		}
		if err := cfg.LLM.Settings().Validate(); err != nil {
			p.add("$.agent.llm", "%s", strings.TrimPrefix(err.Error(), llm.ErrInvalidSettings.Error()+": "))
		}
	default:
		p.add("$.agent", "%v", ErrNoAgentType)
	}
}

// Settings converts the model section to package llm's settings
// (the judge section, an llm agent's model, or either after flags override it).
func (m ModelConfig) Settings() llm.Settings {
	return llm.Settings{
		Provider:    m.Provider,
		Model:       m.Model,
		BaseURL:     m.BaseURL,
		Temperature: m.Temperature,
		MaxTokens:   m.MaxTokens,
		Timeout:     time.Duration(m.Timeout),
	}
}

// AgentConfigError is NewAgent's error for a section checkAgent refuses.
func AgentConfigError(cfg AgentConfig) error {
	var list []Problem
	checkAgent(Problems{List: &list}, cfg)
	if len(list) == 0 {
		return nil
	}
	return fmt.Errorf("new agent %q: %s: %s", cfg.Name, list[0].Path, list[0].Message)
}

// EnvVar is an environment variable a run of the suite reads: a provider
// credential or an http agent header value.
type EnvVar struct {
	Name string
	// For says what reads it, as a JSON path of the suite: "$.judge",
	// "$.agent.llm", "$.agent.header_env[\"Authorization\"]".
	For string
}

// Env lists the environment variables a run of the suite as written reads
// (Check leaves them out, as they belong to the machine, not the suite):
// the judge provider's credential when a metric needs the judge, the llm
// agent provider's credential, and the http agent's header_env values.
// Judge flags given at run time may change the first.
func (s *Suite) Env() []EnvVar {
	var out []EnvVar
	if s.Judge != nil && s.NeedsJudge() {
		if name := llm.CredentialEnv(s.Judge.Provider); name != "" {
			out = append(out, EnvVar{Name: name, For: "$.judge"})
		}
	}
	if s.Agent.Type == AgentLLM && s.Agent.LLM != nil {
		if name := llm.CredentialEnv(s.Agent.LLM.Provider); name != "" {
			out = append(out, EnvVar{Name: name, For: "$.agent.llm"})
		}
	}
	out = append(out, s.outcomeEnv()...)
	if s.Agent.Type == AgentHTTP {
		headers := make([]string, 0, len(s.Agent.HeaderEnv))
		for h := range s.Agent.HeaderEnv {
			headers = append(headers, h)
		}
		slices.Sort(headers)
		for _, h := range headers {
			out = append(out, EnvVar{Name: s.Agent.HeaderEnv[h], For: child("$.agent.header_env", h)})
		}
	}
	return out
}
