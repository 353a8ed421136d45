package sanitize

import "strings"

// shapeByte marks the bytes a well-known key shape starts with.
var shapeByte = func() (t [256]bool) {
	for _, c := range "sprgxnhAe" {
		t[c] = true
	}
	return t
}()

// redactShapes replaces words shaped like well-known keys (sk-…, ghp_…,
// github_pat_…, xox…-, glpat-…, npm_…, hf_…, AKIA…, AIza…, JWTs) that
// start a word, also right after an escape sequence (\nsk-…).
func redactShapes(s string) string {
	e := edit{s: s}
	for i := 0; i < len(s); i++ {
		if !shapeByte[s[i]] || !boundaryBefore(s, i) {
			continue
		}
		if end := shapeEnd(s, i); end > 0 {
			e.replace(i, end, Redacted)
			i = end - 1
		}
	}
	return e.result()
}

// Character classes of key bodies.
const (
	alnum      = "A-Za-z0-9"
	alnumDash  = "A-Za-z0-9-"
	alnumUnder = "A-Za-z0-9_"
	alnumBoth  = "A-Za-z0-9_-"
	upperDigit = "A-Z0-9"
)

// shapeEnd returns the end of the key shape starting at s[i], or 0.
func shapeEnd(s string, i int) int {
	r := s[i:]
	var prefix, class string
	min := 8
	switch {
	case len(r) > 3 && (r[0] == 's' || r[0] == 'p' || r[0] == 'r') && r[1] == 'k' && (r[2] == '-' || r[2] == '_'):
		prefix, class = r[:3], alnumBoth
	case strings.HasPrefix(r, "github_pat_"):
		prefix, class = "github_pat_", alnumUnder
	case len(r) > 4 && r[0] == 'g' && r[1] == 'h' && strings.IndexByte("posur", r[2]) >= 0 && r[3] == '_':
		prefix, class = r[:4], alnum
	case len(r) > 4 && strings.HasPrefix(r, "xox") && strings.IndexByte("abprs", r[3]) >= 0 && r[4] == '-':
		prefix, class = r[:5], alnumDash
	case strings.HasPrefix(r, "glpat-"):
		prefix, class = "glpat-", alnumBoth
	case strings.HasPrefix(r, "npm_"):
		prefix, class, min = "npm_", alnum, 20
	case strings.HasPrefix(r, "hf_"):
		prefix, class, min = "hf_", alnum, 20
	case strings.HasPrefix(r, "AKIA"):
		prefix, class, min = "AKIA", upperDigit, 12
	case strings.HasPrefix(r, "AIza"):
		prefix, class, min = "AIza", alnumBoth, 20
	case strings.HasPrefix(r, "eyJ"):
		return jwtEnd(s, i)
	default:
		return 0
	}
	n := span(r[len(prefix):], class)
	if n < min {
		return 0
	}
	return i + len(prefix) + n
}

// jwtEnd matches a JWT at s[i]: eyJ, then base64url parts joined by two
// dots (the last may be empty), or returns 0.
func jwtEnd(s string, i int) int {
	j := i + 3
	for part := 0; part < 2; part++ {
		n := span(s[j:], alnumBoth)
		if n == 0 && (part == 1 || j == i+3) && !(part == 0 && j > i+3) {
			return 0
		}
		j += n
		if j >= len(s) || s[j] != '.' {
			return 0
		}
		j++
	}
	return j + span(s[j:], alnumBoth)
}

// span counts the leading bytes of s in class (one of the constants).
func span(s, class string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		ok := c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
		switch class {
		case alnum:
			ok = ok || c >= 'a' && c <= 'z'
		case alnumDash:
			ok = ok || c >= 'a' && c <= 'z' || c == '-'
		case alnumUnder:
			ok = ok || c >= 'a' && c <= 'z' || c == '_'
		case alnumBoth:
			ok = ok || c >= 'a' && c <= 'z' || c == '_' || c == '-'
		}
		if !ok {
			return i
		}
	}
	return len(s)
}

// redactSchemes replaces the word after Bearer, Basic, Token or Digest
// (any case, starting a word, followed by a blank) when it is shaped like
// a credential (see credentialWord): "Bearer abc.123" loses its token,
// "token counts" and "a bearer token" stay.
func redactSchemes(s string) string {
	e := edit{s: s}
	for i := 0; i < len(s); i++ {
		c := s[i] | 0x20
		if c != 'b' && c != 't' && c != 'd' || !boundaryBefore(s, i) {
			continue
		}
		n := schemeAt(s, i)
		if n == 0 || i+n >= len(s) || (s[i+n] != ' ' && s[i+n] != '\t') {
			continue
		}
		ws := i + n
		for ws < len(s) && (s[ws] == ' ' || s[ws] == '\t') {
			ws++
		}
		we := wordEnd(s, ws)
		if w := s[ws:we]; w != Redacted && credentialWord(w) {
			e.replace(ws, we, Redacted)
		}
		i = max(we, i+n) - 1
	}
	return e.result()
}

// wordEnd is the end of the word at s[i]: white space, a quote or an
// escape sequence ends it.
func wordEnd(s string, i int) int {
	if strings.HasPrefix(s[i:], Redacted) {
		return i + len(Redacted)
	}
	for ; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '"', '\'':
			return i
		case '\\':
			if escapeAt(s, i) > 0 {
				return i
			}
		}
	}
	return len(s)
}

// redactUserinfo hides the password of user:password@ in URLs.
func redactUserinfo(s string) string {
	e := edit{s: s}
	for i := 0; ; {
		j := strings.Index(s[i:], "://")
		if j < 0 {
			break
		}
		at := i + j
		i = at + 3
		if at == 0 || !isSchemeByte(s[at-1]) {
			continue
		}
		colon, end := -1, -1
	scan:
		for k := i; k < len(s); k++ {
			switch s[k] {
			case '/', ' ', '\t', '\n', '\r', '"', '\'', '<', '>':
				break scan
			case ':':
				if colon < 0 {
					colon = k
				}
			case '@':
				end = k
				break scan
			}
		}
		if colon < 0 || end < 0 || end == colon+1 || s[colon+1:end] == Redacted {
			continue
		}
		e.replace(colon+1, end, Redacted)
		i = end
	}
	return e.result()
}

func isSchemeByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '+' || c == '.' || c == '-'
}
