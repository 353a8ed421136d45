package sanitize

import (
	"bytes"
	"encoding/json"
	"errors"
	"io"
	"unicode/utf8"
)

// JSON repairs and redacts a JSON document: strings (keys included) are
// repaired (NUL, invalid UTF-8, lone surrogate escapes such as \ud800),
// string values under sensitive names become Redacted (numbers, booleans
// and nested objects are kept: "max_tokens": 100 is no secret) and every string is
// redacted as free text. It returns raw itself when nothing changed, so
// untouched documents keep their bytes (key order, spacing). Text that is
// not JSON is returned as a JSON string of its sanitized text.
func JSON(raw []byte) ([]byte, Report) { return Policy{}.JSON(raw) }

// JSON is the package's JSON under p.
func (p Policy) JSON(raw []byte) ([]byte, Report) {
	if raw == nil {
		return nil, Report{}
	}
	var rep Report
	rep.Repaired = needsRepair(raw)
	if !rep.Repaired && json.Valid(raw) && untouched(raw, p) {
		return raw, rep
	}
	v, err := decodeOne(raw)
	if err != nil {
		s, r := p.Text(string(raw))
		b, _ := marshal(s)
		r.Repaired = true
		return b, r
	}
	out, r := p.Value(v)
	rep.Merge(r)
	if !rep.Changed() {
		return raw, rep
	}
	b, err := marshal(out)
	if err != nil { // cannot happen for decoded values; keep a valid document
		b, _ = marshal(Redacted)
	}
	return b, rep
}

// RepairJSON repairs a JSON document without redacting anything: strings
// and keys holding NUL, invalid UTF-8 or lone surrogate escapes get U+FFFD.
// It returns raw itself and false when nothing needed repair, and raw
// itself and false when raw is not JSON (that is the parser's error to
// report).
func RepairJSON(raw []byte) ([]byte, bool) {
	if !needsRepair(raw) {
		return raw, false
	}
	v, err := decodeOne(raw)
	if err != nil {
		return raw, false
	}
	var rep Report
	b, err := marshal(value("", v, &rep, nil))
	if err != nil {
		return raw, false
	}
	return b, true
}

// decodeOne decodes raw as exactly one JSON value (numbers kept as
// written); anything after it but white space makes raw no JSON document.
func decodeOne(raw []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	var v any
	if err := dec.Decode(&v); err != nil {
		return nil, err
	}
	if _, err := dec.Token(); err != io.EOF {
		return nil, errTrailing
	}
	return v, nil
}

// errTrailing is decodeOne's refusal of text after the value.
var errTrailing = errors.New("text after the JSON value")

// marshal encodes v without HTML escaping (<, >, & stay as they are).
func marshal(v any) ([]byte, error) {
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(v); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// Value repairs and redacts decoded JSON (map[string]any, []any, strings,
// numbers…) and returns the result; maps and slices are copied, never
// changed in place.
func Value(v any) (any, Report) { return Policy{}.Value(v) }

// Value is the package's Value under p.
func (p Policy) Value(v any) (any, Report) {
	var rep Report
	out := value("", v, &rep, &p)
	return out, rep
}

// value repairs v and, unless p is nil, redacts it under p.
func value(name string, v any, rep *Report, p *Policy) any {
	redact := p != nil
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		for k, x := range t {
			key, fixed := Repair(k)
			rep.Repaired = rep.Repaired || fixed
			if str, ok := x.(string); ok && redact && str != "" && str != Redacted && SensitiveName(key) && !usageCount(key, str) {
				out[key] = Redacted
				rep.Redacted = true
				continue
			}
			out[key] = value(key, x, rep, p)
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = value(name, x, rep, p)
		}
		return out
	case string:
		s, fixed := Repair(t)
		rep.Repaired = rep.Repaired || fixed
		if !redact {
			return s
		}
		var red string
		if SecretValue(s) {
			red = Redacted
		} else {
			red = RedactText(s)
		}
		rep.Redacted = rep.Redacted || red != s
		if p.PII {
			out := RedactPII(red)
			rep.PII = rep.PII || out != red
			red = out
		}
		return red
	default:
		return v
	}
}

// needsRepair reports whether raw holds what decoding would repair: invalid
// UTF-8, a \u0000 escape or a lone surrogate escape.
func needsRepair(raw []byte) bool {
	return !utf8.Valid(raw) || BadEscape(raw) >= 0
}

// BadEscape returns the offset in raw (JSON text) of the first \u0000 or
// lone surrogate escape (\ud800 not followed by a low surrogate, or a low
// surrogate on its own), or -1 when there is none. PostgreSQL jsonb
// refuses both; Go's decoder silently turns a lone surrogate into U+FFFD.
func BadEscape(raw []byte) int { return badEscape(raw, true) }

// LoneSurrogate is BadEscape for lone surrogates only (\u0000 is skipped).
func LoneSurrogate(raw []byte) int { return badEscape(raw, false) }

func badEscape(raw []byte, nul bool) int {
	for i := 0; i < len(raw); i++ {
		if raw[i] != '\\' || i+1 >= len(raw) {
			continue
		}
		if raw[i+1] != 'u' {
			i++ // skip the escaped character (\\, \", …)
			continue
		}
		r, ok := hex4(raw, i+2)
		if !ok {
			continue
		}
		switch {
		case r == 0 && nul:
			return i
		case r >= 0xDC00 && r <= 0xDFFF: // a low surrogate not after a high one
			return i
		case r >= 0xD800 && r <= 0xDBFF:
			if i+7 < len(raw) && raw[i+6] == '\\' && raw[i+7] == 'u' {
				if lo, ok := hex4(raw, i+8); ok && lo >= 0xDC00 && lo <= 0xDFFF {
					i += 11 // a valid pair
					continue
				}
			}
			return i
		}
		i += 5
	}
	return -1
}

// hex4 reads four hex digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}
