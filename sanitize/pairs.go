package sanitize

import "strings"

// headerNames are credential headers: in "Name: value" the rest of the
// line is the value (a cookie list, a scheme and its token).
var headerNames = []string{"proxy-authorization", "authorization", "set-cookie", "cookie", "x-api-key",
	"api-key", "x-auth-token", "x-goog-api-key", "private-token", "x-amz-security-token"}

func isHeader(name string) bool {
	for _, h := range headerNames {
		if strings.EqualFold(name, h) {
			return true
		}
	}
	return false
}

// redactPairs hides the value in every "name=value" and "name: value"
// whose name is sensitive, in the forms text takes: bare, quoted
// ("name": "value", 'name': 'value'), JSON-encoded inside a string
// (\"name\": \"value\", \u0022name\u0022: …), and header lines. A value
// after "=" that is "Bearer x" loses x whatever the name.
func redactPairs(s string) string {
	e := edit{s: s}
	for i := 0; i < len(s); {
		j := strings.IndexAny(s[i:], "=:")
		if j < 0 {
			break
		}
		i = max(redactPairAt(&e, i+j), i+j+1)
	}
	return e.result()
}

// redactPairAt redacts the value after the separator at sep when its name
// is sensitive; it returns where scanning goes on.
func redactPairAt(e *edit, sep int) int {
	s := e.s
	k := sep
	for k > e.done && (s[k-1] == ' ' || s[k-1] == '\t') {
		k--
	}
	quote := closingQuoteBefore(s, k)
	end := k - len(quote)
	k = nameStart(s, end, quote != "" && !unicodeQuote(quote), e.done)
	if k == end || (quote != "" && !strings.HasSuffix(s[:k], quote)) {
		return sep + 1
	}
	name := s[k:end]
	v := sep + 1
	for v < len(s) && (s[v] == ' ' || s[v] == '\t') {
		v++
	}
	if v >= len(s) {
		return sep + 1
	}
	colon := s[sep] == ':'
	queryKey := !colon && k > 0 && (s[k-1] == '?' || s[k-1] == '&') && strings.EqualFold(name, "key")
	if !SensitiveName(name) && !queryKey {
		if !colon && hasFold(s[v:], "bearer") && v+6 < len(s) && (s[v+6] == ' ' || s[v+6] == '\t') {
			return redactWordAfter(e, v+6, false)
		}
		return sep + 1
	}
	if colon && quote == "" && isHeader(name) {
		ve := lineEnd(s, v, k > 0 && s[k-1] == '"')
		if ve > v && s[v:ve] != Redacted {
			e.replace(v, ve, Redacted)
		}
		return ve
	}
	if q := openingQuoteAt(s, v); q != "" {
		vs := v + len(q)
		ve := closingQuoteAfter(s, vs, q)
		if val := s[vs:ve]; val != "" && val != Redacted && !usageCount(name, val) {
			e.replace(vs, ve, Redacted)
		}
		return ve
	}
	switch s[v] {
	case '{', '[', '\n', '\r':
		return sep + 1
	}
	if escapeAt(s, v) > 0 {
		return sep + 1
	}
	if n := schemeAt(s, v); n > 0 && v+n < len(s) && (s[v+n] == ' ' || s[v+n] == '\t') {
		return redactWordAfter(e, v+n, colon)
	}
	ve := bareEnd(s, v, colon)
	val := s[v:ve]
	if val == "" || val == Redacted || usageCount(name, val) || (colon && (val == "null" || val == "true" || val == "false")) {
		return ve
	}
	e.replace(v, ve, Redacted)
	return ve
}

// redactWordAfter redacts the word after the blanks at s[i:].
func redactWordAfter(e *edit, i int, colon bool) int {
	s := e.s
	for i < len(s) && (s[i] == ' ' || s[i] == '\t') {
		i++
	}
	end := bareEnd(s, i, colon)
	if end > i && s[i:end] != Redacted {
		e.replace(i, end, Redacted)
	}
	return end
}

// closingQuoteBefore returns the quote that ends just before s[k], or "":
// " or ', or \u0022 and \u0027, each after any number of backslashes
// (\" in a JSON-encoded string, \\\" in one encoded twice).
func closingQuoteBefore(s string, k int) string {
	end := k
	switch {
	case k >= 1 && (s[k-1] == '"' || s[k-1] == '\''):
		k--
	case k >= 6 && (s[k-5:k] == "u0022" || s[k-5:k] == "u0027") && s[k-6] == '\\':
		k -= 5
	default:
		return ""
	}
	for k > 0 && s[k-1] == '\\' {
		k--
	}
	return s[k:end]
}

// unicodeQuote reports whether q is a quote written \u0022 or \u0027.
func unicodeQuote(q string) bool { return strings.HasSuffix(q, "0022") || strings.HasSuffix(q, "0027") }

// nameStart is where the name ending at s[end] starts, no earlier than
// floor: a quoted name is up to 64 bytes without quotes or backslashes, a
// bare one is letters, digits and _.-[] not counting an escape before it.
func nameStart(s string, end int, quoted bool, floor int) int {
	k := end
	for k > floor {
		c := s[k-1]
		if quoted {
			if c == '"' || c == '\'' || c == '\\' || c == '\n' || end-k >= 64 {
				break
			}
		} else if !(isWordByte(c) || c == '.' || c == '-' || c == '[' || c == ']') || (k >= 2 && s[k-2] == '\\') {
			break
		}
		k--
	}
	if !quoted && k >= 2 && s[k-2] == '\\' && s[k-1] == 'u' && end-k >= 4 &&
		isHex(s[k]) && isHex(s[k+1]) && isHex(s[k+2]) && isHex(s[k+3]) {
		k += 4 // \u0022name: the hex digits belong to the escape
	}
	return k
}

// openingQuoteAt returns the quote that starts s[v:] (see
// closingQuoteBefore), or "".
func openingQuoteAt(s string, v int) string {
	j := v
	for j < len(s) && s[j] == '\\' {
		j++
	}
	switch {
	case j < len(s) && (s[j] == '"' || s[j] == '\''):
		return s[v : j+1]
	case j > v && (strings.HasPrefix(s[j:], "u0022") || strings.HasPrefix(s[j:], "u0027")):
		return s[v : j+5]
	}
	return ""
}

// closingQuoteAfter is the index of the quote q that closes a value
// starting at s[vs], or the end of its line when it is not closed.
func closingQuoteAfter(s string, vs int, q string) int {
	if q == `"` {
		for i := vs; i < len(s); i++ {
			switch s[i] {
			case '\\':
				i++
			case '"':
				return i
			case '\n':
				return i
			}
		}
		return len(s)
	}
	if n := strings.Index(s[vs:], q); n >= 0 {
		if nl := strings.IndexByte(s[vs:vs+n], '\n'); nl >= 0 {
			return vs + nl
		}
		return vs + n
	}
	return lineEnd(s, vs, false)
}

// lineEnd is the end of the line starting at s[v]: a newline, or a
// newline or quote escaped in encoded text (and a plain quote when
// stopAtQuote).
func lineEnd(s string, v int, stopAtQuote bool) int {
	for i := v; i < len(s); i++ {
		switch c := s[i]; {
		case c == '\n' || c == '\r' || (stopAtQuote && c == '"'):
			return i
		case c == '\\':
			if n := escapeAt(s, i); n > 0 && strings.IndexByte("nr\"", s[i+n-1]) >= 0 {
				return i
			}
		}
	}
	return len(s)
}

// bareEnd is the end of an unquoted value starting at s[v]: white space,
// & " ' < > ; , or an escape sequence end it, and after a colon also a
// closing bracket.
func bareEnd(s string, v int, colon bool) int {
	if strings.HasPrefix(s[v:], Redacted) { // already hidden, by an earlier pass
		return v + len(Redacted)
	}
	for i := v; i < len(s); i++ {
		switch s[i] {
		case ' ', '\t', '\n', '\r', '&', '"', '\'', '<', '>', ';', ',':
			return i
		case '}', ']', ')':
			if colon {
				return i
			}
		case '\\':
			if escapeAt(s, i) > 0 {
				return i
			}
		}
	}
	return len(s)
}

// schemeAt returns the length of the authorization scheme word (bearer,
// basic, token, digest, any case) at s[i:], or 0.
func schemeAt(s string, i int) int {
	for _, w := range []string{"bearer", "basic", "token", "digest"} {
		if hasFold(s[i:], w) {
			return len(w)
		}
	}
	return 0
}

// usageCount reports whether value is a count under a usage name
// ("input_tokens": "12", llm.token_count.prompt=7): numbers are no
// secret, and usage names are the only sensitive-looking names that
// routinely hold them.
func usageCount(name, value string) bool { return isNumber(value) && usageName(name) }

// usageName reports whether name is a usage name whose numbers
// usageCount lets through.
func usageName(name string) bool {
	n := normalize(name)
	if !strings.Contains(n, "token") {
		return false
	}
	for _, p := range []string{"authorization", "authentication", "cookie", "secret", "password", "passwd", "credential", "apikey", "session", "jwt", "bearer", "privatekey", "signature"} {
		if strings.Contains(n, p) {
			return false
		}
	}
	return strings.Contains(n, "tokens") || strings.Contains(n, "count") || strings.Contains(n, "usage")
}

// isNumber reports whether s is a decimal number (digits, at most one
// point, an optional leading minus).
func isNumber(s string) bool {
	s = strings.TrimPrefix(s, "-")
	digits, point := 0, false
	for i := 0; i < len(s); i++ {
		switch c := s[i]; {
		case c >= '0' && c <= '9':
			digits++
		case c == '.' && !point:
			point = true
		default:
			return false
		}
	}
	return digits > 0 && digits <= 20
}
