package sanitize

import "strings"

// Redaction reads text once to learn which rules could apply (hints) and
// runs only those, each as one hand-written scan: no regular expression
// runs on a string that cannot hold a credential. The scans see through
// the escapes of encoded text: a literal \n, \t, \" or \u0022 before a
// key ends a word as a space would, so "\nsk-…" inside a JSON-encoded
// string loses its key like " sk-…" does.

// hint bits say which scans could change a text.
type hint uint8

const (
	hintName   hint = 1 << iota // a fragment of a sensitive name
	hintSep                     // '=' or ':'
	hintShape                   // the start of a well-known key shape
	hintScheme                  // bearer, basic, token or digest
	hintURL                     // "://"
	hintPEM                     // "PRIVATE KEY-----"
)

// needle is a fragment hints looks for: a word (compared without case
// when fold) and the scans it could make work.
type needle struct {
	word string
	fold bool
	h    hint
}

// needles are the fragments by their first byte.
var needles = func() (t [256][]needle) {
	for _, n := range []needle{
		{"auth", true, hintName}, {"bearer", true, hintScheme | hintName}, {"basic", true, hintScheme | hintName},
		{"cookie", true, hintName}, {"credential", true, hintName}, {"digest", true, hintScheme},
		{"jwt", true, hintName}, {"key", true, hintName}, {"pass", true, hintName}, {"pwd", true, hintName},
		{"secret", true, hintName}, {"session", true, hintName}, {"sig", true, hintName}, {"token", true, hintName | hintScheme},
		{"AKIA", false, hintShape}, {"AIza", false, hintShape}, {"eyJ", false, hintShape}, {"gh", false, hintShape},
		{"glpat-", false, hintShape}, {"github_pat_", false, hintShape}, {"hf_", false, hintShape}, {"npm_", false, hintShape},
		{"pk-", false, hintShape}, {"pk_", false, hintShape}, {"rk-", false, hintShape}, {"rk_", false, hintShape},
		{"sk-", false, hintShape}, {"sk_", false, hintShape}, {"xox", false, hintShape},
	} {
		t[n.word[0]] = append(t[n.word[0]], n)
		if n.fold {
			up := n.word[0] - 'a' + 'A'
			t[up] = append(t[up], n)
		}
	}
	return t
}()

// byteSet is a set of bytes.
type byteSet [4]uint64

func (b *byteSet) add(c byte)      { b[c>>6] |= 1 << (c & 63) }
func (b *byteSet) has(c byte) bool { return b[c>>6]&(1<<(c&63)) != 0 }

// seconds are, by a needle's first byte, the bytes its second byte can be
// (as hasFold and hasPrefix compare it): a cheap test before the words.
var seconds = func() (t [256]byteSet) {
	for first, ns := range needles {
		for _, n := range ns {
			for c := range 256 {
				if b := byte(c); n.fold && b|0x20 == n.word[1] || !n.fold && b == n.word[1] {
					t[first].add(b)
				}
			}
		}
	}
	return t
}()

// hints reads s once and says which scans could change it.
func hints[T string | []byte](s T) hint {
	var h hint
	for i := 0; i < len(s); i++ {
		rest := s[i:]
		switch c := s[i]; c {
		case '=':
			h |= hintSep
		case ':':
			h |= hintSep
			if hasPrefix(rest, "://") {
				h |= hintURL
			}
		case '-':
			if hasPrefix(rest, "-----BEGIN") && contains(rest, "PRIVATE KEY-----") {
				h |= hintPEM
			}
		default:
			ns := needles[c]
			if len(ns) == 0 || i+1 >= len(s) || !seconds[c].has(s[i+1]) {
				continue // every needle is two bytes or more
			}
			for _, n := range ns {
				if n.fold && hasFold(rest, n.word) || !n.fold && hasPrefix(rest, n.word) {
					h |= n.h
				}
			}
		}
	}
	return h
}

// hasFold reports whether s starts with the lower-case ASCII word w,
// ignoring case.
func hasFold[T string | []byte](s T, w string) bool {
	if len(s) < len(w) {
		return false
	}
	for i := 0; i < len(w); i++ {
		if s[i]|0x20 != w[i] {
			return false
		}
	}
	return true
}

// hasPrefix is strings.HasPrefix for text or bytes.
func hasPrefix[T string | []byte](s T, p string) bool {
	return len(s) >= len(p) && string(s[:len(p)]) == p
}

// contains is strings.Contains for text or bytes.
func contains[T string | []byte](s T, sub string) bool {
	for i := 0; i+len(sub) <= len(s); i++ {
		if s[i] == sub[0] && string(s[i:i+len(sub)]) == sub {
			return true
		}
	}
	return false
}

func isWordByte(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || c == '_'
}

func isHex(c byte) bool {
	return c >= '0' && c <= '9' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F'
}

// escapeAt returns the length of the escape sequence at s[i:] that ends
// a word in encoded text, or 0: \n, \r, \t, \", \', \b, \f, \/ or
// \uXXXX, after one or more backslashes (text encoded twice writes \\n
// and \\\").
func escapeAt(s string, i int) int {
	j := i
	for j < len(s) && s[j] == '\\' {
		j++
	}
	if j == i || j >= len(s) {
		return 0
	}
	switch s[j] {
	case 'n', 'r', 't', '"', '\'', 'b', 'f', '/':
		return j + 1 - i
	case 'u':
		if j+4 < len(s) && isHex(s[j+1]) && isHex(s[j+2]) && isHex(s[j+3]) && isHex(s[j+4]) {
			return j + 5 - i
		}
	}
	return 0
}

// escapedBefore reports whether an escape sequence ends just before s[i].
func escapedBefore(s string, i int) bool {
	if i >= 2 && s[i-2] == '\\' && strings.IndexByte(`nrt"'bf/`, s[i-1]) >= 0 {
		return true
	}
	return i >= 6 && s[i-6] == '\\' && s[i-5] == 'u' && isHex(s[i-4]) && isHex(s[i-3]) && isHex(s[i-2]) && isHex(s[i-1])
}

// boundaryBefore reports whether a word may start at s[i]: at the start,
// after a byte that is not a letter, digit or '_', or after an escape.
func boundaryBefore(s string, i int) bool {
	return i == 0 || !isWordByte(s[i-1]) || escapedBefore(s, i)
}

// edit collects the replacements of one scan, in order.
type edit struct {
	s    string
	b    strings.Builder
	done int // s[:done] is written
}

// replace writes s[e.done:from] and then with, and skips s[from:to].
func (e *edit) replace(from, to int, with string) {
	if e.b.Len() == 0 && e.done == 0 {
		e.b.Grow(len(e.s))
	}
	e.b.WriteString(e.s[e.done:from])
	e.b.WriteString(with)
	e.done = to
}

// result is the edited text (s itself when nothing was replaced).
func (e *edit) result() string {
	if e.done == 0 && e.b.Len() == 0 {
		return e.s
	}
	e.b.WriteString(e.s[e.done:])
	return e.b.String()
}
