package suite

import (
	"bytes"
	_ "embed"
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/score"
)

//go:embed suite.schema.json
var suiteSchema []byte

// JSONSchema returns the JSON Schema of suite files (a copy is committed as
// docs/suite.schema.json for editors): the hand-written suite.schema.json
// with the definitions of every built-in check type generated from
// score.Builtins() (see GenerateJSONSchema), so the types, params,
// descriptions and examples an editor offers cannot drift from what Load
// accepts. It is self-contained: the schema of api_interactions
// (replay.JSONSchema) is inlined under $defs, its root as api_interactions
// and its definitions prefixed with api_, so editors validate replay
// declarations offline.
func JSONSchema() []byte {
	b, err := GenerateJSONSchema(score.Builtins())
	if err != nil { // the built-in docs are plain values; a test covers this
		panic(fmt.Sprintf("generate suite schema: %v", err))
	}
	return b
}

// GenerateJSONSchema returns the suite schema for the types of reg. It
// adds under $defs:
//
//   - check_type: an enum of the type names (with per-name descriptions);
//   - params_<type>: the type's params object, every param typed and
//     described, required ones required, unknown ones refused, with an
//     example;
//   - evaluator_params: binds an evaluator's "params" to params_<type> by
//     its "type";
//   - check: an inline check of a question or golden-set line: "type",
//     "name", "threshold" and the type's params as sibling keys.
func GenerateJSONSchema(reg score.Registry) ([]byte, error) {
	names := reg.Names()
	var descs []string
	defs := []struct {
		name string
		def  any
	}{}
	var evalRules, checkRules []any
	for _, name := range names {
		doc := reg[name].Doc
		descs = append(descs, doc.Summary)
		props := map[string]any{}
		var required []string
		for _, p := range doc.Params {
			prop := map[string]any{"description": p.Description}
			for k, v := range p.Schema {
				prop[k] = v
			}
			props[p.Name] = prop
			if p.Required {
				required = append(required, p.Name)
			}
		}
		params := map[string]any{"description": name + " params. " + doc.Summary, "type": "object",
			"additionalProperties": false, "properties": props}
		if len(required) == 0 && len(doc.OneOf) == 0 {
			params["type"] = []string{"object", "null"}
		}
		if len(required) > 0 {
			params["required"] = required
		}
		if len(doc.OneOf) > 0 {
			params["oneOf"] = oneOfRequired(doc.OneOf)
		}
		if doc.Example != nil {
			params["examples"] = []json.RawMessage{doc.Example}
		}
		defs = append(defs, struct {
			name string
			def  any
		}{"params_" + name, params})
		isType := map[string]any{"properties": map[string]any{"type": map[string]any{"const": name}}, "required": []string{"type"}}
		evalRules = append(evalRules, map[string]any{"if": isType,
			"then": map[string]any{"properties": map[string]any{"params": map[string]any{"$ref": "#/$defs/params_" + name}}}})
		inline := map[string]any{"type": true, "name": true, "threshold": true}
		for k, v := range props {
			inline[k] = v
		}
		then := map[string]any{"properties": inline, "additionalProperties": false}
		if len(required) > 0 {
			then["required"] = required
		}
		if len(doc.OneOf) > 0 {
			then["oneOf"] = oneOfRequired(doc.OneOf)
		}
		checkRules = append(checkRules, map[string]any{"if": isType, "then": then})
	}
	checkType := map[string]any{"enum": names, "enumDescriptions": descs,
		"description": "A check type; `evalrun checks` lists each with its params and an example."}
	check := map[string]any{
		"type": "object", "required": []string{"type"},
		"description": "A check of this question only: \"type\", optional \"name\" (default: the type; required to tell two checks of one type apart) and \"threshold\" (default 1, 0.9 for judge-backed types), and the type's params as sibling keys.",
		"properties": map[string]any{
			"type":      map[string]any{"$ref": "#/$defs/check_type"},
			"name":      map[string]any{"type": "string", "minLength": 1, "description": "The metric's name (default: the type); unique within the question."},
			"threshold": map[string]any{"$ref": "#/$defs/threshold", "description": "Default 1 (0.9 for judge-backed types)."},
		},
		"allOf":    checkRules,
		"examples": []any{json.RawMessage(`{"type": "contains", "value": "Paris"}`), json.RawMessage(`{"type": "matches", "name": "year", "pattern": "\\b1889\\b"}`)},
	}
	defs = append([]struct {
		name string
		def  any
	}{{"check_type", checkType}, {"evaluator_params", map[string]any{"allOf": evalRules}}, {"check", check}}, defs...)

	const anchor = "\n  \"$defs\": {\n"
	i := bytes.Index(suiteSchema, []byte(anchor))
	if i < 0 {
		return nil, fmt.Errorf("generate suite schema: suite.schema.json has no top-level \"$defs\"")
	}
	var b bytes.Buffer
	b.Write(suiteSchema[:i+len(anchor)])
	for _, d := range defs {
		raw, err := marshalIndent(d.def)
		if err != nil {
			return nil, fmt.Errorf("generate suite schema: %s: %w", d.name, err)
		}
		fmt.Fprintf(&b, "    %q: %s,\n", d.name, raw)
	}
	b.Write(suiteSchema[i+len(anchor):])
	if !json.Valid(b.Bytes()) {
		return nil, fmt.Errorf("generate suite schema: the result is not valid JSON")
	}
	return b.Bytes(), nil
}

func oneOfRequired(names []string) []any {
	out := make([]any, len(names))
	for i, n := range names {
		out[i] = map[string]any{"required": []string{n}}
	}
	return out
}

// marshalIndent encodes v indented to sit under "$defs", without HTML
// escaping.
func marshalIndent(v any) ([]byte, error) {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	enc.SetIndent("    ", "  ")
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return []byte(strings.TrimRight(b.String(), "\n")), nil
}
