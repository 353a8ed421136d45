package suite

import (
	"bytes"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// committedSchema is docs/suite.schema.json, the copy editors use.
func committedSchema(t *testing.T) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("..", "docs", "suite.schema.json"))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// compileSchema compiles a suite schema with the real validator.
func compileSchema(t *testing.T, schema []byte) *jsonschema.Schema {
	t.Helper()
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(schema))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("suite.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("suite.schema.json")
	if err != nil {
		t.Fatalf("compile schema: %v", err)
	}
	return sch
}

// TestJSONSchema_CommittedIsGenerated checks that the committed copy is
// what the registry generates, so it cannot drift from Load.
func TestJSONSchema_CommittedIsGenerated(t *testing.T) {
	if !bytes.Equal(committedSchema(t), JSONSchema()) {
		t.Error("docs/suite.schema.json differs from the generated schema; run: go run ./cmd/evalrun schema > docs/suite.schema.json")
	}
}

// TestJSONSchema_TypesChecks validates suites against the committed
// schema with a real validator: misspelled check types and params of the
// wrong type are rejected, in suite evaluators and in inline checks, and
// what Load accepts validates.
func TestJSONSchema_TypesChecks(t *testing.T) {
	sch := compileSchema(t, committedSchema(t))
	const head = `{"suite": "S", "agent": {"name": "A", "command": ["true"]}, `
	tests := []struct {
		name, body string
		valid      bool
	}{
		{"evaluator", `"evaluators": {"x": {"type": "contains", "params": {"value": "Paris"}}}, "questions": [{"question": "q"}]`, true},
		{"evaluator misspelled type", `"evaluators": {"x": {"type": "contians", "params": {"value": "Paris"}}}, "questions": [{"question": "q"}]`, false},
		{"evaluator wrong param type", `"evaluators": {"x": {"type": "max_words", "params": {"limit": "20"}}}, "questions": [{"question": "q"}]`, false},
		{"evaluator unknown param", `"evaluators": {"x": {"type": "contains", "params": {"valeu": "Paris"}}}, "questions": [{"question": "q"}]`, false},
		{"evaluator missing required param", `"evaluators": {"x": {"type": "matches", "params": {}}}, "questions": [{"question": "q"}]`, false},
		{"contains value and values", `"evaluators": {"x": {"type": "contains", "params": {"value": "a", "values": ["b"]}}}, "questions": [{"question": "q"}]`, false},
		{"inline check", `"defaults": [], "questions": [{"question": "q", "checks": [{"type": "contains", "value": "Paris", "threshold": 1}, {"type": "contains", "name": "b", "values": ["x"]}]}]`, true},
		{"inline misspelled type", `"questions": [{"question": "q", "checks": [{"type": "contians", "value": "Paris"}]}]`, false},
		{"inline wrong param type", `"questions": [{"question": "q", "checks": [{"type": "contains", "value": 3}]}]`, false},
		{"inline unknown param", `"questions": [{"question": "q", "checks": [{"type": "contains", "valeu": "Paris"}]}]`, false},
		{"defaults object", `"defaults": {"valid_json": 1}, "questions": [{"question": "q"}]`, true},
		{"defaults not a list", `"defaults": "valid_json", "questions": [{"question": "q"}]`, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			inst, err := jsonschema.UnmarshalJSON(strings.NewReader(head + tt.body + "}"))
			if err != nil {
				t.Fatal(err)
			}
			err = sch.Validate(inst)
			if tt.valid && err != nil {
				t.Errorf("rejected: %v", err)
			}
			if !tt.valid && err == nil {
				t.Error("validates")
			}
			// Load agrees with the schema.
			_, lerr := Load(testfile.Write(t, t.TempDir(), "suite.json", head+tt.body+"}"))
			if (lerr == nil) != tt.valid {
				t.Errorf("Load: %v, schema valid: %v", lerr, tt.valid)
			}
		})
	}
}
