package suite

import (
	"bytes"
	"encoding/json"
)

// member is one key of a JSON object, in file order.
type member struct {
	key   string
	value json.RawMessage
}

// members splits a JSON object into its members in file order. It returns
// false when raw is not an object.
func members(raw json.RawMessage) ([]member, bool) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	tok, err := dec.Token()
	if err != nil || tok != json.Delim('{') {
		return nil, false
	}
	var out []member
	for dec.More() {
		tok, err := dec.Token()
		if err != nil {
			return nil, false
		}
		key, _ := tok.(string)
		var v json.RawMessage
		if err := dec.Decode(&v); err != nil {
			return nil, false
		}
		out = append(out, member{key: key, value: v})
	}
	return out, true
}

// allAllowed reports whether every key of obj is in allowed.
func allAllowed(obj map[string]json.RawMessage, allowed []string) bool {
	for k := range obj {
		if !contains(allowed, k) {
			return false
		}
	}
	return true
}
