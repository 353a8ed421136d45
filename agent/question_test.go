package agent

import (
	"encoding/json"
	"testing"
)

// TestQuestion_Text reads a plain-string question without json.Unmarshal,
// and keeps an object question's JSON.
func TestQuestion_Text(t *testing.T) {
	tests := []struct {
		raw  string
		text string
		ok   bool
	}{
		{`"What is the capital of Japan?"`, "What is the capital of Japan?", true},
		{` "tab\tand \u00e9" `, "tab\tand é", true},
		{`""`, "", true},
		{`{"city": "Tokyo"}`, `{"city": "Tokyo"}`, false},
		{`42`, `42`, false},
		{``, ``, false},
		{`"unterminated`, `"unterminated`, false},
	}
	for _, tt := range tests {
		q := Question{ID: "q", Question: json.RawMessage(tt.raw)}
		text, ok := q.Text()
		if text != tt.text || ok != tt.ok {
			t.Errorf("Question(%s).Text() = %q, %v; want %q, %v", tt.raw, text, ok, tt.text, tt.ok)
		}
		if string(q.Question) != tt.raw {
			t.Errorf("Text changed the raw question to %s", q.Question)
		}
	}
}
