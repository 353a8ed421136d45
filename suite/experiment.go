package suite

import (
	"encoding/json"
	"fmt"
	"path/filepath"
	"slices"
	"strings"

	"github.com/agentevals-go/agentevals/bounds"
)

// Experiment evaluates the questions of one suite against several variants
// of its agent: other agents, other models or system prompts of an llm
// agent, or revisions of one agent selected by environment variables. Each
// variant is run as an ordinary run of the suite (same questions, same
// checks, same fingerprint), so baselines, the gate and the Ruby gem's
// models see normal runs; the runs are tied together by the experiment id
// in their metadata.
type Experiment struct {
	// Path is the experiment file as given to LoadExperiment.
	Path string
	// Name is the experiment's name (default: the suite's name).
	Name string
	// Suite is the suite every variant runs.
	Suite *Suite
	// Variants are the agent configurations to compare, in file order (a
	// matrix expands in row-major order: model, then system prompt).
	Variants []Variant
}

// Variant is one agent configuration of an experiment.
type Variant struct {
	// Name labels the variant in the grid and in the run's metadata.
	Name string
	// Agent is the suite's agent with the variant's overrides applied. Its
	// name is the variant's own agent name when it gives one, else the
	// suite agent's name followed by the variant name in brackets, so every
	// variant keeps its own history and baseline.
	Agent AgentConfig
	// Env holds literal values for environment variables of command and
	// worker agents (for example AGENT_REVISION). They are passed to the
	// agent only and never persisted.
	Env map[string]string
	// Metadata is merged into the run's metadata (for example a revision).
	Metadata map[string]any
	// Params records what the variant sets (model, system prompt, env names)
	// for the run's metadata; never the values of Env.
	Params map[string]any
}

// LookupEnv returns an environment lookup that answers the variant's own
// values first and base (evalrun's environment) otherwise.
func (v Variant) LookupEnv(base func(string) (string, bool)) func(string) (string, bool) {
	return func(name string) (string, bool) {
		if val, ok := v.Env[name]; ok {
			return val, true
		}
		return base(name)
	}
}

// MaxVariants bounds an experiment: every variant is a whole run.
const MaxVariants = 50

var (
	experimentKeys = []string{"$schema", "experiment", "suite", "variants", "matrix"}
	variantKeys    = []string{"name", "agent", "env", "metadata"}
	matrixKeys     = []string{"model", "system_prompt"}
	// agentKindKeys select an agent's kind: a variant that sets one of them
	// replaces the suite agent's kind instead of mixing the two.
	agentKindKeys = []string{"type", "command", "url", "llm", "headers", "header_env"}
)

// LoadExperiment reads and validates an experiment file (JSON, or YAML when
// the name ends in .yaml/.yml) and the suite it names (relative to the
// experiment file). Every problem is reported at once; nothing runs when
// there is one.
func LoadExperiment(path string) (*Experiment, error) {
	var list []Problem
	p := Problems{File: path, List: &list}
	fail := func() error { return &ValidationError{Problems: list, What: "experiment"} }
	data, err := bounds.ReadFile(path, bounds.DefaultMaxBytes)
	if err != nil {
		p.add("", "cannot read the experiment file: %v", err)
		return nil, fail()
	}
	isYAML := strings.ToLower(filepath.Ext(path)) == ".yaml" || strings.ToLower(filepath.Ext(path)) == ".yml"
	if !p.bounded(data, isYAML) { // variant metadata nests no deeper than a suite
		return nil, fail()
	}
	if isYAML {
		var ok bool
		if data, ok = yamlToJSON(p, data); !ok {
			return nil, fail()
		}
	}
	if !p.Portable(data) {
		return nil, fail()
	}
	abs, err := filepath.Abs(path)
	if err != nil {
		p.add("", "cannot resolve the experiment path: %v", err)
		return nil, fail()
	}
	dir := filepath.Dir(abs)
	top := p.object("$", data, experimentKeys...)
	if top == nil {
		return nil, fail()
	}
	e := &Experiment{Path: path}
	raw, ok := top["suite"]
	if !ok {
		p.add("$.suite", "missing: want the path of the suite file, relative to this file")
		return nil, fail()
	}
	rel, ok := p.nonEmpty("$.suite", raw)
	if !ok {
		return nil, fail()
	}
	suitePath := rel
	if !filepath.IsAbs(suitePath) {
		suitePath = filepath.Join(dir, rel)
	}
	if e.Suite, err = Load(suitePath); err != nil {
		return nil, err
	}
	e.Name = e.Suite.Name
	if raw, ok := top["experiment"]; ok {
		e.Name, _ = p.nonEmpty("$.experiment", raw)
	}
	base := []Variant{{Agent: e.Suite.Agent}}
	if raw, ok := top["variants"]; ok {
		base = e.parseVariants(p, raw, dir)
	}
	e.Variants = base
	if raw, ok := top["matrix"]; ok {
		e.Variants = expandMatrix(p, raw, base)
	} else if _, ok := top["variants"]; !ok {
		p.add("$.variants", "missing: want variants (a list of agents or revisions) or a matrix (models × system prompts of an llm agent)")
	}
	if len(list) == 0 && len(e.Variants) < 2 {
		p.add("$.variants", "want at least two variants to compare, got %d", len(e.Variants))
	}
	if len(e.Variants) > MaxVariants {
		p.add("$.variants", "want at most %d variants (each one is a whole run), got %d", MaxVariants, len(e.Variants))
	}
	if len(list) > 0 {
		return nil, fail()
	}
	agents := map[string]string{}
	for i := range e.Variants {
		v := &e.Variants[i]
		if v.Agent.Name == e.Suite.Agent.Name {
			v.Agent.Name = fmt.Sprintf("%s [%s]", e.Suite.Agent.Name, v.Name)
		}
		if other, dup := agents[v.Agent.Name]; dup {
			p.add("$.variants", "variants %q and %q would write runs of the same agent %q: give them different agent names", other, v.Name, v.Agent.Name)
		}
		agents[v.Agent.Name] = v.Name
	}
	if len(list) > 0 {
		return nil, fail()
	}
	return e, nil
}

// parseVariants reads the variants list: each a name plus overrides of the
// suite's agent section, literal environment values and run metadata.
func (e *Experiment) parseVariants(p Problems, raw json.RawMessage, dir string) []Variant {
	var items []json.RawMessage
	if raw[0] != '[' || json.Unmarshal(raw, &items) != nil {
		p.add("$.variants", "want an array of variants, got %s", describe(raw))
		return nil
	}
	var out []Variant
	seen := map[string]bool{}
	for i, item := range items {
		path := Index("$.variants", i)
		obj := p.object(path, item, variantKeys...)
		if obj == nil {
			continue
		}
		v := Variant{Agent: e.Suite.Agent, Params: map[string]any{}}
		if n, ok := obj["name"]; ok {
			v.Name, _ = p.nonEmpty(child(path, "name"), n)
		} else {
			p.add(child(path, "name"), "missing: want the variant's name (its column in the grid)")
		}
		if v.Name != "" && seen[v.Name] {
			p.add(child(path, "name"), "duplicate variant name %q", v.Name)
		}
		seen[v.Name] = true
		if a, ok := obj["agent"]; ok {
			v.Agent = overrideAgent(p, child(path, "agent"), e.Suite.Agent, a, dir)
		}
		if env, ok := obj["env"]; ok {
			v.Env = variantEnv(p, child(path, "env"), env)
			names := make([]string, 0, len(v.Env))
			for n := range v.Env {
				names = append(names, n)
				if !slices.Contains(v.Agent.Env, n) {
					v.Agent.Env = append(slices.Clone(v.Agent.Env), n)
				}
			}
			slices.Sort(names)
			v.Params["env"] = names
		}
		if m, ok := obj["metadata"]; ok {
			if m[0] != '{' || json.Unmarshal(m, &v.Metadata) != nil {
				p.add(child(path, "metadata"), "want a JSON object, got %s", describe(m))
			}
		}
		out = append(out, v)
	}
	return out
}

// variantEnv reads literal environment values ({"NAME": "value"}).
func variantEnv(p Problems, path string, raw json.RawMessage) map[string]string {
	env := map[string]string{}
	var values map[string]json.RawMessage
	if raw[0] != '{' || json.Unmarshal(raw, &values) != nil {
		p.add(path, "want an object of strings such as {\"AGENT_REVISION\": \"candidate\"}, got %s", describe(raw))
		return nil
	}
	for name, v := range values {
		if json.Unmarshal(v, new(string)) != nil {
			p.add(child(path, name), "want a string, got %s (environment values are text: quote it)", describe(v))
			return nil
		}
	}
	_ = json.Unmarshal(raw, &env) // every value is a string
	for name := range env {
		if name == "" || strings.ContainsAny(name, "=\x00") {
			p.add(child(path, name), "want an environment variable name")
		}
	}
	return env
}

// overrideAgent applies a variant's agent object to the suite's agent:
// keys it gives replace the suite's; a variant that picks another kind of
// agent (command, url or llm) drops the suite agent's kind entirely, and an
// llm section is merged key by key so a variant may change only the model.
func overrideAgent(p Problems, path string, base AgentConfig, raw json.RawMessage, dir string) AgentConfig {
	over, ok := members(raw)
	if !ok {
		p.add(path, "want an object of agent settings to override, got %s", describe(raw))
		return base
	}
	merged := map[string]json.RawMessage{}
	b, _ := json.Marshal(base)
	_ = json.Unmarshal(b, &merged)
	for _, m := range over {
		if slices.Contains(agentKindKeys, m.key) {
			for _, k := range agentKindKeys {
				if k != "llm" {
					delete(merged, k)
				}
			}
			break
		}
	}
	for _, m := range over {
		if m.key == "llm" && merged["llm"] != nil && len(m.value) > 0 && m.value[0] == '{' {
			merged["llm"] = mergeObjects(merged["llm"], m.value)
			continue
		}
		merged[m.key] = m.value
	}
	if _, ok := merged["llm"]; ok {
		if _, cmd := merged["command"]; cmd {
			delete(merged, "llm")
		} else if _, url := merged["url"]; url {
			delete(merged, "llm")
		}
	}
	out, _ := json.Marshal(merged)
	return parseAgent(p, path, out, dir)
}

// mergeObjects returns a with b's keys laid over it (both JSON objects).
func mergeObjects(a, b json.RawMessage) json.RawMessage {
	m := map[string]json.RawMessage{}
	_ = json.Unmarshal(a, &m)
	over := map[string]json.RawMessage{}
	_ = json.Unmarshal(b, &over)
	for k, v := range over {
		m[k] = v
	}
	out, _ := json.Marshal(m)
	return out
}

// expandMatrix crosses every base variant with every model and system
// prompt of the matrix. It needs llm agents.
func expandMatrix(p Problems, raw json.RawMessage, base []Variant) []Variant {
	obj := p.object("$.matrix", raw, matrixKeys...)
	if obj == nil {
		return nil
	}
	models := []string{""}
	prompts := []string{""}
	if m, ok := obj["model"]; ok {
		if models, ok = p.strings("$.matrix.model", m); ok && len(models) == 0 {
			p.add("$.matrix.model", "want at least one model")
		}
	}
	if s, ok := obj["system_prompt"]; ok {
		if prompts, ok = p.strings("$.matrix.system_prompt", s); ok && len(prompts) == 0 {
			p.add("$.matrix.system_prompt", "want at least one system prompt")
		}
	}
	var out []Variant
	for i, b := range base {
		if b.Agent.LLM == nil {
			where := "the suite's agent"
			if b.Name != "" {
				where = fmt.Sprintf("variant %q", b.Name)
			}
			p.add("$.matrix", "a matrix needs llm agents (provider and model), but %s is a %s agent", where, b.Agent.Type)
			return nil
		}
		for _, model := range models {
			for j, prompt := range prompts {
				v := b
				llm := *b.Agent.LLM
				v.Params = cloneParams(b.Params)
				var parts []string
				if b.Name != "" {
					parts = append(parts, b.Name)
				}
				if model != "" {
					llm.Model = model
					v.Params["model"] = model
					parts = append(parts, model)
				}
				if len(prompts) > 1 || prompts[0] != "" {
					llm.SystemPrompt = prompt
					v.Params["system_prompt"] = prompt
					parts = append(parts, fmt.Sprintf("prompt %d", j+1))
				}
				v.Agent.LLM = &llm
				v.Name = strings.Join(parts, " · ")
				if v.Name == "" {
					v.Name = fmt.Sprintf("variant %d", i+1)
				}
				out = append(out, v)
			}
		}
	}
	return out
}

func cloneParams(m map[string]any) map[string]any {
	out := make(map[string]any, len(m)+2)
	for k, v := range m {
		out[k] = v
	}
	return out
}
