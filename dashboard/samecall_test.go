package dashboard

import (
	"encoding/json"
	"testing"
)

func TestSameCall(t *testing.T) {
	for _, tc := range []struct {
		name, a, b string
		want       bool
	}{
		{name: "same call", a: `{"group": "g", "name": "n", "arguments": {"id": 1}}`, b: `{"name": "n", "group": "g", "arguments": {"id": 1}}`, want: true},
		{name: "numbers by exact value", a: `{"group": "g", "name": "n", "arguments": {"id": 1.0}}`, b: `{"group": "g", "name": "n", "arguments": {"id": 1}}`, want: true},
		{name: "no float64 rounding", a: `{"group": "g", "name": "n", "arguments": {"id": 12345678901234567890}}`, b: `{"group": "g", "name": "n", "arguments": {"id": 12345678901234567891}}`},
		{name: "absent, null and {} arguments", a: `{"group": "g", "name": "n"}`, b: `{"group": "g", "name": "n", "arguments": {}}`, want: true},
		{name: "null arguments", a: `{"group": "g", "name": "n", "arguments": null}`, b: `{"group": "g", "name": "n"}`, want: true},
		{name: "other name", a: `{"group": "g", "name": "n"}`, b: `{"group": "g", "name": "m"}`},
		{name: "numeric names", a: `{"group": 1, "name": 2.0}`, b: `{"group": 1.0, "name": 2}`, want: true},
		{name: "invalid arguments", a: `{"group": "g", "name": "n", "arguments": "x"}`, b: `not json`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := sameCall(json.RawMessage(tc.a), json.RawMessage(tc.b)); got != tc.want {
				t.Errorf("sameCall(%s, %s) = %v, want %v", tc.a, tc.b, got, tc.want)
			}
		})
	}
}
