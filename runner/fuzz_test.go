package runner

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"agentevals/agent"
	"agentevals/sanitize"
	"agentevals/suite"
)

// FuzzLoad fuzzes the suite loader with arbitrary suite files (JSON and
// YAML): it never panics, every failure is a *ValidationError, and a suite
// that loads can be saved (no question holds an escape PostgreSQL jsonb
// refuses).
func FuzzLoad(f *testing.F) {
	f.Add(`{"suite": "S", "agent": {"name": "A", "command": ["true"]}, "questions": [{"id": "q", "question": "hi", "expected_answer": "x"}]}`, false)
	f.Add(`{"suite": "S", "agent": {"name": "A", "command": ["true"]}, "questions": [{"question": "hi\ud800"}]}`, false)
	f.Add(`{"suite": "S", "agent": {"name": "A", "url": "http://a:b@x/?api_key=1"}, "evaluators": {"e": {"type": "contains", "params": {"value": "a"}}}, "questions": [{"question": {"a": [1, 2]}, "minimum_scores": {"e": 0.5}}]}`, false)
	f.Add(strings.Repeat(`{"a":`, 300)+"1"+strings.Repeat("}", 300), false)
	f.Add("suite: S\nagent:\n  name: A\n  command: [\"true\"]\nquestions:\n- question: hi\n", true)
	f.Add("a: [[[[[[\n", true)
	f.Fuzz(func(t *testing.T, text string, yaml bool) {
		dir := t.TempDir()
		name := "suite.json"
		if yaml {
			name = "suite.yaml"
		}
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
		s, err := suite.Load(path)
		if err != nil {
			var ve *suite.ValidationError
			if !errors.As(err, &ve) || len(ve.Problems) == 0 {
				t.Fatalf("Load: %T %v, want a *ValidationError with problems", err, err)
			}
			return
		}
		for _, c := range s.Cases {
			for _, raw := range [][]byte{c.Question, c.ExpectedAnswer, c.Metadata} {
				if sanitize.BadEscape(raw) >= 0 || !json.Valid(raw) && raw != nil {
					t.Fatalf("case %q holds unsaveable JSON %q", c.ID, raw)
				}
			}
		}
	})
}

// FuzzParseReply fuzzes the agent reply parser: it never panics, and an
// accepted reply (after checkResponse's repairs) holds only JSON that
// PostgreSQL jsonb accepts.
func FuzzParseReply(f *testing.F) {
	for _, s := range []string{
		`{"output": "ok"}`, `plain text answer`, `{"output":"ok\ud800","actions":[{"group":"g","name":"n","arguments":{"a":"\u0000"}}]}`,
		`{"output": 1, "input_tokens": 3, "cost": 0.5, "metadata": {"k": [1]}}`, `{"output": "a"} {"output": "b"}`,
		`{"outputs": 1}`, "\xff\xfe", `{"output": ` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`,
	} {
		f.Add([]byte(s), true)
	}
	f.Add([]byte(`{"output": "x"}`), false)
	f.Fuzz(func(t *testing.T, b []byte, plainOK bool) {
		r, err := agent.ParseReply(b, plainOK)
		if err != nil {
			return
		}
		if err := agent.CheckResponse(&r); err != nil {
			return
		}
		if r.Output != nil && (!json.Valid(r.Output) || sanitize.BadEscape(r.Output) >= 0) {
			t.Fatalf("accepted output %q is not saveable JSON", r.Output)
		}
		for _, a := range r.Actions {
			if a.Arguments != nil && (!json.Valid(a.Arguments) || sanitize.BadEscape(a.Arguments) >= 0) {
				t.Fatalf("accepted arguments %q are not saveable JSON", a.Arguments)
			}
		}
	})
}
