package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

// TestValidateCmd_RejectsWhatRunRejects feeds suites that load but that
// run refuses before calling an agent: validate must refuse them too, with
// the same exit code, and run must still refuse them (nothing saved).
func TestValidateCmd_RejectsWhatRunRejects(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "test-key") // credentials are not what these suites get wrong
	const questions = `"evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [{"id": "q", "question": "q", "expected_answer": "ok"}]`
	tests := []struct {
		name, agent, judge, want string
	}{
		{"agent with only a name", `{"name": "A"}`, "",
			`$.agent: want a command, worker, http or llm agent (set command, url or llm)`},
		{"llm agent with an unknown provider", `{"name": "A", "llm": {"provider": "opnai", "model": "m"}}`, "",
			`$.agent.llm: unknown provider "opnai" (want openai, anthropic, ollama, azure, gemini or bedrock)`},
		{"llm agent with a base_url that is no URL", `{"name": "A", "llm": {"provider": "ollama", "model": "m", "base_url": "localhost:11434"}}`, "",
			`$.agent.llm: base URL "localhost:11434": want an http:// or https:// URL`},
		{"judge with an unknown provider", `{"name": "A", "command": ["true"]}`, `{"provider": "vertex", "model": "m"}`,
			`unknown provider "vertex"`},
		{"judge temperature out of range", `{"name": "A", "command": ["true"]}`, `{"provider": "openai", "model": "m", "temperature": 3}`,
			`temperature 3 is outside [0,2]`},
	}
	db := testdb.SQLite(t)
	url := db.URL
	db.Close()
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			judge := ""
			if tt.judge != "" {
				judge = `"judge": ` + tt.judge + ","
			}
			s := filepath.Join(t.TempDir(), "suite.json")
			body := `{"suite": "Rejected", "agent": ` + tt.agent + `, ` + judge + questions + `}`
			if err := os.WriteFile(s, []byte(body), 0o644); err != nil {
				t.Fatal(err)
			}
			code, out, stderr := evalrun(t, "validate", s)
			if code != exitInvalid || !strings.Contains(stderr, tt.want) || !strings.Contains(stderr, s) {
				t.Errorf("validate: exit %d, want 2 and %q naming the file:\n%s%s", code, tt.want, out, stderr)
			}
			args := []string{"--database-url", url, "run", s}
			if tt.judge != "" { // make the judge needed, as a judged metric would
				args = append(args, "--judge-model", "m")
			}
			if code, out, stderr := evalrun(t, args...); code != exitInvalid {
				t.Errorf("run: exit %d, want 2:\n%s%s", code, out, stderr)
			}
		})
	}
	if got := countRuns(t, url); got != 0 {
		t.Errorf("%d runs saved by rejected suites", got)
	}
}

// TestValidateCmd_NotesUnsetEnvironment passes a suite whose run needs
// credentials and header values that are not set here: exit 0 (they belong
// to the machine, not the suite), with a note naming each one.
func TestValidateCmd_NotesUnsetEnvironment(t *testing.T) {
	t.Setenv("OPENAI_API_KEY", "")
	t.Setenv("AGENT_TOKEN", "")
	t.Setenv("ANTHROPIC_API_KEY", "set")
	s := filepath.Join(t.TempDir(), "suite.json")
	os.WriteFile(s, []byte(`{"suite": "Env", "judge": {"provider": "openai", "model": "m"},
	  "agent": {"name": "A", "url": "http://127.0.0.1:1/agent", "header_env": {"Authorization": "AGENT_TOKEN", "X-Key": "ANTHROPIC_API_KEY"}},
	  "questions": [{"question": "q", "expected_answer": "a", "minimum_scores": {"semantic_accuracy": 0.9}}]}`), 0o644)
	code, out, stderr := evalrun(t, "validate", s)
	want := "note: run reads OPENAI_API_KEY (for $.judge), which is not set here\n" +
		"note: run reads AGENT_TOKEN (for $.agent.header_env.Authorization), which is not set here\n"
	if code != exitOK || stderr != want {
		t.Errorf("exit %d, stderr:\n%s\nwant:\n%s(stdout %s)", code, stderr, want, out)
	}
}
