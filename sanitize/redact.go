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
	n := strings.NewReplacer("-", "", "_", "", ".", "", " ", "").Replace(strings.ToLower(name))
	for _, p := range secretNameParts {
		if strings.Contains(n, p) {
			return true
		}
	}
	// a bare "key" is usually an answer or a lookup key, not a credential
	return strings.HasSuffix(n, "auth") || (strings.HasSuffix(n, "key") && n != "key") || n == "sig" || n == "pwd"
}

// secretWhole matches a whole value that is a credential whatever its name.
var secretWhole = regexp.MustCompile(`(?i)^(bearer|basic|token|digest)\s+\S|^(sk|pk|rk)[-_][a-z0-9_-]{8,}|^(ghp|gho|ghs|ghu|ghr|github_pat|xox[abprs]|glpat)[-_]|^(npm|hf)_[a-z0-9]{20,}$|-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----|^AKIA[0-9A-Z]{12}|^AIza[0-9A-Za-z_-]{20}|^eyJ[a-zA-Z0-9_-]+\.[a-zA-Z0-9_-]+\.`)

// keyShape finds well-known key shapes inside free text.
var keyShape = regexp.MustCompile(`\b((sk|pk|rk)[-_][A-Za-z0-9_-]{8,}|(ghp|gho|ghs|ghu|ghr)_[A-Za-z0-9]{8,}|github_pat_[A-Za-z0-9_]{8,}|xox[abprs]-[A-Za-z0-9-]{8,}|glpat-[A-Za-z0-9_-]{8,}|npm_[A-Za-z0-9]{20,}|hf_[A-Za-z0-9]{20,}|AKIA[0-9A-Z]{12,}|AIza[0-9A-Za-z_-]{20,}|eyJ[a-zA-Z0-9_-]+\.[a-zA-Z0-9_-]+\.[a-zA-Z0-9_-]*)`)

// SecretValue reports whether v as a whole looks like a credential.
func SecretValue(v string) bool { return secretWhole.MatchString(v) }

// Field redacts value when its name is sensitive or it looks like a
// credential itself; header maps, query parameters and form fields use it.
func Field(name, value string) string {
	if SensitiveName(name) || SecretValue(value) {
		return Redacted
	}
	return RedactText(value)
}

var (
	// credentialPair finds name=value pairs (query strings, forms, logs,
	// "aws_secret_access_key = value" in config files); a value that is an
	// authorization scheme takes the word after it along ("NAME=Bearer x").
	credentialPair = regexp.MustCompile(`([A-Za-z0-9_.\-\[\]]+)([ \t]*=[ \t]*)((?i:bearer|basic|token|digest)[ \t]+[^&\s"'<>;,]+|[^&\s"'<>;,]+)`)
	// privateKey finds a PEM private-key block, to its END line or, when
	// it was cut, to the end of the text.
	privateKey = regexp.MustCompile(`(?s)-----BEGIN [A-Z0-9 ]*PRIVATE KEY-----.*?(?:-----END [A-Z0-9 ]*PRIVATE KEY-----|\z)`)
	// headerLine finds "Name: value" where Name is a credential header, to
	// the end of the line.
	headerLine = regexp.MustCompile(`(?im)\b(proxy-authorization|authorization|set-cookie|cookie|x-api-key|api-key|x-auth-token|x-goog-api-key|private-token|x-amz-security-token)(\s*:\s*)([^\r\n]+)`)
	// quotedField finds "name": "value" inside text (JSON quoted in logs).
	quotedField = regexp.MustCompile(`"([^"\\]{1,64})"(\s*:\s*)"((?:[^"\\]|\\.)*)"`)
	// userinfo finds the user:password@ of URLs in text.
	userinfo = regexp.MustCompile(`(?i)\b([a-z][a-z0-9+.\-]*://)([^/\s:@"'<>]*):([^/\s@"'<>]+)@`)
)

// RedactText hides credentials in free text such as an agent's stderr or
// an error message: credential header lines, sensitive name=value pairs
// and quoted "name": "value" fields, URL passwords, the word after an
// authorization scheme, and words shaped like well-known keys.
func RedactText(s string) string {
	if !mayHoldSecret(s) {
		return s
	}
	if strings.Contains(s, "PRIVATE KEY-----") {
		s = privateKey.ReplaceAllString(s, Redacted)
	}
	s = headerLine.ReplaceAllString(s, "$1$2"+Redacted)
	s = userinfo.ReplaceAllString(s, "$1$2:"+Redacted+"@")
	s = credentialPair.ReplaceAllStringFunc(s, redactPair)
	s = quotedField.ReplaceAllStringFunc(s, func(m string) string {
		sub := quotedField.FindStringSubmatch(m)
		if SensitiveName(sub[1]) && sub[3] != "" && sub[3] != Redacted {
			return `"` + sub[1] + `"` + sub[2] + `"` + Redacted + `"`
		}
		return m
	})
	s = keyShape.ReplaceAllString(s, Redacted)
	return redactSchemes(s)
}

// redactPair redacts one name=value match of credentialPair: the value of
// a sensitive name, and whatever follows an authorization scheme.
func redactPair(m string) string {
	sub := credentialPair.FindStringSubmatch(m)
	name, eq, value := sub[1], sub[2], sub[3]
	if word, rest, ok := strings.Cut(value, " "); ok || strings.Contains(value, "\t") {
		if !ok {
			word, rest, _ = strings.Cut(value, "\t")
		}
		rest = strings.TrimLeft(rest, " \t")
		if rest == Redacted || !(strings.EqualFold(word, "bearer") || SensitiveName(name) || credentialWord(rest)) {
			return m
		}
		return name + eq + word + " " + Redacted
	}
	if SensitiveName(name) && value != Redacted && !tokenCount(name, value) {
		return name + eq + Redacted
	}
	return m
}

// tokenCount: "max_tokens=100" is a count, not a credential.
func tokenCount(name, value string) bool {
	if !strings.HasSuffix(strings.ToLower(name), "tokens") {
		return false
	}
	for _, c := range value {
		if c < '0' || c > '9' {
			return false
		}
	}
	return true
}

// mayHoldSecret is a cheap test that s could match any redaction rule: each
// needs a '=', ':' or '@', or one of a few letter pairs ("sk", "gh", "AK",
// "ey", "xo", "gl", "AI", or an authorization scheme).
func mayHoldSecret(s string) bool {
	if s == "" {
		return false
	}
	if strings.ContainsAny(s, "=:@") {
		return true
	}
	for _, p := range []string{"sk", "pk", "rk", "gh", "AKIA", "AIza", "eyJ", "xox", "glpat", "npm_", "hf_", "PRIVATE", "earer", "asic", "oken", "igest", "EARER", "ASIC", "OKEN", "IGEST"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// redactSchemes replaces the word after Bearer, Basic, Token or Digest
// when it is shaped like a credential (see credentialWord): "Bearer
// abc.123" loses its token, "token counts" and "a bearer token" stay.
func redactSchemes(s string) string {
	lower := strings.ToLower(s)
	if !strings.Contains(lower, "bearer") && !strings.Contains(lower, "basic") &&
		!strings.Contains(lower, "token") && !strings.Contains(lower, "digest") {
		return s
	}
	lines := strings.Split(s, "\n")
	for i, line := range lines {
		words := strings.Split(line, " ")
		for j := 1; j < len(words); j++ {
			if scheme(words[j-1]) && words[j] != Redacted && credentialWord(words[j]) {
				words[j] = Redacted
			}
		}
		lines[i] = strings.Join(words, " ")
	}
	return strings.Join(lines, "\n")
}

// scheme reports whether w is an authorization scheme word, alone or as
// the value of a name ("AUTH=Bearer", "header:Bearer").
func scheme(w string) bool {
	w = strings.Trim(strings.ToLower(w), `"':`)
	if i := strings.LastIndexAny(w, "=:"); i >= 0 {
		w = w[i+1:]
	}
	return w == "bearer" || w == "basic" || w == "token" || w == "digest"
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
			if Field(n, v) != v {
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
