package sanitize_test

import (
	"testing"

	"github.com/agentevals-go/agentevals/sanitize"
)

// FuzzText_Idempotent: whatever the text, the credential and PII passes
// neither panic nor change their own output on a second pass, and JSON
// agrees with itself on the document it returns.
func FuzzText_Idempotent(f *testing.F) {
	for _, s := range []string{
		`password: hunter2`, `\nsk-abcdefghijklmnop`, `{\"api_key\": \"x\"}`, `\\u0022secret\\u0022: \\u0022v\\u0022`,
		`Authorization: Bearer abc`, `https://bob:pw@h/x?key=1`, `"token": "`, `a=`, `:`, `\`, `\u00`, `"x":'`,
		`-----BEGIN RSA PRIVATE KEY-----`, `eyJ.`, `eyJa.b.`, `+49 151 23456789`, `DE89 3704 0044 0532 0130 00`,
		`4111 1111 1111 1111`, `jane@example.com`, `2001:db8::1`, `10.0.0.7:`, `(555) 123-4567`, `@.`, `a@b.`,
	} {
		f.Add(s)
	}
	pii := sanitize.Policy{PII: true}
	f.Fuzz(func(t *testing.T, s string) {
		for _, p := range []sanitize.Policy{{}, pii} {
			once := p.String(s)
			if twice := p.String(once); twice != once {
				t.Fatalf("%+v: second pass changed %q to %q (from %q)", p, once, twice, s)
			}
		}
		doc := []byte(`{"k":"` + s + `","password":"` + s + `"}`)
		out, _ := sanitize.JSON(doc)
		if again, rep := sanitize.JSON(out); rep.Changed() || string(again) != string(out) {
			t.Fatalf("JSON second pass changed %s to %s", out, again)
		}
	})
}
