package replay

import (
	"bytes"
	"encoding/json"
	"net/url"
	"sort"
	"strings"
	"unicode"

	"github.com/agentevals-go/agentevals/sanitize"
)

// What a recording keeps is stricter than evidence: a recorded suite is a
// file that gets committed, so a name that only might hold a credential
// (session, pin, access, auth_code, a bare key) is treated as one, a JSON
// key shaped like a credential is renamed, and a URL path segment shaped
// like one refuses the recording. Redaction keeps each value's JSON type
// so that a replay answers the agent with the same shapes it saw: a string
// becomes "[REDACTED]", a number 0; booleans and null carry no secret and
// stay; objects and arrays under a sensitive name are redacted throughout.

// recordWords are whole names, or the last word of a name, that a
// recording treats as credentials on top of sanitize.SensitiveName.
var recordWords = map[string]bool{"session": true, "pin": true, "otp": true, "passcode": true, "key": true}

// recordWholeNames are normalized names that are credentials only alone
// ("access", not "access_level").
var recordWholeNames = map[string]bool{"access": true, "authcode": true, "sid": true}

// recordSensitiveName reports whether a recording hides what is under name.
func recordSensitiveName(name string) bool {
	if sanitize.SensitiveName(name) {
		return true
	}
	words := nameWords(name)
	if len(words) == 0 {
		return false
	}
	if recordWholeNames[strings.Join(words, "")] || recordWords[words[len(words)-1]] {
		return true
	}
	for i := 0; i+1 < len(words); i++ {
		if words[i] == "auth" && words[i+1] == "code" {
			return true
		}
	}
	return false
}

// nameWords splits a field name into lower-case words at separators and
// camelCase boundaries ("userPin" -> user, pin; "auth_code" -> auth, code).
func nameWords(name string) []string {
	var words []string
	var cur []rune
	flush := func() {
		if len(cur) > 0 {
			words = append(words, strings.ToLower(string(cur)))
			cur = cur[:0]
		}
	}
	prevLower := false
	for _, r := range name {
		switch {
		case !unicode.IsLetter(r) && !unicode.IsDigit(r):
			flush()
			prevLower = false
			continue
		case unicode.IsUpper(r) && prevLower:
			flush()
		}
		cur = append(cur, r)
		prevLower = unicode.IsLower(r)
	}
	flush()
	return words
}

// recordSecretValue reports whether a string would lose anything to
// redaction as a whole value or as free text.
func recordSecretValue(s string) bool {
	return sanitize.SecretValue(s) || sanitize.String(s) != s
}

// recordRedact redacts decoded JSON for a recording, keeping types;
// hidden says whether anything was under a sensitive name.
func recordRedact(v any, hidden bool) any {
	switch t := v.(type) {
	case map[string]any:
		out := make(map[string]any, len(t))
		keys := make([]string, 0, len(t))
		for k := range t {
			keys = append(keys, k)
		}
		sort.Strings(keys)
		for _, k := range keys {
			name := k
			if recordSecretValue(k) {
				name = uniqueKey(out, Redacted)
			}
			out[name] = recordRedact(t[k], hidden || recordSensitiveName(k))
		}
		return out
	case []any:
		out := make([]any, len(t))
		for i, x := range t {
			out[i] = recordRedact(x, hidden)
		}
		return out
	case string:
		if t == "" || t == Redacted {
			return t
		}
		if hidden || sanitize.SecretValue(t) {
			return Redacted
		}
		s, _ := sanitize.Text(t)
		return s
	case json.Number:
		if hidden {
			return json.Number("0")
		}
		return t
	default: // booleans and null
		return v
	}
}

// uniqueKey is base, or base#2, base#3 … when out already has it.
func uniqueKey(out map[string]any, base string) string {
	k := base
	for n := 2; ; n++ {
		if _, taken := out[k]; !taken {
			return k
		}
		k = base + "#" + itoa(n)
	}
}

func itoa(n int) string {
	var b []byte
	for ; n > 0; n /= 10 {
		b = append([]byte{byte('0' + n%10)}, b...)
	}
	return string(b)
}

// recordRedactedJSON is raw (valid JSON) redacted for a recording, and
// whether that changed its value.
func recordRedactedJSON(raw []byte) ([]byte, bool) {
	v := decodeJSON(raw)
	plain, perr := json.Marshal(v)
	red, err := json.Marshal(recordRedact(v, false))
	if err != nil || perr != nil {
		return []byte(`"` + Redacted + `"`), true
	}
	return red, !bytes.Equal(plain, red)
}

// ShownURL is r's URL with credential-shaped path segments redacted, for
// messages.
func (r Recorded) ShownURL() string {
	parts := strings.Split(r.URL, "/")
	for i, p := range parts {
		if i > 2 && p != "" && recordSecretValue(p) {
			parts[i] = Redacted
		}
	}
	return sanitize.String(strings.Join(parts, "/"))
}

// SensitivePath lists the segments of r's URL path that look like
// credentials (redacted, for the message): replay matches paths exactly,
// so a fixture would have to store them.
func (r Recorded) SensitivePath() []string {
	u, err := url.Parse(r.URL)
	if err != nil {
		return []string{Redacted}
	}
	var out []string
	for _, seg := range strings.Split(u.EscapedPath(), "/") {
		plain, err := url.PathUnescape(seg)
		if err != nil {
			plain = seg
		}
		if plain != "" && recordSecretValue(plain) {
			out = append(out, sanitize.String(plain))
		}
	}
	return out
}
