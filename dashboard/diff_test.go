package dashboard

import (
	"strings"
	"testing"
)

func TestDiffWords(t *testing.T) {
	render := func(d wordDiff) string {
		var sb strings.Builder
		for _, p := range d.Parts {
			switch p.Op {
			case "+":
				sb.WriteString("{+" + p.Text + "+}")
			case "-":
				sb.WriteString("[-" + p.Text + "-]")
			default:
				sb.WriteString(p.Text)
			}
		}
		return sb.String()
	}
	for _, tc := range []struct{ old, new, want string }{
		{"You can return it within 30 days.", "Returns are accepted within 30 days.",
			"[-You can return it-]{+Returns are accepted+} within 30 days."},
		{"same text", "same text", "same text"},
		{"", "new answer", "{+new answer+}"},
		{"old answer", "", "[-old answer-]"},
		{"It ships tomorrow.", "It ships today.", "It ships [-tomorrow-]{+today+}."},
		{"a <b> c", "a <i> c", "a <[-b-]{+i+}> c"},
		{"line one\nline two", "line one\nline 2", "line one\nline [-two-]{+2+}"},
	} {
		d := diffWords(tc.old, tc.new)
		if got := render(d); got != tc.want {
			t.Errorf("diffWords(%q, %q) = %q, want %q", tc.old, tc.new, got, tc.want)
		}
		var oldBack, newBack strings.Builder
		for _, p := range d.Parts {
			if p.Op != "+" {
				oldBack.WriteString(p.Text)
			}
			if p.Op != "-" {
				newBack.WriteString(p.Text)
			}
		}
		if oldBack.String() != tc.old || newBack.String() != tc.new {
			t.Errorf("diffWords(%q, %q) loses text: %q / %q", tc.old, tc.new, oldBack.String(), newBack.String())
		}
	}
	long := strings.Repeat("word ", 1200)
	if d := diffWords(long+"a", "b"+long+"c "+long); !d.Coarse {
		t.Error("a diff beyond maxDiffCells was not coarse")
	}
}
