package sanitize_test

import (
	"encoding/json"
	"testing"
	"unicode/utf8"

	"github.com/agentevals-go/agentevals/sanitize"
)

// cleanCases are strings and member names JSON may change or keep.
var cleanCases = []struct{ key, value string }{
	{"name", "chat gpt-4o-mini"},
	{"gen_ai.output.messages", `[{"role": "assistant", "parts": [{"type": "text", "content": "Order 42 ships."}]}]`},
	{"gen_ai.usage.input_tokens", "707"},
	{"gen_ai.usage.input_tokens", "seven"},
	{"llm.token_count.prompt", "12"},
	{"session_token", "12"},
	{"api_key", "abc"},
	{"api_key", ""},
	{"api_key", sanitize.Redacted},
	{"password", "hunter2"},
	{"Authorization", "Bearer abcdefghijklmnop"},
	{"note", "Bearer abcdefghijklmnop"},
	{"note", "sk-abcdefghijklmnop1234"},
	{"note", "the key is sk-abcdefghijklmnop1234 ok"},
	{"note", "call with api_key=xyz123 please"},
	{"url", "https://user:pa55word@example.com/x"},
	{"url", "https://example.com/x?a=1"},
	{"pem", "-----BEGIN RSA PRIVATE KEY-----\nMIIEow\n-----END RSA PRIVATE KEY-----"},
	{"note", "mail jane.doe@example.com or call +1 415 555 0100"},
	{"note", "token counts: 12"},
	{"note", "ghp_abcdefghijklmnopqrstuvwxyz0123456789"},
	{"note", "eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.abc"},
	{"note", "a\x00b"},
	{"note", "<b>&amp;</b> \u2028 line"},
	{"key\x00", "x"},
	{"api\xffkey", "x"},
}

// TestCleanMember_agreesWithJSON holds CleanMember to JSON: a member it
// calls clean is one JSON leaves as it is, and (for valid UTF-8, which
// encoding/json writes as it is) the other way round, under both policies.
func TestCleanMember_agreesWithJSON(t *testing.T) {
	for _, p := range []sanitize.Policy{{}, {PII: true}} {
		for _, tt := range cleanCases {
			doc, err := json.Marshal(map[string]string{tt.key: tt.value})
			if err != nil {
				t.Fatal(err)
			}
			_, rep := p.JSON(doc)
			clean := p.CleanMember(sanitize.NewKey(tt.key), tt.value)
			if clean && rep.Changed() {
				t.Errorf("PII %v: CleanMember(%q, %q) = true, but JSON changes %s (%+v)", p.PII, tt.key, tt.value, doc, rep)
			}
			if !clean && !rep.Changed() && utf8.ValidString(tt.key+tt.value) {
				t.Errorf("PII %v: CleanMember(%q, %q) = false, but JSON keeps %s", p.PII, tt.key, tt.value, doc)
			}
			list, _ := json.Marshal([]string{tt.value})
			_, rep = p.JSON(list)
			if clean := p.CleanString(tt.value); clean && rep.Changed() || !clean && !rep.Changed() && utf8.ValidString(tt.value) {
				t.Errorf("PII %v: CleanString(%q) = %v, JSON's report on %s: %+v", p.PII, tt.value, clean, list, rep)
			}
		}
	}
}
