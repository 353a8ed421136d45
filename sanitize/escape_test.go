package sanitize

import (
	"strings"
	"testing"
)

func TestStripControl(t *testing.T) {
	tests := []struct {
		in, want string
		keep     bool
	}{
		{"plain", "plain", false},
		{"red \x1b[31mtext\x1b[0m", "red text", false},
		{"title \x1b]0;owned\x07 after", "title  after", false},
		{"osc st \x1b]8;;http://x\x1b\\link\x1b]8;;\x1b\\", "osc st link", false},
		{"nul\x00 bell\x07 cr\r del\x7f c1\u009b", "nul bell cr del c1", false},
		{"bidi \u202eevil\u202c", "bidi evil", false},
		{"two\nlines\tx", "two lines x", false},
		{"two\nlines\tx", "two\nlines\tx", true},
		{"bad \xff utf8", "bad \uFFFD utf8", false},
	}
	for _, tt := range tests {
		if got := StripControl(tt.in, tt.keep); got != tt.want {
			t.Errorf("StripControl(%q, %v) = %q, want %q", tt.in, tt.keep, got, tt.want)
		}
	}
}

func TestEscapeMarkdown(t *testing.T) {
	got := EscapeMarkdown("a|b *x* [l](javascript:y) <script>@team\n# h `c`")
	for _, bad := range []string{"<script>", "*x*", "[l]", "\n", "@team", "`c`"} {
		if strings.Contains(got, bad) {
			t.Errorf("EscapeMarkdown left %q in %q", bad, got)
		}
	}
	if !strings.Contains(got, `a\|b \*x\* \[l\]\(javascript:y\) &lt;script&gt;&#64;team \# h`) {
		t.Errorf("EscapeMarkdown = %q", got)
	}
}

func TestEscapeText(t *testing.T) {
	for _, tt := range []struct{ in, want string }{
		{"plain", "plain"},
		{"two\nlines\tand\r\ncr", "two lines and cr"},
		{"\x1b[2J\x1b[Hcleared", "cleared"},
		{"*not* markdown", "*not* markdown"},
		{"line\u2028sep", "line sep"},
	} {
		if got := EscapeText(tt.in); got != tt.want {
			t.Errorf("EscapeText(%q) = %q, want %q", tt.in, got, tt.want)
		}
	}
}
