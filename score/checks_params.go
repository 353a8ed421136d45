package score

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math"
	"sort"
	"strconv"
	"strings"
)

// params holds one evaluator's JSON parameters while a constructor reads
// them. Every error it returns wraps ErrInvalidParams and names the
// parameter and what was expected.
type params map[string]json.RawMessage

// parseParams decodes raw (absent, JSON null or a JSON object) and rejects
// any key not in allowed.
func parseParams(raw json.RawMessage, allowed ...string) (params, error) {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || string(raw) == "null" {
		return params{}, nil
	}
	if !json.Valid(raw) {
		return nil, fmt.Errorf("%w: params: expected a JSON object, got invalid JSON", ErrInvalidParams)
	}
	if raw[0] != '{' {
		return nil, fmt.Errorf("%w: params: expected a JSON object, got %s", ErrInvalidParams, describeJSON(raw))
	}
	var p params
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("%w: params: expected a JSON object: %v", ErrInvalidParams, err)
	}
	if dup, ok := duplicateKey(raw); ok {
		return nil, fmt.Errorf("%w: param %s is given twice", ErrInvalidParams, quote(dup))
	}
	var unknown []string
	for k := range p {
		if !inList(allowed, k) {
			unknown = append(unknown, k)
		}
	}
	if len(unknown) > 0 {
		sort.Strings(unknown)
		if len(allowed) == 0 {
			return nil, fmt.Errorf("%w: unknown param %s: this type takes no params", ErrInvalidParams, quote(unknown[0]))
		}
		return nil, fmt.Errorf("%w: unknown param %s: expected one of %s", ErrInvalidParams, quote(unknown[0]), strings.Join(quoteAll(allowed), ", "))
	}
	return p, nil
}

// duplicateKey finds a key repeated at the top of a JSON object, which
// decoding would otherwise settle silently by keeping the last one.
func duplicateKey(raw json.RawMessage) (string, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	if _, err := dec.Token(); err != nil { // the opening brace
		return "", false
	}
	seen := map[string]bool{}
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return "", false
		}
		key, _ := tok.(string)
		if seen[key] {
			return key, true
		}
		seen[key] = true
		var skip json.RawMessage
		if err := dec.Decode(&skip); err != nil {
			return "", false
		}
	}
	return "", false
}

// has reports whether the parameter is present (even as JSON null).
func (p params) has(name string) bool {
	_, ok := p[name]
	return ok
}

// text reads an optional string; ok is false when it is absent.
func (p params) text(name string, nonEmpty bool) (s string, ok bool, err error) {
	raw, ok := p[name]
	if !ok {
		return "", false, nil
	}
	want := "a string"
	if nonEmpty {
		want = "a non-empty string"
	}
	if err := json.Unmarshal(raw, &s); err != nil || bytes.Equal(bytes.TrimSpace(raw), []byte("null")) {
		return "", false, paramError(name, want, raw)
	}
	if nonEmpty && s == "" {
		return "", false, paramError(name, want, raw)
	}
	return s, true, nil
}

// requiredText reads a string that must be present and non-empty.
func (p params) requiredText(name string) (string, error) {
	s, ok, err := p.text(name, true)
	if err != nil {
		return "", err
	}
	if !ok {
		return "", missingParam(name, "a non-empty string")
	}
	return s, nil
}

// texts reads an optional non-empty array of non-empty strings.
func (p params) texts(name string) ([]string, bool, error) {
	raw, ok := p[name]
	if !ok {
		return nil, false, nil
	}
	const want = "a non-empty array of non-empty strings"
	var items []json.RawMessage
	if err := json.Unmarshal(raw, &items); err != nil || items == nil {
		return nil, false, paramError(name, want, raw)
	}
	if len(items) == 0 {
		return nil, false, paramError(name, want, raw)
	}
	out := make([]string, len(items))
	for i, item := range items {
		var s string
		if err := json.Unmarshal(item, &s); err != nil || s == "" || bytes.Equal(bytes.TrimSpace(item), []byte("null")) {
			return nil, false, paramError(fmt.Sprintf("%s[%d]", name, i), "a non-empty string", item)
		}
		out[i] = s
	}
	return out, true, nil
}

// boolean reads an optional boolean with a default.
func (p params) boolean(name string, def bool) (bool, error) {
	raw, ok := p[name]
	if !ok {
		return def, nil
	}
	switch string(bytes.TrimSpace(raw)) {
	case "true":
		return true, nil
	case "false":
		return false, nil
	}
	return false, paramError(name, "a boolean (true or false)", raw)
}

// count reads a required non-negative integer.
func (p params) count(name string) (int, error) {
	const want = "a non-negative integer"
	raw, ok := p[name]
	if !ok {
		return 0, missingParam(name, want)
	}
	f, err := number(raw)
	if err != nil || f < 0 || f != math.Trunc(f) || f > math.MaxInt32 {
		return 0, paramError(name, want, raw)
	}
	return int(f), nil
}

// amount reads a required finite number >= 0.
func (p params) amount(name string) (float64, error) {
	const want = "a finite number >= 0"
	raw, ok := p[name]
	if !ok {
		return 0, missingParam(name, want)
	}
	f, err := number(raw)
	if err != nil || f < 0 {
		return 0, paramError(name, want, raw)
	}
	return f, nil
}

// number decodes a JSON number (not a numeric string) into a finite float.
func number(raw json.RawMessage) (float64, error) {
	var n json.Number
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 || raw[0] == '"' {
		return 0, fmt.Errorf("not a number")
	}
	if err := json.Unmarshal(raw, &n); err != nil || n == "" {
		return 0, fmt.Errorf("not a number")
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) || math.IsNaN(f) {
		return 0, fmt.Errorf("not a finite number")
	}
	return f, nil
}

func paramError(name, want string, got json.RawMessage) error {
	return fmt.Errorf("%w: param %s: expected %s, got %s", ErrInvalidParams, quote(name), want, describeJSON(got))
}

func missingParam(name, want string) error {
	return fmt.Errorf("%w: param %s is missing: expected %s", ErrInvalidParams, quote(name), want)
}

// describeJSON names a JSON value's kind, with a short excerpt of scalars,
// for error messages: `the string "10"`, `the number 1.5`, `an object`.
func describeJSON(raw json.RawMessage) string {
	raw = bytes.TrimSpace(raw)
	if len(raw) == 0 {
		return "nothing"
	}
	switch raw[0] {
	case '{':
		return "an object"
	case '[':
		return "an array"
	case 'n':
		return "null"
	case 't', 'f':
		return "the boolean " + string(raw)
	case '"':
		var s string
		if err := json.Unmarshal(raw, &s); err == nil {
			return "the string " + quote(s)
		}
	}
	if json.Valid(raw) {
		return "the number " + clip(string(raw))
	}
	return "invalid JSON"
}

func inList(list []string, s string) bool {
	for _, x := range list {
		if x == s {
			return true
		}
	}
	return false
}

func quoteAll(list []string) []string {
	out := make([]string, len(list))
	for i, s := range list {
		out[i] = quote(s)
	}
	return out
}
