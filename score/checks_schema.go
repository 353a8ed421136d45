package score

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/santhosh-tekuri/jsonschema/v6"
	"golang.org/x/text/language"
	"golang.org/x/text/message"
)

// JSONSchema ("json_schema") passes when the answer, read as JSON the way
// valid_json reads it (a string answer's text is parsed; another JSON value
// is used as is), validates against a JSON Schema. No output, JSON null and
// text that is not JSON fail.
//
// Params: "schema" (object or boolean, required): a JSON Schema, draft
// 2020-12 unless its "$schema" names another draft (4, 6, 7, 2019-09). It
// is compiled when the suite is loaded. "$ref" may point inside the schema
// (e.g. to "#/$defs/item"); references to other files or URLs are refused,
// nothing is loaded from disk or the network. "format" is asserted
// ("email", "date-time", "uri", …), not only annotated.
type JSONSchema struct {
	// Schema is the compiled schema.
	Schema *jsonschema.Schema
}

var _ Scorer = (*JSONSchema)(nil)

// schemaLocation names the in-memory schema resource; no loader resolves it.
const schemaLocation = "mem://agentevals/params/schema.json"

func newJSONSchema(raw json.RawMessage) (*JSONSchema, error) {
	p, err := parseParams(raw, "schema")
	if err != nil {
		return nil, err
	}
	doc, ok := p["schema"]
	if !ok {
		return nil, missingParam("schema", "a JSON Schema (object or boolean)")
	}
	trimmed := bytes.TrimSpace(doc)
	if len(trimmed) == 0 || (trimmed[0] != '{' && trimmed[0] != 't' && trimmed[0] != 'f') {
		return nil, paramError("schema", "a JSON Schema (object or boolean)", doc)
	}
	value, err := jsonschema.UnmarshalJSON(bytes.NewReader(trimmed))
	if err != nil {
		return nil, fmt.Errorf("%w: param \"schema\": expected a JSON Schema: %v", ErrInvalidParams, err)
	}
	c := jsonschema.NewCompiler()
	c.UseLoader(refuseLoader{})
	c.AssertFormat()
	if err := c.AddResource(schemaLocation, value); err != nil {
		return nil, fmt.Errorf("%w: param \"schema\": expected a JSON Schema: %v", ErrInvalidParams, err)
	}
	schema, err := c.Compile(schemaLocation)
	var refErr *jsonschema.LoadURLError
	switch {
	case errors.As(err, &refErr):
		return nil, fmt.Errorf("%w: param \"schema\": %s is not loaded: references outside the schema are refused; put the referenced schema under $defs",
			ErrInvalidParams, quote(refErr.URL))
	case err != nil:
		return nil, fmt.Errorf("%w: param \"schema\": expected a valid JSON Schema: %s", ErrInvalidParams, clipTo(strings.Join(strings.Fields(err.Error()), " "), 400))
	}
	return &JSONSchema{Schema: schema}, nil
}

// refuseLoader keeps schema compilation offline and away from the disk.
type refuseLoader struct{}

// Load refuses every URL the schema refers to.
func (refuseLoader) Load(url string) (any, error) {
	return nil, errors.New("external references are not loaded")
}

// Score validates the answer against the schema.
func (c *JSONSchema) Score(_ context.Context, s Sample) (Assessment, error) {
	if c.Schema == nil {
		return Assessment{}, &Error{Kind: "misconfigured", Message: "json_schema has no schema"}
	}
	v, kind, err := answerJSON(s.Output)
	if err != nil {
		return Assessment{Score: 0, Reason: err.Error()}, nil
	}
	err = c.Schema.Validate(v)
	if err == nil {
		return Assessment{Score: 1, Reason: "output (" + kind + ") matches the JSON schema"}, nil
	}
	var verr *jsonschema.ValidationError
	if !errors.As(err, &verr) {
		return Assessment{}, &Error{Kind: "schema_error", Message: "json_schema: " + clip(err.Error())}
	}
	return Assessment{Score: 0, Reason: "output does not match the JSON schema: " + describeViolations(verr)}, nil
}

// describeViolations lists the first few leaf errors of a validation
// failure, each clipped (messages may repeat parts of the answer).
func describeViolations(verr *jsonschema.ValidationError) string {
	printer := message.NewPrinter(language.English)
	var leaves []string
	var walk func(e *jsonschema.ValidationError)
	walk = func(e *jsonschema.ValidationError) {
		if len(e.Causes) == 0 {
			leaves = append(leaves, fmt.Sprintf("at %s: %s",
				quote(jsonPointer(e.InstanceLocation)), clip(e.ErrorKind.LocalizedString(printer))))
			return
		}
		for _, cause := range e.Causes {
			walk(cause)
		}
	}
	walk(verr)
	const shown = 3
	out := strings.Join(leaves[:min(len(leaves), shown)], "; ")
	if len(leaves) > shown {
		out += fmt.Sprintf(" (and %d more)", len(leaves)-shown)
	}
	return out
}

func jsonPointer(tokens []string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(strings.NewReplacer("~", "~0", "/", "~1").Replace(t))
	}
	return b.String()
}
