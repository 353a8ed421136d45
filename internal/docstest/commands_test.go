package docstest

import "testing"

func TestTypedCommand(t *testing.T) {
	for _, tc := range []struct {
		lang, body, want string
	}{
		{"text", "evalrun run suite.json\n", "evalrun run suite.json"},
		{"text", "  OPENAI_API_KEY=x evalrun run s.json --judge-base-url u\n", "OPENAI_API_KEY=x evalrun run s.json --judge-base-url u"},
		{"text", "go run ./examples/scriptedjudge &\n", "go run ./examples/scriptedjudge &"},
		{"text", "$ evalrun db:import a.json\nevalrun: db:import: a.json: refused\n", ""},
		{"text", "Passing questions: 3 of 3\n", ""},
		{"text", "evalrun: --metadata: too deep\n", ""},
		{"ruby", "evalrun run suite.json\n", ""},
	} {
		if got := typedCommand(Block{Lang: tc.lang, Body: tc.body}); got != tc.want {
			t.Errorf("typedCommand(%s %q) = %q, want %q", tc.lang, tc.body, got, tc.want)
		}
	}
}
