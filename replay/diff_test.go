package replay

import (
	"encoding/json"
	"strings"
	"testing"
)

func TestBodyDiffs_Numbers(t *testing.T) {
	for _, tc := range []struct {
		name, want, got string
		diff            string // "" when the bodies match
	}{
		{name: "same value other form", want: `{"n": 1, "m": 100}`, got: `{"m": 1e2, "n": 1.0}`},
		{name: "big integers stay exact", want: `{"n": 12345678901234567890}`, got: `{"n": 12345678901234567891}`,
			diff: "body.n: want 12345678901234567890, got 12345678901234567891"},
		{name: "huge exponents", want: `{"n": 1e999999}`, got: `{"n": 1e999998}`, diff: "body.n: want 1e999999, got 1e999998"},
		{name: "huge exponents equal", want: `{"n": 1e999999}`, got: `{"n": 10e999998}`},
		{name: "number is not string", want: `{"n": 1}`, got: `{"n": "1"}`, diff: `body.n: want number 1, got string "1"`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			d := bodyDiffs(json.RawMessage(tc.want), []byte(tc.got))
			if got := strings.Join(d, "\n"); got != tc.diff {
				t.Errorf("bodyDiffs(%s, %s) = %q, want %q", tc.want, tc.got, got, tc.diff)
			}
		})
	}
}
