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
	var sorted SpanAttrs
	return a.uniqueInto(&sorted)
}

// uniqueInto is Unique with the sorted copy, when one is needed, made in
// *scratch.
func (a SpanAttrs) uniqueInto(scratch *SpanAttrs) SpanAttrs {
	if a.inKeyOrder() {
		return a
	}
	*scratch = append((*scratch)[:0], a...)
	return scratch.sortUnique()
}

// byKey orders attributes by key, as encoding/json orders a map's.
func byKey(x, y SpanAttr) int { return cmp.Compare(x.Key, y.Key) }

// inKeyOrder reports whether every key is greater than the one before.
func (a SpanAttrs) inKeyOrder() bool {
	for i := 1; i < len(a); i++ {
		if a[i].Key <= a[i-1].Key {
			return false
		}
	}
	return true
}

// sortUnique sorts a in place by key, keeping the last value of a key.
func (a SpanAttrs) sortUnique() SpanAttrs {
	slices.SortStableFunc(a, byKey)
	kept := a[:0]
	for i, at := range a {
		if i+1 < len(a) && a[i+1].Key == at.Key {
			continue // a later attribute of the key replaces this one
		}
		kept = append(kept, at)
	}
	return kept
}

// MarshalJSON writes the attributes as a JSON object in key order.
func (a SpanAttrs) MarshalJSON() ([]byte, error) {
	return a.appendJSON(nil, new(SpanAttrs)), nil
}

// appendJSON writes the attributes as MarshalJSON does; scratch holds
// their sorted copy when they are not in key order.
func (a SpanAttrs) appendJSON(b []byte, scratch *SpanAttrs) []byte {
	b = append(b, '{')
	for i, at := range a.uniqueInto(scratch) {
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
	slices.SortFunc(out, byKey)
	return out
}

// Set gives key the value, replacing any it had.
func (a *SpanAttrs) Set(key, value string) {
	*a = append(*a, SpanAttr{Key: key, Value: value})
}
