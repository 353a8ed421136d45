package show

import (
	"bytes"
	"encoding/json"
	"strings"

	"github.com/agentevals-go/agentevals/internal/jsonindent"
)

// JSON shows a JSON value to people: compact when indent is "",
// else indented by indent. Go's encoder writes <, > and & inside strings as
// \u003c, \u003e and \u0026, which reads as noise; they are turned back
// into the characters (the output is text for a template or a terminal,
// which escape it for their context, never JSON embedded in HTML). Raw that
// is not JSON is returned as it is.
func JSON(raw []byte, indent string) string {
	var b bytes.Buffer
	var err error
	if indent == "" {
		err = json.Compact(&b, raw)
	} else {
		err = jsonindent.Indent(&b, raw, "", indent)
	}
	if err != nil {
		return string(raw)
	}
	return unescapeHTMLInJSON(b.String())
}

// Value encodes v compactly for people (see JSON).
func Value(v any) string {
	var b bytes.Buffer
	enc := json.NewEncoder(&b)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return "null"
	}
	return strings.TrimSuffix(b.String(), "\n")
}

// unescapeHTMLInJSON replaces the escapes \u003c, \u003e and \u0026 in the
// strings of valid JSON by their characters; other escapes (including an
// escaped backslash followed by "u003c") stay as they are.
func unescapeHTMLInJSON(s string) string {
	if !strings.Contains(s, `\u00`) {
		return s
	}
	var b strings.Builder
	b.Grow(len(s))
	for i := 0; i < len(s); i++ {
		if s[i] != '\\' || i+1 >= len(s) {
			b.WriteByte(s[i])
			continue
		}
		if s[i+1] == 'u' && i+6 <= len(s) {
			switch strings.ToLower(s[i+2 : i+6]) {
			case "003c":
				b.WriteByte('<')
				i += 5
				continue
			case "003e":
				b.WriteByte('>')
				i += 5
				continue
			case "0026":
				b.WriteByte('&')
				i += 5
				continue
			}
		}
		b.WriteString(s[i : i+2]) // any other escape, kept whole
		i++
	}
	return b.String()
}
