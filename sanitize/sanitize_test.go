package sanitize_test

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/sanitize"
)

func TestText(t *testing.T) {
	for _, tc := range []struct {
		name, in, want     string
		repaired, redacted bool
	}{
		{"clean", "nothing secret here", "nothing secret here", false, false},
		{"nul", "a\x00b", "a\uFFFDb", true, false},
		{"invalid utf8", "a\xffb", "a\uFFFDb", true, false},
		{"utf8 surrogate", "a\xed\xa0\x80b", "a\uFFFDb", true, false},
		{"query", `Get "https://a.example/x?api_key=s3cr3t&id=1": refused`, `Get "https://a.example/x?api_key=[REDACTED]&id=1": refused`, false, true},
		{"bearer header", "Authorization: Bearer abc123\nnext", "Authorization: [REDACTED]\nnext", false, true},
		{"cookie header", "cookie: sid=1; theme=dark", "cookie: [REDACTED]", false, true},
		{"x-api-key header", "X-Api-Key: k-123", "X-Api-Key: [REDACTED]", false, true},
		{"bearer word", "sent bearer abc.def", "sent bearer [REDACTED]", false, true},
		{"openai key", "token sk-abcdefghijkl leaked", "token [REDACTED] leaked", false, true},
		{"quoted key", `key "sk-abcdefghijkl"`, `key "[REDACTED]"`, false, true},
		{"github", "use ghp_ABCDEFGHIJKLMNOP now", "use [REDACTED] now", false, true},
		{"slack", "xoxb-1234567890-abcdef", "[REDACTED]", false, true},
		{"aws", "id AKIAABCDEFGHIJKLMNOP.", "id [REDACTED].", false, true},
		{"pairs", "client_secret=xyz password=hunter2 user=bob", "client_secret=[REDACTED] password=[REDACTED] user=bob", false, true},
		{"userinfo", "dial https://bob:hunter2@db.example/x", "dial https://bob:[REDACTED]@db.example/x", false, true},
		{"json in text", `body {"api_key": "abc", "n": "1"}`, `body {"api_key": "[REDACTED]", "n": "1"}`, false, true},
		{"token counts stay", "input_tokens=12", "input_tokens=12", false, false},
		{"words near secrets stay", "a risk-assessment-tool task", "a risk-assessment-tool task", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, rep := sanitize.Text(tc.in)
			if got != tc.want {
				t.Errorf("Text(%q) = %q, want %q", tc.in, got, tc.want)
			}
			if rep.Repaired != tc.repaired || rep.Redacted != tc.redacted {
				t.Errorf("Text(%q) report = %+v, want repaired %v redacted %v", tc.in, rep, tc.repaired, tc.redacted)
			}
		})
	}
}

func TestURL(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{"http://bob:hunter2@agent.example:8080/ask?api_key=abc&lang=en", "http://bob:[REDACTED]@agent.example:8080/ask?api_key=[REDACTED]&lang=en"},
		{"http://agent.example/ask?token=t&key=k&id=7", "http://agent.example/ask?token=[REDACTED]&key=[REDACTED]&id=7"},
		{"https://maps.example/api?key=AIzaSyA123&code=xyz&sig=abc&q=paris", "https://maps.example/api?key=[REDACTED]&code=[REDACTED]&sig=[REDACTED]&q=paris"},
		{"https://x.example/a?gen_ai.usage.input_tokens=12&access_token=9", "https://x.example/a?gen_ai.usage.input_tokens=12&access_token=[REDACTED]"},
		{"https://bob@x.example/", "https://bob@x.example/"},
		{"http://agent.example/ask", "http://agent.example/ask"},
		{"https://x.example/?q=sk-abcdefghijkl", "https://x.example/?q=[REDACTED]"},
	} {
		if got := sanitize.URL(tc.in); got != tc.want {
			t.Errorf("URL(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}

func TestJSON(t *testing.T) {
	for _, tc := range []struct {
		name, in, want     string
		repaired, redacted bool
	}{
		{"untouched keeps bytes", `{"b": 1,  "a": "x<y"}`, `{"b": 1,  "a": "x<y"}`, false, false},
		{"lone high surrogate", `{"output":"ok\ud800"}`, `{"output":"ok` + "\uFFFD" + `"}`, true, false},
		{"lone low surrogate", `"\uDC00x"`, `"` + "\uFFFD" + `x"`, true, false},
		{"valid pair kept", `"\ud83d\ude00"`, `"\ud83d\ude00"`, false, false},
		{"escaped backslash is not an escape", `"\\ud800"`, `"\\ud800"`, false, false},
		{"nul escape", `{"k\u0000":"a\u0000b"}`, `{"k` + "\uFFFD" + `":"a` + "\uFFFD" + `b"}`, true, false},
		{"invalid utf8 bytes", "\"a\xffb\"", `"a` + "\uFFFD" + `b"`, true, false},
		{"sensitive field", `{"api_key":"abc","max_tokens":100,"note":"token=sk-abcdefghijk"}`, `{"api_key":"[REDACTED]","max_tokens":100,"note":"token=[REDACTED]"}`, false, true},
		{"not json", "half {", `"half {"`, true, false},
		{"text after the value is not json", `{"output":""}0000"`, `"{\"output\":\"\"}0000\""`, true, false},
		{"trailing white space is json", "{\"a\":1} \n", "{\"a\":1} \n", false, false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			got, rep := sanitize.JSON([]byte(tc.in))
			if string(got) != tc.want {
				t.Errorf("JSON(%q) = %s, want %s", tc.in, got, tc.want)
			}
			if rep.Repaired != tc.repaired || rep.Redacted != tc.redacted {
				t.Errorf("JSON(%q) report = %+v, want repaired %v redacted %v", tc.in, rep, tc.repaired, tc.redacted)
			}
		})
	}
	if got, _ := sanitize.JSON(nil); got != nil {
		t.Errorf("JSON(nil) = %q, want nil (SQL NULL stays NULL)", got)
	}
}

func TestValue_DoesNotChangeItsInput(t *testing.T) {
	in := map[string]any{"password": "p", "list": []any{"a\x00"}}
	out, rep := sanitize.Value(in)
	if in["password"] != "p" || in["list"].([]any)[0] != "a\x00" {
		t.Errorf("input changed: %v", in)
	}
	m := out.(map[string]any)
	if m["password"] != sanitize.Redacted || !strings.Contains(m["list"].([]any)[0].(string), "\uFFFD") || !rep.Repaired || !rep.Redacted {
		t.Errorf("Value = %v, %+v", out, rep)
	}
}
