package sanitize_test

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/sanitize"
)

// shapeCase is one input of a shape table and what String makes of it.
type shapeCase struct{ in, want string }

// checkShapes runs a table of cases through pass (String when nil),
// each also through a second pass (which must change nothing).
func checkShapes(t *testing.T, cases []shapeCase, pass ...func(string) string) {
	t.Helper()
	fn := sanitize.String
	if len(pass) > 0 {
		fn = pass[0]
	}
	for _, tc := range cases {
		got := fn(tc.in)
		if got != tc.want {
			t.Errorf("%q\n got %q\nwant %q", tc.in, got, tc.want)
		}
		if again := fn(got); again != got {
			t.Errorf("second pass changed %q to %q", got, again)
		}
	}
}

// The key shapes each behind every escape sequence encoded text puts
// before a word: a literal \n, \t, \r, \", \/ and \u0022.
func TestText_KeyAfterEscape(t *testing.T) {
	keys := []string{"sk-abcdefghijklmnop", "ghp_ABCDEFGHIJKLMNOP", "AKIAABCDEFGHIJKLMNOP",
		"eyJhbGciOiJIUzI1NiJ9.eyJzdWIiOiIxIn0.c2lnbmF0dXJl", "github_pat_ABCDEFGH12", "xoxb-1234567890-abcdef",
		"glpat-abcdefghij", "npm_abcdefghijklmnopqrstuvwxyz0123", "hf_abcdefghijklmnopqrstuvwxyz", "AIzaSyA1234567890abcdefghijkl"}
	for _, key := range keys {
		for _, esc := range []string{`\n`, `\t`, `\r`, `\"`, `\/`, `\u0022`, `\u003c`} {
			in := "reply:" + esc + key + esc + "end"
			want := "reply:" + esc + sanitize.Redacted + esc + "end"
			checkShapes(t, []shapeCase{{in, want}})
		}
	}
}

func TestText_Encoded(t *testing.T) {
	for _, shape := range []struct {
		name  string
		cases []shapeCase
	}{
		{"scheme after an escape", []shapeCase{
			{`line one\nBearer abc123def456\nline three`, `line one\nBearer [REDACTED]\nline three`},
			{`"msg":"\tBearer abc.def.ghi"`, `"msg":"\tBearer [REDACTED]"`},
			{`msg \"Bearer abc123\" sent`, `msg \"Bearer [REDACTED]\" sent`},
			{`\u0022Token 0123abcd\u0022`, `\u0022Token [REDACTED]\u0022`},
		}},
		{"JSON encoded inside a string", []shapeCase{
			{`{\"api_key\": \"abc\", \"n\": \"1\"}`, `{\"api_key\": \"[REDACTED]\", \"n\": \"1\"}`},
			{`{\"password\":\"hunter2\"}`, `{\"password\":\"[REDACTED]\"}`},
			{`{\u0022client_secret\u0022: \u0022xyz\u0022}`, `{\u0022client_secret\u0022: \u0022[REDACTED]\u0022}`},
			{`"{\"db\":{\"password\":\"p@ss w0rd\"}}"`, `"{\"db\":{\"password\":\"[REDACTED]\"}}"`},
			{`line\npassword=hunter2\nnext`, `line\npassword=[REDACTED]\nnext`},
			{`header\nAuthorization: Bearer abc\nnext`, `header\nAuthorization: [REDACTED]\nnext`},
		}},
		{"encoded twice", []shapeCase{
			{`reason: \"see\\nsk-abcdefghijklmnop\"`, `reason: \"see\\n[REDACTED]\"`},
			{`{\\\"client_secret\\\": \\\"v1x\\\"}`, `{\\\"client_secret\\\": \\\"[REDACTED]\\\"}`},
			{`got \\nBearer tok123 and \\tghp_ABCDEFGHIJKLMNOP`, `got \\nBearer [REDACTED] and \\t[REDACTED]`},
			{`\\u0022password\\u0022: \\u0022hunter2\\u0022`, `\\u0022password\\u0022: \\u0022[REDACTED]\\u0022`},
		}},
		{"quoted text", []shapeCase{
			{`'api_key': 'abc123'`, `'api_key': '[REDACTED]'`},
			{`he typed "sk-abcdefghijkl" there`, `he typed "[REDACTED]" there`},
			{`config: {'secret': "two words"}`, `config: {'secret': "[REDACTED]"}`},
		}},
		{"over-redaction stays whole", []shapeCase{
			{`path C:\new\task-sketch`, `path C:\new\task-sketch`},
			{`\nkey=value\nmonkey: banana`, `\nkey=value\nmonkey: banana`},
			{`a\tdisk-usage-report`, `a\tdisk-usage-report`},
			{`{\"max_tokens\": 100, \"input_tokens\": \"12\"}`, `{\"max_tokens\": 100, \"input_tokens\": \"12\"}`},
			{`the \"token\" field counts words`, `the \"token\" field counts words`},
			{`"eyJ" is how a JWT begins`, `"eyJ" is how a JWT begins`},
			{`sketch-pad sk-short`, `sketch-pad sk-short`},
		}},
	} {
		t.Run(shape.name, func(t *testing.T) { checkShapes(t, shape.cases) })
	}
}

// TestText_NameColonValue: every sensitive name the name=value form
// covers is covered in the name: value form too, bare and quoted.
func TestText_NameColonValue(t *testing.T) {
	for _, name := range []string{"password", "api_key", "secret", "db_password", "client_secret", "access_token",
		"API-KEY", "passwd", "private_key", "session_id", "x-api-key", "Authorization", "refresh_token", "aws_secret_access_key"} {
		word, quoted := name+":[REDACTED] and more", "  "+name+":   '[REDACTED]'"
		if header := strings.HasSuffix(strings.ToLower(name), "api-key") || name == "Authorization"; header {
			word, quoted = name+":[REDACTED]", "  "+name+":   [REDACTED]" // a header's value is the rest of its line
		}
		checkShapes(t, []shapeCase{
			{name + ": hunter2", name + ": [REDACTED]"},
			{name + ":hunter2 and more", word},
			{"  " + name + ":   'hunter 2'", quoted},
			{`"` + name + `": "hunter2"`, `"` + name + `": "[REDACTED]"`},
			{`'` + name + `': hunter2,`, `'` + name + `': [REDACTED],`},
			{name + "=hunter2", name + "=[REDACTED]"},
		})
	}
	checkShapes(t, []shapeCase{
		{"password: hunter2\nuser: bob", "password: [REDACTED]\nuser: bob"},
		{"{password: hunter2}", "{password: [REDACTED]}"},
		{`"password": null, "secret": true`, `"password": null, "secret": true`},
		{`"secret": {"nested": 1}`, `"secret": {"nested": 1}`},
		{"password:\nnext line", "password:\nnext line"},
		{"user: bob, region: eu-west-1, time 12:30", "user: bob, region: eu-west-1, time 12:30"},
		{"keyboard: yes; key: the answer", "keyboard: yes; key: the answer"},
		{"monkey: banana, turkey=roasted, hotkey: F1", "monkey: banana, turkey=roasted, hotkey: F1"},
		{"apiKey: abc, signingKey=abc, secretkey: abc", "apiKey: [REDACTED], signingKey=[REDACTED], secretkey: [REDACTED]"},
		{"cookie: sid=1; theme=dark", "cookie: [REDACTED]"},
		{"X-Api-Key: k-123", "X-Api-Key: [REDACTED]"},
	})
}

// TestText_UsageCounts: numeric usage attributes are counts, never
// credentials; the same names holding a credential-shaped value are
// still redacted.
func TestText_UsageCounts(t *testing.T) {
	checkShapes(t, []shapeCase{
		{"gen_ai.usage.input_tokens: 812", "gen_ai.usage.input_tokens: 812"},
		{"gen_ai.usage.output_tokens=40", "gen_ai.usage.output_tokens=40"},
		{`"gen_ai.usage.cache_read.input_tokens": "512"`, `"gen_ai.usage.cache_read.input_tokens": "512"`},
		{"llm.token_count.prompt=7 llm.token_count.total: 9.0", "llm.token_count.prompt=7 llm.token_count.total: 9.0"},
		{"usage.total_tokens: 12", "usage.total_tokens: 12"},
		{"gen_ai.usage.input_tokens: sk-abcdefghijklmnop", "gen_ai.usage.input_tokens: [REDACTED]"},
		{"input_tokens=abc123", "input_tokens=[REDACTED]"},
		{"access_token=123456", "access_token=[REDACTED]"},
		{"token: 123456", "token: [REDACTED]"},
		{"session_token_count=12", "session_token_count=[REDACTED]"},
	})
	for _, tc := range []struct{ in, want string }{
		{`{"gen_ai.usage.input_tokens":"812","gen_ai.usage.output_tokens":"40","llm.token_count.completion":"3","gen_ai.usage.cache_read.input_tokens":"0"}`, ""},
		{`{"gen_ai.usage.input_tokens":812,"max_tokens":100}`, ""},
		{`{"gen_ai.usage.input_tokens":"Bearer abc"}`, `{"gen_ai.usage.input_tokens":"[REDACTED]"}`},
		{`{"llm.token_count.prompt":"sk-abcdefghijklmnop"}`, `{"llm.token_count.prompt":"[REDACTED]"}`},
		{`{"access_token":"12345678"}`, `{"access_token":"[REDACTED]"}`},
	} {
		got, rep := sanitize.JSON([]byte(tc.in))
		want := tc.want
		if want == "" {
			want = tc.in
		}
		if string(got) != want || rep.Redacted != (tc.want != "") {
			t.Errorf("JSON(%s) = %s %+v, want %s", tc.in, got, rep, want)
		}
	}
}

// TestJSON_FastPathAgrees: the shortcut that skips decoding agrees with
// decoding on documents that are and are not changed.
func TestJSON_FastPathAgrees(t *testing.T) {
	for _, doc := range []string{
		`{"a":"plain","b":["x","y"],"c":{"d":1.5e3}}`,
		`{"m":"line\nBearer abc123"}`,
		`{"m":"\u0073k-abcdefghijklmnop"}`,
		`{"u":"https:\/\/bob:pw@h.example\/"}`,
		`{"x":"SK-ABCDEFGHIJKLMNOP"}`,
		`{"password":"p","n":"1"}`,
		`{"Password" : "p"}`,
		`["token abc", "ok"]`,
		`{"key":"value","monkey":"key=1"}`,
	} {
		got, _ := sanitize.JSON([]byte(doc))
		v, _ := sanitize.Value(mustDecode(t, doc))
		want := mustEncode(t, v)
		if strings.TrimSpace(string(got)) != want && string(got) != doc {
			t.Errorf("JSON(%s) = %s, Value gives %s", doc, got, want)
		}
		if string(got) == doc && want != mustEncode(t, mustDecode(t, doc)) {
			t.Errorf("JSON(%s) kept the document, Value changes it to %s", doc, want)
		}
	}
}

func mustDecode(t *testing.T, doc string) any {
	t.Helper()
	var v any
	if err := json.Unmarshal([]byte(doc), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func mustEncode(t *testing.T, v any) string {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return string(b)
}
