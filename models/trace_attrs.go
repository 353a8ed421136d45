package models

import (
	"bytes"
	"encoding/json"
	"slices"
	"strings"
)

// Attr is one span attribute as text.
type Attr struct{ Key, Value string }

// Attrs are a span's attributes, each key once, in no particular order.
// They are stored as the JSON object a map[string]string writes: keys
// sorted, the same escaping. A trace's spans share the strings their
// request decoded into, where a map per span would copy them.
type Attrs []Attr

// AttrsOf lists m's attributes (nil for an empty m).
func AttrsOf(m map[string]string) Attrs {
	if len(m) == 0 {
		return nil
	}
	out := make(Attrs, 0, len(m))
	for k, v := range m {
		out = append(out, Attr{k, v})
	}
	return out
}

// Get is key's value, "" when absent.
func (a Attrs) Get(key string) string {
	v, _ := a.Lookup(key)
	return v
}

// Lookup is key's value and whether a has key; with a key repeated (a
// hand-built list) the last one counts, as in a map.
func (a Attrs) Lookup(key string) (string, bool) {
	for i := len(a) - 1; i >= 0; i-- {
		if a[i].Key == key {
			return a[i].Value, true
		}
	}
	return "", false
}

// Map is a as a map.
func (a Attrs) Map() map[string]string {
	if a == nil {
		return nil
	}
	m := make(map[string]string, len(a))
	for _, kv := range a {
		m[kv.Key] = kv.Value
	}
	return m
}

// MarshalJSON writes the object json.Marshal writes for a.Map(). Strings
// are written unescaped for HTML: encoding/json compacts a marshaler's
// output and escapes <, > and & there unless its encoder was told not to.
func (a Attrs) MarshalJSON() ([]byte, error) {
	if a == nil {
		return []byte("null"), nil
	}
	order := a.sorted()
	size := 2
	for _, i := range order {
		size += len(a[i].Key) + len(a[i].Value) + 6
	}
	b := make([]byte, 0, size)
	b = append(b, '{')
	var enc attrText
	for n, i := range order {
		if n > 0 {
			b = append(b, ',')
		}
		b = enc.append(b, a[i].Key)
		b = append(b, ':')
		b = enc.append(b, a[i].Value)
	}
	return append(b, '}'), nil
}

// sorted is the indexes of a in key order, the last of a repeated key.
func (a Attrs) sorted() []int {
	order := make([]int, len(a))
	for i := range order {
		order[i] = i
	}
	slices.SortStableFunc(order, func(i, j int) int { return strings.Compare(a[i].Key, a[j].Key) })
	kept := order[:0]
	for n, i := range order {
		if n+1 < len(order) && a[order[n+1]].Key == a[i].Key {
			continue
		}
		kept = append(kept, i)
	}
	return kept
}

// UnmarshalJSON reads the object MarshalJSON writes, keys in order.
func (a *Attrs) UnmarshalJSON(b []byte) error {
	var m map[string]string
	if err := json.Unmarshal(b, &m); err != nil {
		return err
	}
	*a = AttrsOf(m)
	if *a != nil {
		slices.SortFunc(*a, func(x, y Attr) int { return strings.Compare(x.Key, y.Key) })
	} else if m != nil {
		*a = Attrs{}
	}
	return nil
}

// attrText writes JSON strings as encoding/json does with HTML escaping
// off; its encoder is made when a string first needs one.
type attrText struct {
	buf bytes.Buffer
	enc *json.Encoder
}

// append writes s: ASCII escaped here, anything else through an encoder.
func (t *attrText) append(b []byte, s string) []byte {
	open := len(b)
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c >= 0x20 && c != '"' && c != '\\' && c < 0x80 {
			continue
		}
		if c >= 0x80 {
			return t.encode(b[:open], s)
		}
		b = append(b, s[start:i]...)
		switch c {
		case '"', '\\':
			b = append(b, '\\', c)
		case '\b':
			b = append(b, '\\', 'b')
		case '\f':
			b = append(b, '\\', 'f')
		case '\n':
			b = append(b, '\\', 'n')
		case '\r':
			b = append(b, '\\', 'r')
		case '\t':
			b = append(b, '\\', 't')
		default:
			b = append(b, '\\', 'u', '0', '0', hexDigits[c>>4], hexDigits[c&0xf])
		}
		start = i + 1
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

const hexDigits = "0123456789abcdef"

func (t *attrText) encode(b []byte, s string) []byte {
	if t.enc == nil {
		t.enc = json.NewEncoder(&t.buf)
		t.enc.SetEscapeHTML(false)
	}
	t.buf.Reset()
	_ = t.enc.Encode(s) // a string always encodes
	return append(b, bytes.TrimSuffix(t.buf.Bytes(), []byte("\n"))...)
}
