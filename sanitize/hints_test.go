package sanitize

import (
	"math/rand/v2"
	"testing"
)

// hintsByWord is hints without the second-byte test: every needle of a
// byte compared at every position.
func hintsByWord(s string) hint {
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
			for _, n := range needles[c] {
				if n.fold && hasFold(rest, n.word) || !n.fold && hasPrefix(rest, n.word) {
					h |= n.h
				}
			}
		}
	}
	return h
}

func TestHints_sameAsEveryWordCompared(t *testing.T) {
	tests := []string{"", "a", "s", "sk", "sk-", "AUTH", "Bearer x", "x?y", "gh", "g", "hf_1", "AKIA", "akia",
		"TOKEN=1", "pass:word", "https://u:p@h", "-----BEGIN RSA PRIVATE KEY-----", "eyJhbGciOi", "npm_", "xoxb-1",
		"k\x00ey", "s\xffecret", "Se", "SE", "sI", "github_pat_", "glpat-", "pk_", "rk-", "Digest", "jwt", "pwd", "session"}
	// Random strings over the needles' letters and their neighbours.
	const alphabet = "aAbBcCdDeEgGhHjJkKnNpPrRsStTxXiIyYoOlLuUwWfF_-=:/?@\x00\xff 0"
	r := rand.New(rand.NewPCG(1, 2))
	for range 20000 {
		b := make([]byte, r.IntN(12))
		for i := range b {
			b[i] = alphabet[r.IntN(len(alphabet))]
		}
		tests = append(tests, string(b))
	}
	for _, s := range tests {
		if got, want := hints(s), hintsByWord(s); got != want {
			t.Fatalf("hints(%q) = %08b, every word compared gives %08b", s, got, want)
		}
		if got, want := hints([]byte(s)), hintsByWord(s); got != want {
			t.Fatalf("hints([]byte(%q)) = %08b, every word compared gives %08b", s, got, want)
		}
	}
}
