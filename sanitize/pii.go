package sanitize

import (
	"net/netip"
	"strings"
)

// Markers that replace personal data when the PII pass is on.
const (
	MarkEmail = "[EMAIL]"
	MarkPhone = "[PHONE]"
	MarkCard  = "[CARD]"
	MarkIBAN  = "[IBAN]"
	MarkIP    = "[IP]"
)

// RedactPII replaces personal data in free text with a typed marker:
// e-mail addresses ([EMAIL]), payment card numbers that pass the Luhn
// check and start like a card ([CARD]), IBANs whose check digits are
// right ([IBAN]), IPv4 and IPv6 addresses other than loopback and
// unspecified ones ([IP]), and phone numbers ([PHONE]): a '+' and 8 to 15
// digits, or 10 or 11 digits written in groups. Order numbers, plain
// digit runs, dates, times, versions, timestamps and UUIDs stay.
func RedactPII(s string) string {
	at, digits := false, 0
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c == '@':
			at = true
		case c >= '0' && c <= '9':
			digits++
		}
	}
	if at {
		s = redactEmails(s)
	}
	if digits >= 4 || (digits > 0 && strings.Contains(s, "::")) {
		s = redactNumbers(s)
	}
	return s
}

func isAlnum(c byte) bool {
	return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9'
}

func isDigit(c byte) bool { return c >= '0' && c <= '9' }

// redactEmails replaces local@domain.tld.
func redactEmails(s string) string {
	e := edit{s: s}
	for i := 0; i < len(s); i++ {
		if s[i] != '@' {
			continue
		}
		start := i
		for start > e.done && (isAlnum(s[start-1]) || strings.IndexByte("._%+-", s[start-1]) >= 0) {
			start--
		}
		for start < i && s[start] == '.' {
			start++
		}
		end, dots, lastDot := i+1, 0, -1
		for end < len(s) && (isAlnum(s[end]) || s[end] == '-' || (s[end] == '.' && end+1 < len(s) && isAlnum(s[end+1]))) {
			if s[end] == '.' {
				dots, lastDot = dots+1, end
			}
			end++
		}
		if start == i || dots == 0 || !tld(s[lastDot+1:end]) {
			continue
		}
		e.replace(start, end, MarkEmail)
		i = end - 1
	}
	return e.result()
}

// tld reports whether s is a top-level domain: two or more letters.
func tld(s string) bool {
	if len(s) < 2 {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !(s[i] >= 'a' && s[i] <= 'z' || s[i] >= 'A' && s[i] <= 'Z') {
			return false
		}
	}
	return true
}

// redactNumbers replaces IBANs, card numbers, IP addresses and phone
// numbers, reading left to right; each candidate starts a word.
func redactNumbers(s string) string {
	e := edit{s: s}
	for i := 0; i < len(s); i++ {
		c := s[i]
		if !(isAlnum(c) || c == '+' || c == '(' || c == ':') || (i > 0 && (isAlnum(s[i-1]) || s[i-1] == '.' || s[i-1] == '_')) && !escapedBefore(s, i) {
			continue
		}
		var end int
		var mark string
		switch {
		case c >= 'G' && c <= 'Z':
			end, mark = ibanEnd(s, i), MarkIBAN
		case isDigit(c) || c == ':' || c >= 'a' && c <= 'f' || c >= 'A' && c <= 'F':
			if c >= 'A' && c <= 'F' {
				end, mark = ibanEnd(s, i), MarkIBAN
			}
			if end == 0 {
				end, mark = cardEnd(s, i), MarkCard
			}
			if end == 0 {
				if end, mark = ipEnd(s, i), MarkIP; end == 0 {
					end, mark = phoneEnd(s, i), MarkPhone
				}
			}
		case c == '+' || c == '(':
			end, mark = phoneEnd(s, i), MarkPhone
		}
		if end > 0 {
			e.replace(i, end, mark)
			i = end - 1
		}
	}
	return e.result()
}

// endsWord reports whether a candidate may end at s[j]: the end, or a
// byte that is not a letter, digit or '_' and not a '.' or '-' joining
// more of the same.
func endsWord(s string, j int) bool {
	if j >= len(s) {
		return true
	}
	if isAlnum(s[j]) || s[j] == '_' {
		return false
	}
	return !((s[j] == '.' || s[j] == '-') && j+1 < len(s) && isAlnum(s[j+1]))
}

// groupedDigits reads digits at s[i:] in groups joined by single
// separators from seps; it returns the digits and where they end.
func groupedDigits(s string, i int, seps string) (string, int) {
	var b strings.Builder
	j := i
	for j < len(s) {
		if isDigit(s[j]) {
			b.WriteByte(s[j])
			j++
			continue
		}
		if strings.IndexByte(seps, s[j]) >= 0 && j > i && isDigit(s[j-1]) && j+1 < len(s) && isDigit(s[j+1]) {
			j++
			continue
		}
		break
	}
	return b.String(), j
}

// insideNumber reports whether s[i] continues a number written in
// groups (a digit and a separator before it): a tail of a longer number
// is not a phone or card number of its own.
func insideNumber(s string, i int) bool {
	return i >= 2 && strings.IndexByte(" -.", s[i-1]) >= 0 && isDigit(s[i-2])
}

// cardEnd matches a payment card number at s[i]: 13 to 19 digits, in
// groups joined by single spaces or dashes, starting 2 to 6 as card
// numbers do, passing the Luhn check.
func cardEnd(s string, i int) int {
	if insideNumber(s, i) {
		return 0
	}
	digits, j := groupedDigits(s, i, " -")
	if !cardGroups(s[i:j]) {
		return 0
	}
	if len(digits) < 13 || len(digits) > 19 || digits[0] < '2' || digits[0] > '6' || !endsWord(s, j) || !luhn(digits) {
		return 0
	}
	return j
}

// cardGroups reports whether a card number is grouped as cards are
// printed: no separators, or groups of 4 to 6 digits and a last group of
// 3 to 6.
func cardGroups(s string) bool {
	groups := strings.FieldsFunc(s, func(r rune) bool { return r == ' ' || r == '-' })
	for k, g := range groups {
		if len(groups) > 1 && (len(g) > 6 || len(g) < 4 && (k < len(groups)-1 || len(g) < 3)) {
			return false
		}
	}
	return true
}

func luhn(digits string) bool {
	sum := 0
	for k := 0; k < len(digits); k++ {
		d := int(digits[len(digits)-1-k] - '0')
		if k%2 == 1 {
			if d *= 2; d > 9 {
				d -= 9
			}
		}
		sum += d
	}
	return sum%10 == 0
}

// ibanEnd matches an IBAN at s[i]: a country code, two check digits and
// up to 30 letters or digits, optionally in groups of four, whose check
// (mod 97) is 1. A trailing group that breaks the check is left out.
func ibanEnd(s string, i int) int {
	if i+4 > len(s) || !(s[i+1] >= 'A' && s[i+1] <= 'Z') || !isDigit(s[i+2]) || !isDigit(s[i+3]) {
		return 0
	}
	var ends []int // candidate ends, after each group
	var compact []byte
	j := i
	for j < len(s) && len(compact) < 34 {
		c := s[j]
		if isDigit(c) || c >= 'A' && c <= 'Z' {
			compact = append(compact, c)
			j++
			continue
		}
		if c == ' ' && j+1 < len(s) && (isDigit(s[j+1]) || s[j+1] >= 'A' && s[j+1] <= 'Z') && len(compact) >= 4 {
			ends = append(ends, j)
			j++
			continue
		}
		break
	}
	ends = append(ends, j)
	for k := len(ends) - 1; k >= 0; k-- {
		end := ends[k]
		n := 0
		for p := i; p < end; p++ {
			if s[p] != ' ' {
				n++
			}
		}
		if n >= 15 && endsWord(s, end) && ibanValid(compact[:n]) {
			return end
		}
	}
	return 0
}

// ibanValid checks an IBAN's digits: moved country code and check digits,
// letters as 10..35, the number mod 97 is 1.
func ibanValid(iban []byte) bool {
	rem := 0
	for k := 0; k < len(iban); k++ {
		c := iban[(k+4)%len(iban)]
		switch {
		case isDigit(c):
			rem = (rem*10 + int(c-'0')) % 97
		case c >= 'A' && c <= 'Z':
			rem = (rem*100 + int(c-'A'+10)) % 97
		default:
			return false
		}
	}
	return rem == 1
}

// ipEnd matches an IPv4 or IPv6 address at s[i] that is neither loopback
// nor unspecified. A dotted quad after a 'v' is a version.
func ipEnd(s string, i int) int {
	if i > 0 && s[i-1] == ':' {
		return 0 // inside a longer run of colons and digits
	}
	j := i
	colons, dots, digits := 0, 0, 0
	for j < len(s) && (isHex(s[j]) || s[j] == ':' || s[j] == '.') {
		switch {
		case s[j] == ':':
			colons++
		case s[j] == '.':
			if j+1 >= len(s) || !isDigit(s[j+1]) {
				goto done
			}
			dots++
		case isDigit(s[j]):
			digits++
		}
		j++
	}
done:
	if digits == 0 || (colons < 2 && dots != 3) || (colons == 0 && i > 0 && (s[i-1] == 'v' || s[i-1] == 'V')) {
		return 0
	}
	if colons == 1 && dots == 3 { // "10.0.0.7:5432": the host before its port
		j = i + strings.IndexByte(s[i:j], ':')
		colons = 0
	}
	for j > i && s[j-1] == ':' && !strings.HasSuffix(s[i:j], "::") {
		j-- // "10.0.0.7:" before a port
	}
	if colons > 0 && colons < 7 && !strings.Contains(s[i:j], "::") {
		return 0
	}
	if !endsWord(s, j) && !(j < len(s) && s[j] == '.') {
		return 0
	}
	addr, err := netip.ParseAddr(s[i:j])
	if err != nil || addr.IsLoopback() || addr.IsUnspecified() {
		return 0
	}
	return j
}

// phoneEnd matches a phone number at s[i]: '+' and 8 to 15 digits, or
// 10 or 11 digits in at least two groups (spaces, dashes, dots or a
// parenthesised area code) whose last group has 3 or more digits and that
// are not shaped like a date.
func phoneEnd(s string, i int) int {
	if insideNumber(s, i) {
		return 0
	}
	plus := s[i] == '+'
	j := i
	if plus {
		j++
	}
	digits, groups, last, cur := 0, 1, 0, 0
	sep, open, paren := byte(0), false, false
	for j < len(s) {
		c := s[j]
		switch {
		case isDigit(c):
			digits++
			cur++
			j++
			continue
		case c == '(' && !open && (j == i || j == i+1 && plus || s[j-1] == ' '):
			open, paren = true, true
			j++
			continue
		case c == ')' && cur > 0 && open:
			open = false
			if j+1 < len(s) && s[j+1] == ' ' {
				j++
			}
			groups, last, cur = groups+1, cur, 0
			j++
			continue
		case (c == ' ' || c == '-' || c == '.') && cur > 0 && j+1 < len(s) && (isDigit(s[j+1]) || s[j+1] == '('):
			if sep == 0 {
				sep = c
			}
			groups, last, cur = groups+1, cur, 0
			j++
			continue
		}
		break
	}
	if cur > 0 {
		last = cur
	}
	if j > i && s[j-1] == ' ' {
		j--
	}
	if !endsWord(s, j) || digits > 15 {
		return 0
	}
	if plus {
		if digits < 8 {
			return 0
		}
		return j
	}
	trunk := s[i] == '0' && groups >= 2 // a national number: 0151 23456789
	if digits < 10 || digits > 11 || (groups < 3 && !paren && !trunk) || last < 3 || open || dateLike(s[i:j]) {
		return 0
	}
	return j
}

// dateLike reports whether a grouped number reads as a date or a time
// (2026-12-04, 04.12.2026 10 30).
func dateLike(s string) bool {
	parts := strings.FieldsFunc(s, func(r rune) bool { return r == '-' || r == '.' || r == ' ' || r == '/' })
	return len(parts) >= 3 && (len(parts[0]) == 4 || len(parts[2]) == 4) && len(parts[1]) <= 2
}
