package sanitize

import (
	"net/url"
	"regexp"
	"strings"
)

// Redacted replaces every credential value.
const Redacted = "[REDACTED]"

// secretNameParts are fragments of header, parameter and field names that
// hold credentials, compared without case, '-', '_', '.' or spaces.
var secretNameParts = []string{
	"authorization", "authentication", "cookie", "token", "secret", "password", "passwd",
	"passphrase", "credential", "signature", "apikey", "sessionid", "jwt", "bearer", "privatekey",
}

// SensitiveName reports whether a header, query parameter or JSON field
// with this name holds credentials (Authorization, api_key, X-Api-Key,
// client_secret, session_token, …).
func SensitiveName(name string) bool {
	n := normalize(name)
	for _, p := range secretNameParts {
		if strings.Contains(n, p) {
			return true
		}
	}
	return strings.HasSuffix(n, "auth") || keyName(name, n) || n == "sig" || n == "pwd"
}

// keyName reports whether name (n normalized) names a key that is a
// credential: "api_key", "X-Api-Key", "signingKey", "secretkey". A bare
// "key" is usually an answer or a lookup key, and "monkey" or "hotkey"
// are words.
func keyName(name, n string) bool {
	if len(n) <= 3 || !strings.HasSuffix(n, "key") {
		return false
	}
	if i := len(name) - 3; i > 0 && strings.EqualFold(name[i:], "key") {
		if c := name[i-1]; c == '-' || c == '_' || c == '.' || c == ' ' || (name[i] == 'K' && c >= 'a' && c <= 'z') {
			return true
		}
	}
	for _, k := range []string{"apikey", "accesskey", "secretkey", "privatekey", "signingkey", "masterkey",
		"licensekey", "encryptionkey", "authkey", "clientkey", "subscriptionkey", "sshkey", "accountkey"} {
		if strings.HasSuffix(n, k) {
			return true
		}
	}
	return false
}

// normalize lower-cases name and drops '-', '_', '.' and spaces.
func normalize(name string) string {
	b := make([]byte, 0, len(name))
	for i := 0; i < len(name); i++ {
		switch c := name[i]; {
		case c == '-' || c == '_' || c == '.' || c == ' ':
		case c >= 'A' && c <= 'Z':
			b = append(b, c+'a'-'A')
		default:
			b = append(b, c)
		}
	}
	return string(b)
}

// SecretValue reports whether v as a whole looks like a credential: an
// authorization scheme and its token, a well-known key shape at its
// start, or a PEM private key anywhere (letter case ignored, as header
// values are written in any case).
func SecretValue(v string) bool {
	if len(v) < 3 {
		return false
	}
	if n := schemeAt(v, 0); n > 0 {
		rest := v[n:]
		blanks := len(rest) - len(strings.TrimLeft(rest, " \t\n\r\v\f"))
		return blanks > 0 && blanks < len(rest)
	}
	if strings.Contains(v, "-----BEGIN ") && strings.Contains(v, "PRIVATE KEY-----") && privateKeyHeader.MatchString(v) {
		return true
	}
	lower := strings.ToLower(v[:min(len(v), 12)])
	switch {
	case len(v) > 3 && (lower[0] == 's' || lower[0] == 'p' || lower[0] == 'r') && lower[1] == 'k' && (v[2] == '-' || v[2] == '_'):
		return spanFold(v[3:]) >= 8
	case strings.HasPrefix(lower, "github_pat"), strings.HasPrefix(lower, "glpat") && len(v) > 5 && (v[5] == '-' || v[5] == '_'):
		return true
	case len(v) > 3 && strings.HasPrefix(lower, "gh") && strings.IndexByte("posur", lower[2]) >= 0 && (v[3] == '-' || v[3] == '_'):
		return true
	case len(v) > 4 && strings.HasPrefix(lower, "xox") && strings.IndexByte("abprs", lower[3]) >= 0 && (v[4] == '-' || v[4] == '_'):
		return true
	case strings.HasPrefix(lower, "npm_"):
		return len(v) >= 24 && span(v[4:], alnum) == len(v)-4
	case strings.HasPrefix(lower, "hf_"):
		return len(v) >= 23 && span(v[3:], alnum) == len(v)-3
	case strings.HasPrefix(lower, "akia"):
		return len(v) >= 16 && span(strings.ToUpper(v[4:16]), upperDigit) == 12
	case strings.HasPrefix(lower, "aiza"):
		return len(v) >= 24 && span(v[4:], alnumBoth) >= 20
	case strings.HasPrefix(lower, "eyj"):
		return jwtEnd("eyJ"+v[3:], 0) > 0
	}
	return false
}

// spanFold counts the leading bytes of s that are letters, digits, '_'
// or '-'.
func spanFold(s string) int { return span(s, alnumBoth) }

// privateKeyHeader is the first line of a PEM private key.
var privateKeyHeader = regexp.MustCompile(`-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----`)

// Field redacts value when its name is sensitive (unless it is a usage
// count) or it looks like a credential itself; header maps, query
// parameters and form fields use it.
func Field(name, value string) string {
	if (SensitiveName(name) && !usageCount(name, value)) || SecretValue(value) {
		return Redacted
	}
	return RedactText(value)
}

// privateKey finds a PEM private-key block, to its END line or, when it
// was cut, to the end of the text.
var privateKey = regexp.MustCompile(`(?s)-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\z)`)

// RedactText hides credentials in free text such as an agent's stderr or
// an error message: PEM private keys, URL passwords, credential header
// lines, the values of sensitive names in name=value and name: value
// pairs (bare, quoted or JSON-encoded), words shaped like well-known keys
// and the credential-shaped word after an authorization scheme. One read
// of the text says which of these can apply; text that holds none of
// their markers is returned as it is.
func RedactText(s string) string {
	h := hints(s)
	if h&^hintSep == 0 {
		return s
	}
	if h&hintPEM != 0 {
		s = privateKey.ReplaceAllString(s, Redacted)
	}
	if h&hintURL != 0 && strings.IndexByte(s, '@') >= 0 {
		s = redactUserinfo(s)
	}
	if h&hintSep != 0 && h&(hintName|hintScheme) != 0 {
		s = redactPairs(s)
	}
	if h&hintShape != 0 {
		s = redactShapes(s)
	}
	if h&hintScheme != 0 {
		s = redactSchemes(s)
	}
	return s
}

// credentialWord reports whether w, the word after a scheme, looks like a
// credential rather than prose: once quotes, brackets and sentence
// punctuation around it are gone, it holds a digit or one of -_.=+/~, or
// it is 20 letters or longer. "counts", "token" and "auth" are prose.
func credentialWord(w string) bool {
	w = strings.Trim(w, `"'()[]{}<>`)
	w = strings.TrimRight(w, ".,;:!?")
	w = strings.Trim(w, `"'()[]{}<>`)
	if w == "" {
		return false
	}
	if len(w) >= 20 {
		return true
	}
	return strings.ContainsAny(w, "0123456789-_.=+/~")
}

// queryCredential reports whether a query parameter with this name holds
// a credential although the name alone is not sensitive elsewhere: "key"
// (API keys), "code" (OAuth codes) and a few short forms.
func queryCredential(name string) bool {
	switch strings.ToLower(name) {
	case "key", "code", "sig", "pwd", "pass", "auth":
		return true
	}
	return false
}

// URL hides the password of raw's user information and the values of
// sensitive query parameters; the rest stays readable. Text that does not
// parse as a URL is redacted as free text.
func URL(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return RedactText(raw)
	}
	password := false
	if u.User != nil {
		if _, password = u.User.Password(); password {
			u.User = url.UserPassword(u.User.Username(), "REDACTED")
		}
	}
	if u.RawQuery != "" {
		parts := strings.Split(u.RawQuery, "&")
		for i, part := range parts {
			name, value, _ := strings.Cut(part, "=")
			n, nerr := url.QueryUnescape(name)
			v, verr := url.QueryUnescape(value)
			if nerr != nil || verr != nil {
				n, v = name, value
			}
			if Field(n, v) != v || (v != "" && queryCredential(n)) {
				parts[i] = name + "=" + Redacted
			}
		}
		u.RawQuery = strings.Join(parts, "&")
	}
	if password { // the same marker as everywhere else, unescaped
		return strings.Replace(u.String(), ":REDACTED@", ":"+Redacted+"@", 1)
	}
	return u.String()
}
