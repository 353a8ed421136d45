package score

import "encoding/json"

// Doc documents an evaluator type for people and editors: the suite's
// JSON Schema (suite.JSONSchema) and `evalrun checks` are generated from
// it, so what they say cannot drift from the registry.
type Doc struct {
	// Summary says in one sentence what passes.
	Summary string
	// Params lists every parameter the type accepts, in display order.
	Params []Param
	// OneOf names parameters of which exactly one must be given
	// (contains: "value" or "values").
	OneOf []string
	// Example is a params object that builds (nil: the type takes none).
	Example json.RawMessage
}

// Param documents one evaluator parameter.
type Param struct {
	Name string
	// Schema is the JSON Schema of the parameter's value.
	Schema map[string]any
	// Required marks a parameter that must be given.
	Required bool
	// Description says what it means and its default.
	Description string
}

// JSONType is the parameter's JSON type as a short phrase for terminals:
// "string", "array of strings", "any JSON value".
func (p Param) JSONType() string {
	t, _ := p.Schema["type"].(string)
	switch {
	case t == "array":
		return "array of strings"
	case t == "":
		if _, ok := p.Schema["type"].([]any); ok {
			return "object or boolean"
		}
		return "any JSON value"
	}
	return t
}

var (
	nonEmptyString = map[string]any{"type": "string", "minLength": 1}
	stringList     = map[string]any{"type": "array", "minItems": 1, "items": nonEmptyString}
	boolean        = map[string]any{"type": "boolean"}
	count          = map[string]any{"type": "integer", "minimum": 0}
	amount         = map[string]any{"type": "number", "minimum": 0}
)

func caseSensitive() Param {
	return Param{Name: "case_sensitive", Schema: boolean, Description: "Compare case-sensitively (default true); false compares Unicode case-folded text."}
}

func positionSwap() Param {
	return Param{Name: "position_swap", Schema: boolean, Description: "Judge twice, with the answer before and after the reference, and average both verdicts (default false)."}
}

// builtinDocs documents the built-in types; Builtins attaches them.
func builtinDocs() map[string]Doc {
	value := func(what string) Param {
		return Param{Name: "value", Schema: nonEmptyString, Description: what}
	}
	limit := func(what string) Param { return Param{Name: "limit", Schema: count, Required: true, Description: what} }
	docs := map[string]Doc{
		"exact_match": {Summary: "The answer text equals the expected text (both trimmed).",
			Params:  []Param{{Name: "value", Schema: map[string]any{"type": "string"}, Description: "The expected text; without it the question's expected_answer."}, caseSensitive()},
			Example: json.RawMessage(`{"value": "Paris"}`)},
		"equals": {Summary: "The answer equals a JSON value (types must agree, key order does not matter).",
			Params:  []Param{{Name: "value", Schema: map[string]any{}, Description: "The expected JSON value (null allowed); without it the question's expected_answer."}},
			Example: json.RawMessage(`{"value": {"status": "ok"}}`)},
		"contains": {Summary: "The answer text contains the value (score: the fraction of values found).",
			Params:  []Param{value("A substring the answer must contain."), {Name: "values", Schema: stringList, Description: "Several substrings; the score is the fraction found."}, caseSensitive()},
			OneOf:   []string{"value", "values"},
			Example: json.RawMessage(`{"value": "Paris"}`)},
		"not_contains": {Summary: "The answer text contains none of the forbidden values.",
			Params:  []Param{value("A forbidden substring."), {Name: "values", Schema: stringList, Description: "Several forbidden substrings; the score is the fraction absent."}, caseSensitive()},
			OneOf:   []string{"value", "values"},
			Example: json.RawMessage(`{"values": ["sorry", "as an AI"], "case_sensitive": false}`)},
		"matches": {Summary: "A regular expression (Go RE2 syntax) matches anywhere in the answer text.",
			Params:  []Param{{Name: "pattern", Schema: nonEmptyString, Required: true, Description: "The expression; anchor it with ^ and $ to match the whole text."}, caseSensitive()},
			Example: json.RawMessage(`{"pattern": "\\b1889\\b"}`)},
		"starts_with": {Summary: "The answer text begins with the value.",
			Params:  []Param{{Name: "value", Schema: nonEmptyString, Required: true, Description: "The expected beginning."}, caseSensitive()},
			Example: json.RawMessage(`{"value": "Yes"}`)},
		"ends_with": {Summary: "The answer text ends with the value.",
			Params:  []Param{{Name: "value", Schema: nonEmptyString, Required: true, Description: "The expected ending."}, caseSensitive()},
			Example: json.RawMessage(`{"value": "."}`)},
		"valid_json": {Summary: "The answer is one JSON value (a string answer's text must parse)."},
		"json_schema": {Summary: "The answer, read as JSON, validates against a JSON Schema (draft 2020-12 by default).",
			Params:  []Param{{Name: "schema", Schema: map[string]any{"type": []any{"object", "boolean"}}, Required: true, Description: "The JSON Schema; references may only point inside it."}},
			Example: json.RawMessage(`{"schema": {"type": "object", "required": ["city"]}}`)},
		"min_length": {Summary: "The answer text has at least limit characters (Unicode code points).",
			Params: []Param{limit("The minimum number of characters.")}, Example: json.RawMessage(`{"limit": 10}`)},
		"max_length": {Summary: "The answer text has at most limit characters (Unicode code points).",
			Params: []Param{limit("The maximum number of characters.")}, Example: json.RawMessage(`{"limit": 280}`)},
		"max_words": {Summary: "The answer text has at most limit words.",
			Params: []Param{limit("The maximum number of words.")}, Example: json.RawMessage(`{"limit": 50}`)},
		"is_url": {Summary: "The whole answer text is one absolute URL.",
			Params:  []Param{{Name: "schemes", Schema: stringList, Description: "Allowed schemes (default [\"http\", \"https\"])."}},
			Example: json.RawMessage(`{"schemes": ["https"]}`)},
		"is_email": {Summary: "The whole answer text is one bare e-mail address."},
		"max_latency_ms": {Summary: "The agent call took at most limit milliseconds.",
			Params:  []Param{{Name: "limit", Schema: amount, Required: true, Description: "Milliseconds."}},
			Example: json.RawMessage(`{"limit": 5000}`)},
		"max_cost": {Summary: "The cost the agent reported for the case is at most limit (USD); no reported cost is an error.",
			Params:  []Param{{Name: "limit", Schema: amount, Required: true, Description: "USD."}},
			Example: json.RawMessage(`{"limit": 0.01}`)},
		"max_tool_result_bytes": {Summary: "Every tool result the agent gave its model was at most limit bytes (reported in response metadata).",
			Params:  []Param{{Name: "limit", Schema: count, Required: true, Description: "Bytes."}, {Name: "key", Schema: nonEmptyString, Description: "Response-metadata key holding the sizes (default \"tool_result_bytes\")."}},
			Example: json.RawMessage(`{"limit": 4096}`)},
		"llm_judge": {Summary: "An LLM judge scores the answer against your rubric (needs a judge).",
			Params: []Param{{Name: "rubric", Schema: nonEmptyString, Required: true, Description: "What the judge checks and how it scores."}, positionSwap(),
				{Name: "ignore_length", Schema: boolean, Description: "Tell the judge that length is no merit: a short answer that meets the rubric scores as high as a long one (default false)."}},
			Example: json.RawMessage(`{"rubric": "Does the answer refuse politely and point to the help page?"}`)},
	}
	llm := map[string]string{
		"semantic_accuracy": "An LLM judge checks the answer states the expected answer's facts (needs a judge and expected_answer).",
		"answer_relevancy":  "An LLM judge checks the answer responds to the question (needs a judge).",
		"correctness":       "An LLM judge checks the answer's conclusion against the expected answer (needs a judge and expected_answer).",
		"faithfulness":      "An LLM judge checks every claim is supported by the retrieval context (needs a judge and context).",
		"hallucination":     "An LLM judge checks the answer neither contradicts the context nor invents specifics (needs a judge and context).",
		"bias":              "An LLM judge checks the answer is free of bias about groups (needs a judge).",
		"toxicity":          "An LLM judge checks the answer is free of toxic language (needs a judge).",
	}
	addTrajectoryDocs(docs)
	for name, summary := range llm {
		docs[name] = Doc{Summary: summary, Params: []Param{positionSwap()}}
	}
	return docs
}

// attachDocs sets the Doc of every built-in type registered in r.
func attachDocs(r Registry) {
	for name, doc := range builtinDocs() {
		if def, ok := r[name]; ok {
			def.Doc = doc
			r[name] = def
		}
	}
}
