package adapter

import (
	"encoding/json"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/sanitize"
)

// FuzzParseReply fuzzes the agent reply parser: it never panics, and an
// accepted reply (after checkResponse's repairs) holds only JSON that
// PostgreSQL jsonb accepts.
func FuzzParseReply(f *testing.F) {
	for _, s := range []string{
		`{"output": "ok"}`, `plain text answer`, `{"output":"ok\ud800","actions":[{"group":"g","name":"n","arguments":{"a":"\u0000"}}]}`,
		`{"output": 1, "input_tokens": 3, "cost": 0.5, "metadata": {"k": [1]}}`, `{"output": "a"} {"output": "b"}`,
		`{"outputs": 1}`, "\xff\xfe", `{"output": ` + strings.Repeat("[", 200) + strings.Repeat("]", 200) + `}`,
	} {
		f.Add([]byte(s), true)
	}
	f.Add([]byte(`{"output": "x"}`), false)
	f.Fuzz(func(t *testing.T, b []byte, plainOK bool) {
		r, err := ParseReply(b, plainOK)
		if plainOK {
			r, err = parseReplyAs(b, "") // a stray line before the object is read too
		}
		if err != nil {
			return
		}
		if err := CheckResponse(&r); err != nil {
			return
		}
		if r.Output != nil && (!json.Valid(r.Output) || sanitize.BadEscape(r.Output) >= 0) {
			t.Fatalf("accepted output %q is not saveable JSON", r.Output)
		}
		for _, a := range r.Actions {
			if a.Arguments != nil && (!json.Valid(a.Arguments) || sanitize.BadEscape(a.Arguments) >= 0) {
				t.Fatalf("accepted arguments %q are not saveable JSON", a.Arguments)
			}
		}
	})
}
