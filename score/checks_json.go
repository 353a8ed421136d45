package score

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/bounds"
	"github.com/agentevals-go/agentevals/internal/jsonvalue"
)

// Equals ("equals") passes when the answer equals a JSON value: types must
// agree ("1" is not 1), object key order does not matter, numbers compare
// by exact decimal value (1, 1.0 and 1e0 are equal). A string answer is not
// parsed: the text "[1]" does not equal the array [1]. No output equals
// JSON null.
//
// Params: "value" (any JSON value, including null; optional): the expected
// value. Without it the question's expected_answer is used; a question
// without one makes the metric an error of kind "missing_expected_answer".
type Equals struct {
	// Value replaces the expected answer when non-nil (use the JSON text
	// "null" to expect null).
	Value json.RawMessage
}

var _ Scorer = (*Equals)(nil)

func newEquals(raw json.RawMessage) (*Equals, error) {
	p, err := parseParams(raw, "value")
	if err != nil {
		return nil, err
	}
	c := &Equals{}
	if v, ok := p["value"]; ok {
		c.Value = append(json.RawMessage(nil), bytes.TrimSpace(v)...)
	}
	return c, nil
}

// Score compares the answer with the expected value as JSON values.
func (c *Equals) Score(_ context.Context, s Sample) (Assessment, error) {
	want := c.Value
	if want == nil {
		if isNull(s.ExpectedAnswer) {
			return Assessment{}, &Error{
				Kind:    "missing_expected_answer",
				Message: `equals needs the question's expected_answer or a "value" param`,
			}
		}
		want = s.ExpectedAnswer
	}
	got := s.Output
	if isNull(got) {
		got = json.RawMessage("null")
	}
	same, err := jsonEqual(got, want)
	if err != nil {
		return Assessment{}, &Error{Kind: "invalid_json", Message: "equals: " + err.Error()}
	}
	wantText, gotText := clip(compactJSON(want)), clip(compactJSON(got))
	if same {
		return Assessment{Score: 1, Reason: fmt.Sprintf("output equals the expected JSON value %s", wantText)}, nil
	}
	return Assessment{Score: 0, Reason: fmt.Sprintf("output %s does not equal the expected JSON value %s", gotText, wantText)}, nil
}

// ValidJSON ("valid_json") passes when the answer is JSON: a string answer
// whose text (trimmed) parses as one JSON value, or an answer that already
// is a JSON value other than a string or null (an agent returning a
// structured output). No output and JSON null fail. Text around the JSON
// (e.g. Markdown fences) fails.
//
// Params: none.
type ValidJSON struct{}

var _ Scorer = (*ValidJSON)(nil)

func newValidJSON(raw json.RawMessage) (*ValidJSON, error) {
	if _, err := parseParams(raw); err != nil {
		return nil, err
	}
	return &ValidJSON{}, nil
}

// Score reports whether the answer is JSON.
func (c *ValidJSON) Score(_ context.Context, s Sample) (Assessment, error) {
	_, kind, err := answerJSON(s.Output)
	if err != nil {
		return Assessment{Score: 0, Reason: err.Error()}, nil
	}
	return Assessment{Score: 1, Reason: "output is valid JSON (" + kind + ")"}, nil
}

// answerJSON decodes the answer as a JSON value the way valid_json and
// json_schema read it, with numbers as json.Number. The error text is a
// complete reason for a score of 0.
func answerJSON(raw json.RawMessage) (v any, kind string, err error) {
	raw = bytes.TrimSpace(raw)
	if isNull(raw) {
		return nil, "", errors.New("no output (null) to read as JSON")
	}
	doc := raw
	from := "output"
	if raw[0] == '"' {
		var s string
		if err := json.Unmarshal(raw, &s); err != nil {
			return nil, "", fmt.Errorf("output is not valid JSON: %v", err)
		}
		s = strings.TrimSpace(s)
		if s == "" {
			return nil, "", errors.New("output text is empty, not JSON")
		}
		doc, from = json.RawMessage(s), "output text"
	}
	if err := bounds.Defaults().CheckJSON(doc); err != nil {
		return nil, "", fmt.Errorf("%s is not usable JSON: %v", from, err)
	}
	v, err = jsonvalue.Decode(doc)
	if err != nil {
		return nil, "", fmt.Errorf("%s is not valid JSON: %v", from, err)
	}
	return v, jsonvalue.Kind(v), nil
}

func compactJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return string(raw)
	}
	return buf.String()
}

// JSONEqual reports whether two JSON documents hold the same value
// (jsonvalue.Equal); a decode error quotes the clipped document.
func JSONEqual(a, b json.RawMessage) (bool, error) { return jsonEqual(a, b) }

// jsonEqual compares two JSON documents as values (see Equals).
func jsonEqual(a, b json.RawMessage) (bool, error) {
	va, err := jsonvalue.Decode(a)
	if err != nil {
		return false, fmt.Errorf("decode %s: %w", clip(string(a)), err)
	}
	vb, err := jsonvalue.Decode(b)
	if err != nil {
		return false, fmt.Errorf("decode %s: %w", clip(string(b)), err)
	}
	return jsonvalue.Same(va, vb), nil
}
