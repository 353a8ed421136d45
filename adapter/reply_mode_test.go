package adapter

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/suite"
)

// TestParseReplyAs reads replies by the suite's agent.reply mode: the
// answer scored and the note kept.
func TestParseReplyAs(t *testing.T) {
	const resp = `{"output": "Kyoto", "actions": [{"group": "g", "name": "n", "arguments": {"city": "Tokyo"}}]}`
	tests := []struct {
		name, mode, reply string
		output            string // the Output JSON; "" when err
		readAs            string // the note's read_as; "" for none
		err               string
	}{
		{"object", "", resp, `"Kyoto"`, "", ""},
		{"text", "", "just text", `"just text"`, "", ""},
		{"debug line before the object", "", "debug: got japan\n" + resp + "\n", `"Kyoto"`, "json", ""},
		{"last line JSON but no Response", "", "debug\n{\"outputs\": 1}", `"debug\n{\"outputs\": 1}"`, "text", ""},
		{"object inside text", "", `answer: {"a": 1} done`, `"answer: {\"a\": 1} done"`, "text", ""},
		{"braces without an object", "", "use {curly} braces", `"use {curly} braces"`, "", ""},
		{"json mode refuses text", suite.ReplyJSON, "debug\n" + resp, "", "", `agent.reply is "json": got text "debug`},
		{"json mode reads the object", suite.ReplyJSON, resp, `"Kyoto"`, "", ""},
		{"text mode keeps JSON as text", suite.ReplyText, `{"output": "x"}`, `"{\"output\": \"x\"}"`, "", ""},
		{"auto mode by name", suite.ReplyAuto, "x\n" + resp, `"Kyoto"`, "json", ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			r, err := parseReplyAs([]byte(tt.reply), tt.mode)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("err = %v, want %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if string(r.Output) != tt.output {
				t.Errorf("output = %s, want %s", r.Output, tt.output)
			}
			note, _ := r.Metadata[replyNoteKey].(map[string]any)
			if got, _ := note["read_as"].(string); got != tt.readAs {
				t.Errorf("read_as = %q, want %q (metadata %v)", got, tt.readAs, r.Metadata)
			}
		})
	}
}
