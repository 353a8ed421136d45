package suite

import (
	"encoding/json"
	"fmt"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/santhosh-tekuri/jsonschema/v6"

	"github.com/agentevals-go/agentevals/replay"
)

// TestJSONSchema_AgreesWithLoad checks the published schema against suites
// that Load accepts (they must validate) and a sample of the malformed
// corpus whose problems a schema can express (they must not).
func TestJSONSchema_AgreesWithLoad(t *testing.T) {
	sch := compileSchema(t, JSONSchema())
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
	// The examples cover api_interactions as a list and as an object with
	// allow_hosts, inline replies and body files.
	for _, name := range []string{"support", "api_replay", "context_bloat", "conversation"} {
		good := filepath.Join("..", "examples", name, "suite.json")
		if _, err := Load(good); err != nil {
			t.Fatal(err)
		}
		if err := validate(good); err != nil {
			t.Errorf("%s does not validate: %v", good, err)
		}
	}
	for _, name := range []string{"unknown-top-key.json", "missing-suite.json", "agent-unknown-key.json",
		"agent-bad-type.json", "threshold-high.json", "threshold-string.json", "question-number.json",
		"expected-actions-no-name.json", "evaluator-missing-type.json", "judge-missing-model.json", "no-questions.json"} {
		if err := validate(filepath.Join("testdata", "invalid", name)); err == nil {
			t.Errorf("%s validates against the schema", name)
		}
	}
	// Malformed api_interactions: Load rejects them, and so does the schema.
	dir := t.TempDir()
	for i, replies := range []string{
		`[{"expect_request": {"method": "GET", "url": "https://a.example/"}, "respond_with": {"status": 200}}]`,
		`[{"expect_request": {"method": "FETCH", "url": "https://a.example/"}, "respond_with": {"json": 1}}]`,
		`{"allow_hosts": ["*.example"], "interactions": []}`,
	} {
		path := filepath.Join(dir, fmt.Sprintf("replay%d.json", i))
		s := `{"suite": "S", "agent": {"name": "A", "command": ["true"]}, "evaluators": {"exact": {"type": "exact_match"}},
		  "questions": [{"question": "q", "expected_answer": "a", "api_interactions": ` + replies + `}]}`
		if err := os.WriteFile(path, []byte(s), 0o644); err != nil {
			t.Fatal(err)
		}
		if _, err := Load(path); err == nil {
			t.Fatalf("Load accepts api_interactions %s; the table expects a problem", replies)
		}
		if err := validate(path); err == nil {
			t.Errorf("api_interactions %s validates against the schema", replies)
		}
	}
}

// TestJSONSchema_InlinesReplaySchema checks that the suite schema carries
// replay.JSONSchema() under $defs (its root as api_interactions, each of
// its definitions prefixed with api_), so editors need no second file.
func TestJSONSchema_InlinesReplaySchema(t *testing.T) {
	var s, fixtures map[string]any
	if err := json.Unmarshal(JSONSchema(), &s); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(replay.JSONSchema(), &fixtures); err != nil {
		t.Fatal(err)
	}
	want := map[string]any{}
	for name, def := range fixtures["$defs"].(map[string]any) {
		want["api_"+name] = prefixRefs(def)
	}
	root := map[string]any{}
	for k, v := range fixtures {
		if k != "$schema" && k != "$defs" {
			root[k] = prefixRefs(v)
		}
	}
	want["api_interactions"] = root
	defs := s["$defs"].(map[string]any)
	for name, w := range want {
		if got := defs[name]; !reflect.DeepEqual(got, w) {
			b, _ := json.Marshal(w)
			t.Errorf("runner/suite.schema.json $defs.%s differs from replay/fixtures.schema.json; want %s", name, b)
		}
	}
	q := defs["question"].(map[string]any)["properties"].(map[string]any)["api_interactions"].(map[string]any)
	if q["$ref"] != "#/$defs/api_interactions" {
		t.Errorf("question.api_interactions = %v, want a $ref to #/$defs/api_interactions", q)
	}
}

// prefixRefs copies a schema value with "#/$defs/x" references renamed to
// "#/$defs/api_x".
func prefixRefs(v any) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, e := range t {
			if s, ok := e.(string); ok && k == "$ref" {
				out[k] = strings.Replace(s, "#/$defs/", "#/$defs/api_", 1)
				continue
			}
			out[k] = prefixRefs(e)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, e := range t {
			out[i] = prefixRefs(e)
		}
		return out
	}
	return v
}
