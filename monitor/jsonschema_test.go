package monitor

import (
	"bytes"
	"errors"
	"os"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"
)

// TestJSONSchema_AgreesWithLoad: the example monitor and the files Load
// accepts validate against the schema; a file with an unknown key is
// refused by both.
func TestJSONSchema_AgreesWithLoad(t *testing.T) {
	doc, err := jsonschema.UnmarshalJSON(bytes.NewReader(JSONSchema()))
	if err != nil {
		t.Fatal(err)
	}
	c := jsonschema.NewCompiler()
	if err := c.AddResource("monitor.schema.json", doc); err != nil {
		t.Fatal(err)
	}
	sch, err := c.Compile("monitor.schema.json")
	if err != nil {
		t.Fatalf("compile schema: %v", err)
	}
	example, err := os.ReadFile("../examples/production/monitor.json")
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		body []byte
		ok   bool
	}{
		{"example", example, true},
		{"filters", []byte(`{"monitor":"m","agent":"a","traces":{"root_span":"invoke_agent shop","attributes":{"env":"prod"}},"checks":[{"type":"step_budget","max":3}]}`), true},
		{"spend cap as text", []byte(`{"monitor":"m","agent":"a","max_judge_spend":"2.50","checks":[{"type":"error_spans"}]}`), true},
		{"spend cap as a number", []byte(`{"monitor":"m","agent":"a","max_judge_spend":0.25,"checks":[{"type":"error_spans"}]}`), true},
		{"spend cap zero", []byte(`{"monitor":"m","agent":"a","max_judge_spend":0,"checks":[{"type":"error_spans"}]}`), false},
		{"spend cap not a number", []byte(`{"monitor":"m","agent":"a","max_judge_spend":"lots","checks":[{"type":"error_spans"}]}`), false},
		{"unknown key", []byte(`{"monitor":"m","agent":"a","samples":0.1,"checks":[{"type":"error_spans"}]}`), false},
		{"unknown check param", []byte(`{"monitor":"m","agent":"a","checks":[{"type":"step_budget","maximum":3}]}`), false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			inst, err := jsonschema.UnmarshalJSON(bytes.NewReader(tc.body))
			if err != nil {
				t.Fatal(err)
			}
			schemaErr := sch.Validate(inst)
			_, loadErr := Load(write(t, string(tc.body)))
			if (schemaErr == nil) != tc.ok || (loadErr == nil) != tc.ok {
				t.Errorf("want ok=%v: schema says %v, Load says %v", tc.ok, schemaErr, errors.Unwrap(loadErr))
			}
		})
	}
}
