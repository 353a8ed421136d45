package models

import (
	"cmp"
	"encoding/json"
	"slices"
)

// SpanAttr is one of a span's attributes as text.
type SpanAttr struct{ Key, Value string }

// SpanAttrs are a span's attributes as text, in the order they were read;
// of two with the same key the later one counts, as in a map. They are
// stored as one JSON object in key order, as encoding/json writes a
// map[string]string. A stored record reads back in key order.
type SpanAttrs []SpanAttr

// Get is the value of key and whether the span has it.
func (a SpanAttrs) Get(key string) (string, bool) {
	for i := len(a) - 1; i >= 0; i-- {
		if a[i].Key == key {
			return a[i].Value, true
		}
	}
	return "", false
}

// Value is the value of key, "" when the span has none.
func (a SpanAttrs) Value(key string) string {
	v, _ := a.Get(key)
	return v
}

// Unique is a in key order with each key once (its last value). It is a
// itself when a is so already.
func (a SpanAttrs) Unique() SpanAttrs {
	if slices.IsSortedFunc(a, func(x, y SpanAttr) int { return cmp.Compare(x.Key, y.Key) }) && !repeatsKey(a) {
		return a
	}
	out := slices.Clone(a)
	slices.SortStableFunc(out, func(x, y SpanAttr) int { return cmp.Compare(x.Key, y.Key) })
	kept := out[:0]
	for i, at := range out {
		if i+1 < len(out) && out[i+1].Key == at.Key {
			continue // a later attribute of the key replaces this one
		}
		kept = append(kept, at)
	}
	return kept
}

// repeatsKey reports whether sorted attributes hold a key twice.
func repeatsKey(sorted SpanAttrs) bool {
	for i := 1; i < len(sorted); i++ {
		if sorted[i].Key == sorted[i-1].Key {
			return true
		}
	}
	return false
}

// MarshalJSON writes the attributes as a JSON object in key order.
func (a SpanAttrs) MarshalJSON() ([]byte, error) {
	return a.appendJSON(nil), nil
}

// appendJSON writes the attributes as MarshalJSON does.
func (a SpanAttrs) appendJSON(b []byte) []byte {
	b = append(b, '{')
	for i, at := range a.Unique() {
		if i > 0 {
			b = append(b, ',')
		}
		b = AppendJSONString(b, at.Key)
		b = append(b, ':')
		b = AppendJSONString(b, at.Value)
	}
	return append(b, '}')
}

// UnmarshalJSON reads a JSON object of strings; null is none.
func (a *SpanAttrs) UnmarshalJSON(b []byte) error {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*a = SpanAttrsOf(m)
	return nil
}

// SpanAttrsOf is m in key order; nil for nil.
func SpanAttrsOf(m map[string]string) SpanAttrs {
	if m == nil {
		return nil
	}
	out := make(SpanAttrs, 0, len(m))
	for k, v := range m {
		out = append(out, SpanAttr{Key: k, Value: v})
	}
	slices.SortFunc(out, func(x, y SpanAttr) int { return cmp.Compare(x.Key, y.Key) })
	return out
}

// Set gives key the value, replacing any it had.
func (a *SpanAttrs) Set(key, value string) {
	*a = append(*a, SpanAttr{Key: key, Value: value})
}
