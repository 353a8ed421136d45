package docstest

import (
	"strings"
	"testing"
)

// TestParse covers the fence and marker grammar.
func TestParse(t *testing.T) {
	tests := []struct {
		name, text string
		want       []Block
		err        string
	}{
		{name: "sh block", text: "x\n```sh\necho hi\n```\n",
			want: []Block{{Line: 2, Lang: "sh", Body: "echo hi\n"}}},
		{name: "tilde fence and info words", text: "~~~go title\npackage x\n~~~\n",
			want: []Block{{Line: 1, Lang: "go", Body: "package x\n"}}},
		{name: "markers", text: "<!-- docstest: exit 1; judge -->\n```sh\nfalse\n```\n<!-- docstest: file a/b.json -->\n```json\n{}\n```\n",
			want: []Block{{Line: 2, Lang: "sh", Body: "false\n", Marker: Marker{Exit: 1, Judge: true}},
				{Line: 6, Lang: "json", Body: "{}\n", Marker: Marker{File: "a/b.json"}}}},
		{name: "longer fence holds a shorter one", text: "````text\n```sh\n```\n````\n",
			want: []Block{{Line: 1, Lang: "text", Body: "```sh\n```\n"}}},
		{name: "skip takes the rest as its reason", text: "<!-- docstest: exit 1; skip it needs a server; and a key -->\n```sh\nx\n```\n",
			want: []Block{{Line: 2, Lang: "sh", Body: "x\n", Marker: Marker{Exit: 1, Skip: "it needs a server; and a key"}}}},
		{name: "skip needs a reason", text: "<!-- docstest: skip -->\n```sh\nx\n```\n", err: "skip needs a reason"},
		{name: "unknown directive", text: "<!-- docstest: maybe -->\n```sh\nx\n```\n", err: `unknown directive "maybe"`},
		{name: "file outside the copy", text: "<!-- docstest: file ../x -->\n```sh\nx\n```\n", err: "relative path inside"},
		{name: "no language", text: "```\nx\n```\n", err: "without a language"},
		{name: "unclosed", text: "```sh\nx\n", err: "never closed"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got, err := Parse("doc.md", tt.text)
			if tt.err != "" {
				if err == nil || !strings.Contains(err.Error(), tt.err) {
					t.Fatalf("error %v, want one containing %q", err, tt.err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if len(got) != len(tt.want) {
				t.Fatalf("got %d blocks %+v, want %d", len(got), got, len(tt.want))
			}
			for i := range got {
				if got[i] != tt.want[i] {
					t.Errorf("block %d = %+v, want %+v", i, got[i], tt.want[i])
				}
			}
		})
	}
}
