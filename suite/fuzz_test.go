package suite

import (
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/sanitize"
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
		s, err := Load(path)
		if err != nil {
			var ve *ValidationError
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
