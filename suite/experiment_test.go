package suite

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// writeExperiment writes a suite (with the given agent section) and an
// experiment file next to it and returns the experiment's path.
func writeExperiment(t *testing.T, a, experiment string) string {
	t.Helper()
	dir := t.TempDir()
	s := `{"suite": "S", "agent": ` + a + `, "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [{"id": "q1", "question": "Q?", "expected_answer": "A"}]}`
	if err := os.WriteFile(filepath.Join(dir, "suite.json"), []byte(s), 0o644); err != nil {
		t.Fatal(err)
	}
	p := filepath.Join(dir, "experiment.json")
	if err := os.WriteFile(p, []byte(experiment), 0o644); err != nil {
		t.Fatal(err)
	}
	return p
}

func TestLoadExperiment_Variants(t *testing.T) {
	const cmdAgent = `{"name": "Bot", "command": ["sh", "agent.sh"], "env": ["KEEP"]}`
	const llmAgent = `{"name": "Bot", "llm": {"provider": "openai", "model": "m0", "system_prompt": "p0", "base_url": "http://127.0.0.1:1/v1"}}`
	tests := []struct {
		name, agent, experiment string
		check                   func(t *testing.T, e *Experiment)
	}{
		{"env revisions", cmdAgent, `{"suite": "suite.json", "variants": [
			{"name": "ref", "env": {"REV": "ref"}, "metadata": {"revision": "r1"}},
			{"name": "cand", "env": {"REV": "cand"}}]}`,
			func(t *testing.T, e *Experiment) {
				if e.Name != "S" || len(e.Variants) != 2 {
					t.Fatalf("experiment = %+v", e)
				}
				ref := e.Variants[0]
				if ref.Agent.Name != "Bot [ref]" || ref.Agent.Type != AgentCommand || strings.Join(ref.Agent.Env, ",") != "KEEP,REV" {
					t.Errorf("ref agent = %+v", ref.Agent)
				}
				if v, _ := ref.LookupEnv(func(string) (string, bool) { return "outer", true })("REV"); v != "ref" {
					t.Errorf("REV = %q, want the variant's value", v)
				}
				if v, _ := ref.LookupEnv(func(string) (string, bool) { return "outer", true })("KEEP"); v != "outer" {
					t.Errorf("KEEP = %q, want evalrun's value", v)
				}
				if ref.Metadata["revision"] != "r1" {
					t.Errorf("metadata = %v", ref.Metadata)
				}
			}},
		{"url replaces the command", cmdAgent, `{"experiment": "E", "suite": "suite.json", "variants": [
			{"name": "local"},
			{"name": "remote", "agent": {"name": "Remote", "url": "http://127.0.0.1:9/answer"}}]}`,
			func(t *testing.T, e *Experiment) {
				r := e.Variants[1].Agent
				if e.Name != "E" || r.Name != "Remote" || r.Type != AgentHTTP || r.Command != nil || r.URL == "" {
					t.Errorf("remote agent = %+v", r)
				}
				if e.Variants[0].Agent.Type != AgentCommand {
					t.Errorf("local agent = %+v", e.Variants[0].Agent)
				}
			}},
		{"llm merged key by key", llmAgent, `{"suite": "suite.json", "variants": [
			{"name": "a"}, {"name": "b", "agent": {"llm": {"model": "m1"}}}]}`,
			func(t *testing.T, e *Experiment) {
				b := e.Variants[1].Agent.LLM
				if b == nil || b.Model != "m1" || b.SystemPrompt != "p0" || b.Provider != "openai" {
					t.Errorf("b llm = %+v", b)
				}
			}},
		{"matrix", llmAgent, `{"suite": "suite.json", "matrix": {"model": ["m1", "m2"], "system_prompt": ["short", "long"]}}`,
			func(t *testing.T, e *Experiment) {
				var names []string
				for _, v := range e.Variants {
					names = append(names, v.Name+"="+v.Agent.LLM.Model+"/"+v.Agent.LLM.SystemPrompt)
				}
				want := "m1 · prompt 1=m1/short,m1 · prompt 2=m1/long,m2 · prompt 1=m2/short,m2 · prompt 2=m2/long"
				if got := strings.Join(names, ","); got != want {
					t.Errorf("variants = %s, want %s", got, want)
				}
				if e.Variants[3].Agent.Name != "Bot [m2 · prompt 2]" || e.Variants[3].Params["system_prompt"] != "long" {
					t.Errorf("last variant = %+v", e.Variants[3])
				}
			}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			e, err := LoadExperiment(writeExperiment(t, tt.agent, tt.experiment))
			if err != nil {
				t.Fatal(err)
			}
			tt.check(t, e)
		})
	}
}

func TestLoadExperiment_Invalid(t *testing.T) {
	const cmdAgent = `{"name": "Bot", "command": ["sh", "agent.sh"]}`
	tests := []struct{ name, experiment, want string }{
		{"no suite", `{"variants": []}`, "$.suite: missing"},
		{"neither variants nor matrix", `{"suite": "suite.json"}`, "$.variants: missing"},
		{"one variant", `{"suite": "suite.json", "variants": [{"name": "a"}]}`, "want at least two variants"},
		{"duplicate names", `{"suite": "suite.json", "variants": [{"name": "a"}, {"name": "a"}]}`, `$.variants[1].name: duplicate variant name "a"`},
		{"same agent name", `{"suite": "suite.json", "variants": [{"name": "a", "agent": {"name": "X"}}, {"name": "b", "agent": {"name": "X"}}]}`, `same agent "X"`},
		{"bad env", `{"suite": "suite.json", "variants": [{"name": "a", "env": ["REV"]}, {"name": "b"}]}`, "$.variants[0].env: want an object of strings"},
		{"env value not a string", `{"suite": "suite.json", "variants": [{"name": "a", "env": {"REV": 5}}, {"name": "b"}]}`, "$.variants[0].env.REV: want a string, got 5 (environment values are text: quote it)"},
		{"unknown key", `{"suite": "suite.json", "variants": [{"name": "a", "prompt": "x"}, {"name": "b"}]}`, "$.variants[0].prompt: unknown key"},
		{"bad agent override", `{"suite": "suite.json", "variants": [{"name": "a", "agent": {"url": "ftp://x"}}, {"name": "b"}]}`, "$.variants[0].agent.url: want an http:// or https:// URL"},
		{"matrix needs llm", `{"suite": "suite.json", "matrix": {"model": ["m"]}}`, "a matrix needs llm agents"},
		{"missing suite file", `{"suite": "nope.json", "variants": [{"name": "a"}, {"name": "b"}]}`, "load suite:"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := LoadExperiment(writeExperiment(t, cmdAgent, tt.experiment))
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Errorf("err = %v, want %q", err, tt.want)
			}
			if err != nil && tt.want != "load suite:" && !strings.HasPrefix(err.Error(), "load experiment: ") {
				t.Errorf("err = %v, want it to say load experiment", err)
			}
		})
	}
}
