package runner

import (
	"bytes"
	"os"
	"path/filepath"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestJSONSchema_AgreesWithLoad checks the published schema against suites
// that Load accepts (they must validate) and a sample of the malformed
// corpus whose problems a schema can express (they must not).
func TestJSONSchema_AgreesWithLoad(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(JSONSchema()))
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
	validate := func(path string) error {
		f, err := os.Open(path)
		if err != nil {
			t.Fatal(err)
		}
		defer f.Close()
		inst, err := jsonschema.UnmarshalJSON(f)
		if err != nil {
			t.Fatal(err)
		}
		return sch.Validate(inst)
	}
	good := filepath.Join("..", "examples", "support", "suite.json")
	if _, err := Load(good); err != nil {
		t.Fatal(err)
	}
	if err := validate(good); err != nil {
		t.Errorf("%s does not validate: %v", good, err)
	}
	for _, name := range []string{"unknown-top-key.json", "missing-suite.json", "agent-unknown-key.json",
		"agent-bad-type.json", "threshold-high.json", "threshold-string.json", "question-number.json",
		"expected-actions-no-group.json", "evaluator-missing-type.json", "judge-missing-model.json", "no-questions.json"} {
		if err := validate(filepath.Join("testdata", "invalid", name)); err == nil {
			t.Errorf("%s validates against the schema", name)
		}
	}
}
