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
var secretWhole = regexp.MustCompile(`(?i)^(bearer|basic|token|digest)\s+\S|^(sk|pk|rk)[-_][a-z0-9_-]{8,}|^(ghp|gho|ghs|ghu|ghr|github_pat|xox[abprs]|glpat)[-_]|^AKIA[0-9A-Z]{12}|^AIza[0-9A-Za-z_-]{20}|^eyJ[a-zA-Z0-9_-]+\.[a-zA-Z0-9_-]+\.`)

// keyShape finds well-known key shapes inside free text.
var keyShape = regexp.MustCompile(`\b((sk|pk|rk)[-_][A-Za-z0-9_-]{8,}|(ghp|gho|ghs|ghu|ghr)_[A-Za-z0-9]{8,}|github_pat_[A-Za-z0-9_]{8,}|xox[abprs]-[A-Za-z0-9-]{8,}|glpat-[A-Za-z0-9_-]{8,}|AKIA[0-9A-Z]{12,}|AIza[0-9A-Za-z_-]{20,}|eyJ[a-zA-Z0-9_-]+\.[a-zA-Z0-9_-]+\.[a-zA-Z0-9_-]*)`)

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
	// credentialPair finds name=value pairs (query strings, forms, logs).
	credentialPair = regexp.MustCompile(`([A-Za-z0-9_.\-\[\]]+)=([^&\s"'<>;,]+)`)
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
	s = headerLine.ReplaceAllString(s, "$1$2"+Redacted)
	s = userinfo.ReplaceAllString(s, "$1$2:"+Redacted+"@")
	s = credentialPair.ReplaceAllStringFunc(s, func(m string) string {
		name, value, _ := strings.Cut(m, "=")
		if SensitiveName(name) && value != Redacted && !tokenCount(name, value) {
			return name + "=" + Redacted
		}
		return m
	})
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
	for _, p := range []string{"sk", "pk", "rk", "gh", "AKIA", "AIza", "eyJ", "xox", "glpat", "earer", "asic", "oken", "igest", "EARER", "ASIC", "OKEN", "IGEST"} {
		if strings.Contains(s, p) {
			return true
		}
	}
	return false
}

// redactSchemes replaces the word after Bearer, Basic, Token or Digest.
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
			if scheme(words[j-1]) && words[j] != "" && words[j] != Redacted {
				words[j] = Redacted
			}
		}
		lines[i] = strings.Join(words, " ")
	}
	return strings.Join(lines, "\n")
}

// scheme reports whether w is an authorization scheme word.
func scheme(w string) bool {
	w = strings.Trim(strings.ToLower(w), `"':`)
	return w == "bearer" || w == "basic" || w == "token" || w == "digest"
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
