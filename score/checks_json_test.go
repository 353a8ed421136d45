package score

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestEquals_Score(t *testing.T) {
	runChecks(t, "equals", []checkCase{
		{name: "same string", sample: withExpected(says("Paris"), `"Paris"`), score: 1, reason: `expected JSON value "Paris"`},
		{name: "string is not number", sample: withExpected(says("1"), `1`), score: 0, reason: `output "1" does not equal the expected JSON value 1`},
		{name: "number is not string", params: `{"value": "42"}`, sample: answer(`42`), score: 0},
		{name: "numbers by value", params: `{"value": 1}`, sample: answer(`1.0e0`), score: 1},
		{name: "object key order", params: `{"value": {"a": 1, "b": [true, null]}}`, sample: answer(`{"b": [true, null], "a": 1}`), score: 1},
		{name: "nested difference", params: `{"value": {"a": {"b": 1}}}`, sample: answer(`{"a": {"b": 2}}`), score: 0},
		{name: "extra key", params: `{"value": {"a": 1}}`, sample: answer(`{"a": 1, "b": 2}`), score: 0},
		{name: "array order matters", params: `{"value": [1, 2]}`, sample: answer(`[2, 1]`), score: 0},
		{name: "whitespace is not trimmed", sample: withExpected(says("Paris "), `"Paris"`), score: 0},
		{name: "string is not parsed", params: `{"value": [1]}`, sample: says("[1]"), score: 0},
		{name: "unicode", sample: withExpected(says("東京 🚀"), `"\u6771\u4eac \ud83d\ude80"`), score: 1},
		{name: "null output equals null value", params: `{"value": null}`, sample: answer(`null`), score: 1, reason: "value null"},
		{name: "no output equals null value", params: `{"value": null}`, sample: Sample{}, score: 1},
		{name: "null output is not empty string", params: `{"value": ""}`, sample: answer(`null`), score: 0},
		{name: "no expected answer", sample: says("Paris"), errKind: "missing_expected_answer"},
		{name: "invalid output JSON", params: `{"value": 1}`, sample: answer(`{oops`), errKind: "invalid_json"},
	})
}

func TestValidJSON_Score(t *testing.T) {
	runChecks(t, "valid_json", []checkCase{
		{name: "object text", sample: says(`{"a": 1}`), score: 1, reason: "valid JSON (object)"},
		{name: "array text with whitespace", sample: says("\n [1, 2] \n"), score: 1, reason: "(array)"},
		{name: "structured output", sample: answer(`{"a": 1}`), score: 1},
		{name: "number output", sample: answer(`3.5`), score: 1, reason: "(number)"},
		{name: "null text is JSON", sample: says(`null`), score: 1, reason: "(null)"},
		{name: "prose", sample: says("Sure! Here it is."), score: 0, reason: "output text is not valid JSON"},
		{name: "markdown fence", sample: says("```json\n{}\n```"), score: 0},
		{name: "trailing data", sample: says(`{} {}`), score: 0, reason: "after the first JSON value"},
		{name: "empty output", sample: Sample{}, score: 0, reason: "no output"},
		{name: "null output", sample: answer(`null`), score: 0, reason: "no output"},
		{name: "empty text", sample: says("  "), score: 0, reason: "empty"},
		{name: "unicode", sample: says(`{"city": "東京"}`), score: 1},
	})
}

func TestJSONSchema_Score(t *testing.T) {
	const order = `{"schema": {"type": "object", "required": ["id", "status"], "additionalProperties": false,
		"properties": {"id": {"type": "integer"}, "status": {"enum": ["shipped", "pending"]}}}}`
	runChecks(t, "json_schema", []checkCase{
		{name: "valid text", params: order, sample: says(`{"id": 42, "status": "shipped"}`), score: 1, reason: "(object) matches the JSON schema"},
		{name: "valid structured output", params: order, sample: answer(`{"id": 42, "status": "pending"}`), score: 1},
		{name: "wrong type", params: order, sample: says(`{"id": "42", "status": "shipped"}`), score: 0, reason: `at "/id"`},
		{name: "missing property", params: order, sample: says(`{"id": 1}`), score: 0, reason: "status"},
		{name: "several violations", params: `{"schema": {"items": {"type": "integer"}}}`, sample: says(`["a", "b", "c", "d"]`), score: 0, reason: "(and 1 more)"},
		{name: "not JSON", params: order, sample: says("shipped"), score: 0, reason: "not valid JSON"},
		{name: "empty output", params: order, sample: Sample{}, score: 0, reason: "no output"},
		{name: "null output", params: `{"schema": {"type": "null"}}`, sample: answer(`null`), score: 0, reason: "no output"},
		{name: "local ref", params: `{"schema": {"$defs": {"n": {"type": "number"}}, "type": "array", "items": {"$ref": "#/$defs/n"}}}`,
			sample: says(`[1, 2.5]`), score: 1},
		{name: "format asserted", params: `{"schema": {"type": "string", "format": "email"}}`, sample: says(`"not an email"`), score: 0},
		{name: "boolean schema", params: `{"schema": true}`, sample: says(`[]`), score: 1},
		{name: "draft 7", params: `{"schema": {"$schema": "http://json-schema.org/draft-07/schema#", "type": "integer"}}`, sample: answer(`7`), score: 1},
		{name: "big numbers kept exact", params: `{"schema": {"const": 12345678901234567890}}`, sample: answer(`12345678901234567891`), score: 0},
		{name: "long value clipped", params: `{"schema": {"pattern": "^a$"}}`, sample: says(`"` + strings.Repeat("b", 300) + `"`), score: 0, reason: "…"},
	})
}

func TestJSONSchema_refusesExternalRefs(t *testing.T) {
	for _, ref := range []string{"https://example.com/schema.json", "file:///etc/passwd", "other.json"} {
		t.Run(ref, func(t *testing.T) {
			params, _ := json.Marshal(map[string]any{"schema": map[string]any{"$ref": ref}})
			_, err := deterministic().Build("json_schema", params, nil)
			if err == nil {
				t.Fatal("Build() succeeded, want an error for an external $ref")
			}
			if !strings.Contains(err.Error(), `param "schema"`) {
				t.Errorf("error = %q, want it to name the param", err)
			}
		})
	}
}
