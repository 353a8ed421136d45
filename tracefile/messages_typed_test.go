package tracefile

import (
	"encoding/json"
	"reflect"
	"strings"
	"testing"

	jsoniter "github.com/json-iterator/go"
)

// decodedMessages is how typedMessages read messages before it walked
// them: decoded into typed values. The walk must read the same.
func decodedMessages(raw string) ([]message, bool) {
	if raw[0] != '[' {
		return nil, false
	}
	var ms []jsonMessage
	if err := jsoniter.ConfigCompatibleWithStandardLibrary.UnmarshalFromString(raw, &ms); err != nil {
		return nil, false
	}
	out := make([]message, 0, len(ms))
	for _, m := range ms {
		text := partsText(m.Content)
		for _, p := range m.Parts {
			if p.Type != "" && p.Type != "text" {
				continue
			}
			t, ok := p.Content.(string)
			if !ok {
				t, _ = p.Text.(string)
			}
			if text != "" && t != "" {
				text += "\n"
			}
			text += t
		}
		out = append(out, message{role: strings.ToLower(m.Role), text: text})
	}
	return out, true
}

// jsonMessage is the common shape of a message: GenAI's role and parts,
// or a role and content (text, or parts as the AI SDK writes them).
type jsonMessage struct {
	Role    string     `json:"role"`
	Content any        `json:"content"`
	Parts   []jsonPart `json:"parts"`
}

// jsonPart is one part of a message; only text parts are read.
type jsonPart struct {
	Type    string `json:"type"`
	Content any    `json:"content"`
	Text    any    `json:"text"`
}

var messageShapes = []string{
	`[]`,
	`[{"role":"system","parts":[{"type":"text","content":"be brief"}]},{"role":"user","parts":[{"type":"text","content":"first"}]}]`,
	`[{"role":"assistant","parts":[{"type":"tool_call","name":"x","arguments":{"a":1}},{"type":"text","content":"done"}],"finish_reason":"stop"}]`,
	`[{"role":"user","content":"plain"},{"role":"assistant","content":[{"type":"text","text":"a"},{"type":"image","text":"no"},"bare",{"content":"b"}]}]`,
	`[{"ROLE":"User","Parts":[{"TYPE":"text","Content":"folded keys"}]}]`,
	`[{"role":"user","role":"assistant","parts":[{"content":"x","content":5,"text":"from text"}]}]`,
	`[null,{"role":null,"parts":null,"content":null},{"parts":[null,{"type":null,"content":null,"text":"t"}]}]`,
	`[{"role":"user","parts":[{"type":"text","content":"esc \"quoted\" \\ \u00e9 \ud83d\ude00"}]}]`,
	`[{"role":"user","content":{"not":"text"}},{"role":"user","content":12}]`,
	`[{"role":5}]`,
	`[{"role":"user","parts":{"type":"text"}}]`,
	`[{"role":"user","parts":[{"type":7}]}]`,
	`[{"role":"user","parts":["text"]}]`,
	`["a string"]`,
	`[1,2]`,
	`[{"role":"user"}] x`,
	`[{"role":"user"}],[{"role":"user"}]`,
	`[{"role":"user"}]]`,
	`[{"role":"user"`,
	`[{"role":"user","extra":{"deep":[1,{"x":"]"}]},"parts":[{"type":"text","content":"after extra"}]}]`,
	`[{"role":"user","parts":[{"type":"text","content":"a"},{"type":"text","content":""},{"type":"text","content":"c"}]}]`,
	`[{"role":"user","content":"c","parts":[{"type":"text","content":"p"}]}]`,
	`[{"role":"user","content":"\\"}]`,
	"[] \n\t",
	"[{\"role\":\"user\"}] \r\n",
}

// TestTypedMessages_AsDecoded: walking the messages reads what decoding
// them read, on every shape the dialects write and on malformed ones.
func TestTypedMessages_AsDecoded(t *testing.T) {
	for _, raw := range messageShapes {
		got, gotOK := typedMessages(raw)
		want, wantOK := decodedMessages(raw)
		if gotOK != wantOK || (gotOK && !reflect.DeepEqual(got, want)) {
			t.Errorf("%s\nwalked  %v %q\ndecoded %v %q", raw, gotOK, got, wantOK, want)
		}
	}
}

// FuzzTypedMessages: on valid JSON the walk reads what decoding read. On
// text that is not JSON it may refuse what the lenient decoder took (a raw
// control character in a key): the text is then read as the message
// itself, as for any text that is not JSON.
func FuzzTypedMessages(f *testing.F) {
	for _, raw := range messageShapes {
		f.Add(raw)
	}
	f.Fuzz(func(t *testing.T, raw string) {
		if raw == "" {
			return
		}
		got, gotOK := typedMessages(raw)
		if !json.Valid([]byte(raw)) {
			return
		}
		want, wantOK := decodedMessages(raw)
		if gotOK != wantOK || (gotOK && !reflect.DeepEqual(got, want)) {
			t.Errorf("%q\nwalked  %v %q\ndecoded %v %q", raw, gotOK, got, wantOK, want)
		}
	})
}
