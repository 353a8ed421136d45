package sanitize

import (
	"strings"
	"unicode/utf8"
)

// Replacement is what a NUL, an invalid UTF-8 sequence or a lone
// surrogate becomes.
const Replacement = "\uFFFD"

// Report says what a call changed.
type Report struct {
	// Repaired: NUL, invalid UTF-8 or a lone surrogate was replaced.
	Repaired bool
	// Redacted: a credential was replaced by Redacted.
	Redacted bool
	// PII: personal data was replaced by a typed marker (Policy.PII).
	PII bool
}

// Changed reports whether anything was changed.
func (r Report) Changed() bool { return r.Repaired || r.Redacted || r.PII }

// Merge adds o's changes to r.
func (r *Report) Merge(o Report) {
	r.Repaired = r.Repaired || o.Repaired
	r.Redacted = r.Redacted || o.Redacted
	r.PII = r.PII || o.PII
}

// Repair replaces NUL characters and invalid UTF-8 (which includes
// surrogate code points encoded as UTF-8) with U+FFFD. It reports whether
// it changed s.
func Repair(s string) (string, bool) {
	if utf8.ValidString(s) && strings.IndexByte(s, 0) < 0 {
		return s, false
	}
	s = strings.ToValidUTF8(s, Replacement)
	return strings.ReplaceAll(s, "\x00", Replacement), true
}

// RepairBytes is Repair for bytes; it returns b itself when nothing changed.
func RepairBytes(b []byte) ([]byte, bool) {
	if utf8.Valid(b) && !containsNUL(b) {
		return b, false
	}
	s, _ := Repair(string(b))
	return []byte(s), true
}

func containsNUL(b []byte) bool {
	for _, c := range b {
		if c == 0 {
			return true
		}
	}
	return false
}

// Policy chooses what sanitizing does beyond repair and credential
// redaction, which always happen. The zero Policy is the default.
type Policy struct {
	// PII also replaces personal data with typed markers (RedactPII).
	PII bool
}

// Text repairs and redacts free text: an error message, stderr, a judge's
// reason, an agent's answer.
func Text(s string) (string, Report) { return Policy{}.Text(s) }

// String is Text without the report.
func String(s string) string {
	out, _ := Text(s)
	return out
}

// Text is the package's Text under p.
func (p Policy) Text(s string) (string, Report) {
	var r Report
	s, r.Repaired = Repair(s)
	red := RedactText(s)
	r.Redacted = red != s
	if p.PII {
		out := RedactPII(red)
		r.PII = out != red
		red = out
	}
	return red, r
}

// String is Policy.Text without the report.
func (p Policy) String(s string) string {
	out, _ := p.Text(s)
	return out
}
