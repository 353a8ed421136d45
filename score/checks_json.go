package score

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"strconv"
	"strings"

	"agentevals/bounds"
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
	v, err = decodeJSON(doc)
	if err != nil {
		return nil, "", fmt.Errorf("%s is not valid JSON: %v", from, err)
	}
	return v, kindOf(v), nil
}

// decodeJSON decodes exactly one JSON value with numbers kept exact.
func decodeJSON(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err == nil {
		return nil, errors.New("unexpected data after the first JSON value")
	}
	return v, nil
}

func kindOf(v any) string {
	switch v.(type) {
	case nil:
		return "null"
	case bool:
		return "boolean"
	case json.Number:
		return "number"
	case string:
		return "string"
	case []any:
		return "array"
	default:
		return "object"
	}
}

func compactJSON(raw json.RawMessage) string {
	var buf bytes.Buffer
	if err := json.Compact(&buf, raw); err != nil {
		return string(raw)
	}
	return buf.String()
}

// JSONEqual reports whether two JSON documents hold the same value: key
// order and whitespace do not matter, numbers compare by exact decimal
// value (1.0 equals 1; no float64 rounding, no big-number allocation for
// exponents such as 1e999999999). Invalid JSON is an error.
func JSONEqual(a, b json.RawMessage) (bool, error) { return jsonEqual(a, b) }

// jsonEqual compares two JSON documents as values (see Equals).
func jsonEqual(a, b json.RawMessage) (bool, error) {
	va, err := decodeJSON(a)
	if err != nil {
		return false, fmt.Errorf("decode %s: %w", clip(string(a)), err)
	}
	vb, err := decodeJSON(b)
	if err != nil {
		return false, fmt.Errorf("decode %s: %w", clip(string(b)), err)
	}
	return sameValue(va, vb), nil
}

// sameValue compares values decoded with json.Number.
func sameValue(a, b any) bool {
	switch x := a.(type) {
	case nil:
		return b == nil
	case bool:
		y, ok := b.(bool)
		return ok && x == y
	case string:
		y, ok := b.(string)
		return ok && x == y
	case json.Number:
		y, ok := b.(json.Number)
		return ok && sameNumber(string(x), string(y))
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !sameValue(x[i], y[i]) {
				return false
			}
		}
		return true
	case map[string]any:
		y, ok := b.(map[string]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for k, xv := range x {
			yv, ok := y[k]
			if !ok || !sameValue(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

// sameNumber compares two JSON number literals by exact decimal value
// without converting to floats (no rounding) or big numbers (no huge
// allocations for exponents such as 1e999999999).
func sameNumber(a, b string) bool {
	if a == b {
		return true
	}
	na, oka := canonicalNumber(a)
	nb, okb := canonicalNumber(b)
	return oka && okb && na == nb
}

// canonicalNumber rewrites a JSON number literal as sign, significant
// digits and exponent ("-0.0420e3" -> "-42e0"); zero is "0".
func canonicalNumber(s string) (string, bool) {
	neg := strings.HasPrefix(s, "-")
	s = strings.TrimPrefix(s, "-")
	mant, expText, hasExp := strings.Cut(strings.ToLower(s), "e")
	exp := int64(0)
	if hasExp {
		e, err := strconv.ParseInt(strings.TrimPrefix(expText, "+"), 10, 64)
		if err != nil || e > 1<<53 || e < -(1<<53) {
			return "", false
		}
		exp = e
	}
	intPart, frac, _ := strings.Cut(mant, ".")
	digits := intPart + frac
	exp -= int64(len(frac))
	trimmed := strings.TrimLeft(digits, "0")
	if trimmed == "" {
		return "0", true
	}
	withoutTrailing := strings.TrimRight(trimmed, "0")
	exp += int64(len(trimmed) - len(withoutTrailing))
	sign := ""
	if neg {
		sign = "-"
	}
	return sign + withoutTrailing + "e" + strconv.FormatInt(exp, 10), true
}
