// Package jsonindent indents JSON like encoding/json's Indent down to a
// depth and writes anything nested deeper on one line, so the output grows
// linearly with the input however deep it nests.
package jsonindent

import (
	"bytes"
	"encoding/json"
)

// MaxDepth is the deepest nesting that gets its own indented lines. With
// json.Indent every level adds one indent to each line below it, so a
// document nested n levels deep becomes about n² bytes (18 KB of nested
// metadata made reports of 162 MB); below MaxDepth levels a value is
// written compact.
const MaxDepth = 16

// Indent appends to dst the indented form of the JSON document src, the
// same bytes as json.Indent for documents at most MaxDepth levels deep.
func Indent(dst *bytes.Buffer, src []byte, prefix, indent string) error {
	return IndentFrom(dst, src, prefix, indent, 0)
}

// IndentFrom is Indent for a value that sits base levels deep inside a
// larger document written piece by piece (its prefix holding those
// levels' indents), so the pieces break lines where the whole would.
func IndentFrom(dst *bytes.Buffer, src []byte, prefix, indent string, base int) error {
	var compact bytes.Buffer
	if err := json.Compact(&compact, src); err != nil {
		return err
	}
	newline := func(depth int) {
		dst.WriteByte('\n')
		dst.WriteString(prefix)
		for range depth {
			dst.WriteString(indent)
		}
	}
	limit := MaxDepth - base
	depth := 0
	pending := false // an indented container opened, its first element not yet written
	inString, escaped := false, false
	for _, c := range compact.Bytes() {
		if inString {
			dst.WriteByte(c)
			switch {
			case escaped:
				escaped = false
			case c == '\\':
				escaped = true
			case c == '"':
				inString = false
			}
			continue
		}
		if pending && c != '}' && c != ']' {
			pending = false
			newline(depth)
		}
		switch c {
		case '"':
			inString = true
			dst.WriteByte(c)
		case '{', '[':
			dst.WriteByte(c)
			depth++
			pending = depth <= limit
		case ',':
			dst.WriteByte(c)
			if depth <= limit {
				newline(depth)
			}
		case ':':
			dst.WriteByte(c)
			if depth <= limit {
				dst.WriteByte(' ')
			}
		case '}', ']':
			if pending {
				pending = false
			} else if depth <= limit {
				newline(depth - 1)
			}
			depth--
			dst.WriteByte(c)
		default:
			dst.WriteByte(c)
		}
	}
	return nil
}

// Encode appends v as indented JSON followed by a newline, as a
// json.Encoder with SetIndent(prefix, indent) and HTML escaping would,
// with Indent's depth bound.
func Encode(dst *bytes.Buffer, v any, prefix, indent string) error {
	if err := EncodeFrom(dst, v, prefix, indent, 0); err != nil {
		return err
	}
	dst.WriteByte('\n')
	return nil
}

// EncodeFrom appends v indented as IndentFrom does (HTML escaped, as
// json.MarshalIndent), without a final newline.
func EncodeFrom(dst *bytes.Buffer, v any, prefix, indent string, base int) error {
	var raw bytes.Buffer
	if err := json.NewEncoder(&raw).Encode(v); err != nil {
		return err
	}
	return IndentFrom(dst, raw.Bytes(), prefix, indent, base)
}
