package show

import "testing"

func TestJSON(t *testing.T) {
	tests := []struct {
		raw, indent, want string
	}{
		{`{"a": "\u003cscript\u003e \u0026 x"}`, "", `{"a":"<script> & x"}`},
		{`{"a":"\u003C"}`, "", `{"a":"<"}`},
		{`{"a":"\\u003c"}`, "", `{"a":"\\u003c"}`}, // an escaped backslash, then text
		{`{"a":"\u001b[31m\n"}`, "", `{"a":"\u001b[31m\n"}`},
		{`[1, 2]`, "  ", "[\n  1,\n  2\n]"},
		{`not json`, "", `not json`},
	}
	for _, tt := range tests {
		if got := JSON([]byte(tt.raw), tt.indent); got != tt.want {
			t.Errorf("JSON(%s) = %s, want %s", tt.raw, got, tt.want)
		}
	}
}
