package sanitize

import (
	"strings"
	"unicode"
	"unicode/utf8"
)

// StripControl removes terminal control sequences (ANSI CSI, OSC and other
// escape sequences), C0 and C1 control characters, DEL and Unicode
// bidirectional overrides from s, so untrusted text cannot move the cursor,
// recolour, retitle or reorder a terminal. Newlines and tabs are kept when
// keepNewlines is true and become spaces otherwise; carriage returns go.
// Invalid UTF-8 becomes U+FFFD.
func StripControl(s string, keepNewlines bool) string {
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); {
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b.WriteRune(unicode.ReplacementChar)
		case r == 0x1b:
			i += escapeLen(s[i:])
			continue
		case r == '\n' || r == '\t' || r == '\u2028' || r == '\u2029':
			switch {
			case !keepNewlines:
				b.WriteByte(' ')
			case r == '\t':
				b.WriteByte('\t')
			default: // \n and the Unicode line and paragraph separators
				b.WriteByte('\n')
			}
		case r < 0x20 || r == 0x7f || (r >= 0x80 && r <= 0x9f):
			// dropped (including a C1 CSI 0x9b: its parameters stay as text)
		case isBidiControl(r):
		default:
			b.WriteRune(r)
		}
		i += size
	}
	return b.String()
}

// escapeLen is the length of the escape sequence at the start of s (which
// begins with ESC): CSI up to its final byte, OSC/DCS/APC/PM/SOS up to BEL
// or ST, otherwise ESC and one more character.
func escapeLen(s string) int {
	if len(s) < 2 {
		return len(s)
	}
	switch s[1] {
	case '[':
		for j := 2; j < len(s); j++ {
			if s[j] >= 0x40 && s[j] <= 0x7e {
				return j + 1
			}
		}
		return len(s)
	case ']', 'P', '_', '^', 'X':
		for j := 2; j < len(s); j++ {
			if s[j] == 0x07 {
				return j + 1
			}
			if s[j] == 0x1b && j+1 < len(s) && s[j+1] == '\\' {
				return j + 2
			}
		}
		return len(s)
	}
	_, size := utf8.DecodeRuneInString(s[1:])
	return 1 + size
}

func isBidiControl(r rune) bool { return unicode.Is(unicode.Bidi_Control, r) }

// markdownEscaper returns a replacer that backslash-escapes the characters that start Markdown
// emphasis, code, links, images, tables and headings, and turns HTML
// special characters into entities (GitHub renders raw HTML in Markdown).
func markdownEscaper() *strings.Replacer {
	return strings.NewReplacer(
		`\`, `\\`, "`", "\\`", `*`, `\*`, `_`, `\_`, `[`, `\[`, `]`, `\]`, `(`, `\(`, `)`, `\)`,
		`#`, `\#`, `|`, `\|`, `~`, `\~`, `!`, `\!`, `<`, `&lt;`, `>`, `&gt;`, `&`, `&amp;`,
		`@`, `&#64;`,
	)
}

// EscapeMarkdown makes untrusted text inert inline Markdown on one line:
// control characters stripped, newlines turned into spaces, Markdown and
// HTML syntax escaped (also "@" so that text cannot mention people).
func EscapeMarkdown(s string) string {
	return markdownEscaper().Replace(StripControl(s, false))
}

// EscapeText makes untrusted text safe for a terminal on one line.
func EscapeText(s string) string { return StripControl(s, false) }
