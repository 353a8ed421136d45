package models

import (
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"unicode/utf8"

	"github.com/tidwall/gjson"
)

// ValidJSON reports whether s is one JSON value, as json.Valid does
// (FuzzValidJSON) at a third of its cost: a trace's every tool call has
// its arguments and result checked, and its record its actions.
func ValidJSON(s string) bool { return gjson.Valid(s) }

// ValidJSONBytes is ValidJSON for bytes.
func ValidJSONBytes(b []byte) bool { return gjson.ValidBytes(b) }

// The Append functions write values exactly as encoding/json writes them
// (FuzzAppendJSONString, FuzzAppendJSONRaw), without reflection: a record
// of many spans or tool calls is written on every case.

// AppendJSONString writes s as json.Marshal does: quoted, with <, > and &
// escaped, invalid UTF-8 as U+FFFD.
func AppendJSONString(b []byte, s string) []byte {
	const hex = "0123456789abcdef"
	b = append(b, '"')
	start := 0
	for i := 0; i < len(s); {
		c := s[i]
		if c < utf8.RuneSelf {
			if !stringEscapes[c] {
				i++
				continue
			}
			b = append(b, s[start:i]...)
			switch c {
			case '\\', '"':
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
				b = append(b, '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			}
			i++
			start = i
			continue
		}
		r, size := utf8.DecodeRuneInString(s[i:])
		switch {
		case r == utf8.RuneError && size == 1:
			b = append(append(b, s[start:i]...), `\ufffd`...)
		case r == '\u2028' || r == '\u2029':
			b = append(append(b, s[start:i]...), '\\', 'u', '2', '0', '2', hex[r&0xF])
		default:
			i += size
			continue
		}
		i += size
		start = i
	}
	b = append(b, s[start:]...)
	return append(b, '"')
}

// stringEscapes are the ASCII bytes encoding/json escapes in a string.
var stringEscapes = func() (esc [utf8.RuneSelf]bool) {
	for c := range utf8.RuneSelf {
		esc[c] = c < 0x20 || c == '"' || c == '\\' || c == '<' || c == '>' || c == '&'
	}
	return esc
}()

// AppendJSONRaw writes JSON text as json.Marshal writes a RawMessage:
// white space between tokens removed; <, >, &, U+2028 and U+2029 escaped.
// raw must be valid JSON (json.Valid).
func AppendJSONRaw(b []byte, raw json.RawMessage) []byte {
	const hex = "0123456789abcdef"
	inString := false
	start := 0
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		if !rawSpecial[c] {
			continue
		}
		if !inString {
			switch c {
			case '"':
				inString = true
			case ' ', '\t', '\n', '\r':
				b = append(b, raw[start:i]...)
				start = i + 1
			}
			continue
		}
		switch c {
		case '\\':
			i++ // the escaped byte neither ends the string nor needs escaping
		case '"':
			inString = false
		case '<', '>', '&':
			b = append(append(b, raw[start:i]...), '\\', 'u', '0', '0', hex[c>>4], hex[c&0xF])
			start = i + 1
		case 0xE2: // U+2028 and U+2029 are E2 80 A8 and E2 80 A9
			if i+2 < len(raw) && raw[i+1] == 0x80 && raw[i+2]&^1 == 0xA8 {
				b = append(append(b, raw[start:i]...), '\\', 'u', '2', '0', '2', hex[raw[i+2]&0xF])
				i += 2
				start = i + 1
			}
		}
	}
	return append(b, raw[start:]...)
}

// rawSpecial are the bytes AppendJSONRaw looks at: the others are
// written as they are, in a string or out of one.
var rawSpecial = func() (sp [256]bool) {
	for _, c := range []byte{'"', '\\', ' ', '\t', '\n', '\r', '<', '>', '&', 0xE2} {
		sp[c] = true
	}
	return sp
}()

// AppendJSONFloat writes f as json.Marshal writes a float64; an error
// for NaN and the infinities, which JSON cannot hold.
func AppendJSONFloat(b []byte, f float64) ([]byte, error) {
	if math.IsNaN(f) || math.IsInf(f, 0) {
		return b, fmt.Errorf("json: unsupported value: %s", strconv.FormatFloat(f, 'g', -1, 64))
	}
	format := byte('f')
	if abs := math.Abs(f); abs != 0 && (abs < 1e-6 || abs >= 1e21) {
		format = 'e'
	}
	b = strconv.AppendFloat(b, f, format, -1, 64)
	if format == 'e' { // e-09 to e-9
		if n := len(b); n >= 4 && b[n-4] == 'e' && b[n-3] == '-' && b[n-2] == '0' {
			b[n-2] = b[n-1]
			b = b[:n-1]
		}
	}
	return b, nil
}
