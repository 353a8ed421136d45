package sanitize

import (
	"bytes"
	"encoding/json"
)

// untouched reports, reading raw once without decoding it, that JSON
// would return the valid document raw unchanged: nothing to repair, no
// non-empty string under a sensitive name (but usage counts), and no
// string that looks like a credential or holds one. Strings whose bytes
// carry no redaction marker are not decoded at all; the few that do are
// redacted as text and compared. It is only a shortcut: when it says
// false, JSON takes the decoding path.
func untouched(raw []byte, p Policy) bool {
	var key []byte // the key whose value comes next, if any
	keyed := false
	for i := 0; i < len(raw); i++ {
		switch raw[i] {
		case ' ', '\t', '\n', '\r', ',':
			continue
		case ':':
			keyed = key != nil
			continue
		case '"':
		default:
			key, keyed = nil, false
			continue
		}
		end, escaped := stringEnd(raw, i+1)
		if end < 0 {
			return false
		}
		tok := raw[i+1 : end]
		if next := nextByte(raw, end+1); next == ':' {
			key, keyed = tok, false
			i = end
			continue
		}
		if !cleanString(tok, escaped, key, keyed, p) {
			return false
		}
		key, keyed = nil, false
		i = end
	}
	return true
}

// cleanString reports that redaction leaves the string token tok (its
// JSON bytes between the quotes) as it is, also as the value of key when
// keyed.
func cleanString(tok []byte, escaped bool, key []byte, keyed bool, p Policy) bool {
	if escaped && (bytes.Contains(tok, []byte(`\u`)) || bytes.Contains(tok, []byte(`\/`))) {
		return false // an escape may hide a marker: decode the document
	}
	h := hints(tok)
	if keyed && len(tok) > 0 && hints(key)&hintName != 0 {
		k := string(key)
		if SensitiveName(k) && string(tok) != Redacted && !usageCount(k, string(tok)) {
			return false
		}
	}
	clean, pii := quickClean(p, tok, h)
	if clean {
		return true
	}
	var s string
	if escaped {
		if json.Unmarshal(tok[:len(tok):len(tok)], &s) != nil {
			quoted := make([]byte, 0, len(tok)+2)
			quoted = append(append(append(quoted, '"'), tok...), '"')
			if json.Unmarshal(quoted, &s) != nil {
				return false
			}
		}
	} else {
		s = string(tok)
	}
	return cleanText(s, pii)
}

// quickClean reports whether the cheap tests show that redaction leaves
// the string tok (with hints h) as it is; when they cannot tell, pii says
// whether cleanText must also try PII redaction.
func quickClean[T string | []byte](p Policy, tok T, h hint) (clean, pii bool) {
	pii = p.PII && maybePII(tok)
	return h&^hintSep == 0 && !maybeSecretValue(tok) && !pii, pii
}

// cleanText reports whether redaction leaves the string s as it is: no
// secret value, no marked secret and, when pii, no personal data.
func cleanText(s string, pii bool) bool {
	return !SecretValue(s) && RedactText(s) == s && (!pii || RedactPII(s) == s)
}

// maybePII is a cheap test that RedactPII could change a token: it needs
// an '@' or a few digits.
func maybePII[T string | []byte](tok T) bool {
	digits := 0
	for i := range len(tok) {
		switch c := tok[i]; {
		case c == '@':
			return true
		case c >= '0' && c <= '9':
			digits++
		}
	}
	return digits > 0
}

// maybeSecretValue is a cheap test that SecretValue could hold for a
// string starting with tok's first bytes.
func maybeSecretValue[T string | []byte](tok T) bool {
	if len(tok) < 3 {
		return false
	}
	switch string([]byte{tok[0] | 0x20, tok[1] | 0x20}) {
	case "sk", "pk", "rk", "gh", "gi", "gl", "xo", "np", "hf", "ak", "ai", "ey", "be", "ba", "to", "di":
		return true
	}
	return false
}

// stringEnd returns the index of the quote closing the JSON string whose
// content starts at raw[i], and whether it holds an escape; -1 when it is
// not closed.
func stringEnd(raw []byte, i int) (int, bool) {
	escaped := false
	for ; i < len(raw); i++ {
		switch raw[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			return i, escaped
		}
	}
	return -1, escaped
}

// nextByte is the first byte at or after raw[i] that is not white space
// (0 at the end).
func nextByte(raw []byte, i int) byte {
	for ; i < len(raw); i++ {
		switch raw[i] {
		case ' ', '\t', '\n', '\r':
		default:
			return raw[i]
		}
	}
	return 0
}
