package schema

import "testing"

func TestSameJSON(t *testing.T) {
	for _, tc := range []struct {
		a, b string
		want bool
	}{
		{`{}`, `{ }`, true},
		{`{"a": 1, "b": 2}`, `{"b":2,"a":1.0}`, true},
		{`{}`, `[]`, false},
		{`{}`, `{oops`, false},
		{``, ``, false},
	} {
		if got := sameJSON(tc.a, tc.b); got != tc.want {
			t.Errorf("sameJSON(%q, %q) = %v, want %v", tc.a, tc.b, got, tc.want)
		}
	}
}
