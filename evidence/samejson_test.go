package evidence

import (
	"encoding/json"
	"testing"
)

func TestSameJSON(t *testing.T) {
	for _, tc := range []struct {
		name string
		a, b json.RawMessage
		want bool
	}{
		{name: "key order", a: json.RawMessage(`{"a": 1, "b": 2}`), b: json.RawMessage(`{"b":2,"a":1}`), want: true},
		{name: "numbers by exact value", a: json.RawMessage(`[1.0, 1e2]`), b: json.RawMessage(`[1, 100]`), want: true},
		{name: "no float64 rounding", a: json.RawMessage(`0.1`), b: json.RawMessage(`0.1000000000000000001`)},
		{name: "absent equals absent", want: true},
		{name: "absent is not null", b: json.RawMessage(`null`)},
		{name: "invalid JSON byte for byte", a: json.RawMessage(`{oops`), b: json.RawMessage(`{oops`), want: true},
		{name: "invalid JSON differs", a: json.RawMessage(`{oops`), b: json.RawMessage(`{oops }`)},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameJSON(tc.a, tc.b); got != tc.want {
				t.Errorf("sameJSON(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		})
	}
}
