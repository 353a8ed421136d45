// Package jsonvalue compares JSON values by meaning: key order and whitespace do not matter, and numbers are equal when their exact decimal values are.
package jsonvalue

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
)

// Decode decodes exactly one JSON value, keeping numbers as json.Number.
func Decode(raw []byte) (any, error) {
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

// Equal reports whether two JSON documents hold the same value (see Same).
// A document that is not exactly one JSON value is an error.
func Equal(a, b []byte) (bool, error) {
	va, err := Decode(a)
	if err != nil {
		return false, fmt.Errorf("first document: %w", err)
	}
	vb, err := Decode(b)
	if err != nil {
		return false, fmt.Errorf("second document: %w", err)
	}
	return Same(va, vb), nil
}

// Same compares two values as Decode returns them: types must agree ("1"
// is not 1), objects compare by key, arrays in order, numbers by SameNumber.
func Same(a, b any) bool {
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
		return ok && SameNumber(string(x), string(y))
	case []any:
		y, ok := b.([]any)
		if !ok || len(x) != len(y) {
			return false
		}
		for i := range x {
			if !Same(x[i], y[i]) {
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
			if !ok || !Same(xv, yv) {
				return false
			}
		}
		return true
	}
	return false
}

// Kind names the JSON type of a value as Decode returns it: null, boolean,
// number, string, array or object.
func Kind(v any) string {
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
