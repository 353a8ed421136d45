package tracefile

import (
	"encoding/json"
	"strconv"
	"strings"
	"unicode/utf8"

	jsoniter "github.com/json-iterator/go"
	"go.opentelemetry.io/collector/pdata/pcommon"
)

// What a span says was asked and answered. A span's input is read from
// the first of these attributes it has (the dialects of the spans'
// mapping, docs/traces.md):
//
//   - OpenTelemetry GenAI: gen_ai.input.messages and
//     gen_ai.output.messages (messages of role and parts), the older
//     gen_ai.prompt and gen_ai.completion, and their indexed form
//     gen_ai.prompt.N.role / gen_ai.prompt.N.content.
//   - Vercel AI SDK: ai.prompt.messages, ai.prompt ({"prompt"} or
//     {"messages"}), and ai.response.text.
//   - OpenInference: llm.input_messages.N.message.role / .content,
//     llm.output_messages.N.message.content, and input.value /
//     output.value (text, or JSON holding messages).
var (
	inputKeys  = []string{"gen_ai.input.messages", "ai.prompt.messages", "ai.prompt", "gen_ai.prompt", "input.value"}
	outputKeys = []string{"gen_ai.output.messages", "ai.response.text", "gen_ai.completion", "output.value"}
)

// Attributes naming the conversation a trace belongs to, in order of
// preference: GenAI, OpenInference, and the session id Vercel AI SDK
// users pass as telemetry metadata.
var conversationKeys = []string{"gen_ai.conversation.id", "session.id", "ai.telemetry.metadata.sessionId"}

// keyRole is what an attribute holds and its rank among its kind's keys.
type keyRole struct{ kind, rank int }

const (
	kindInput = iota
	kindOutput
	kindConversation
)

// textKeys indexes inputKeys, outputKeys and conversationKeys.
var textKeys = func() map[string]keyRole {
	m := map[string]keyRole{}
	for kind, keys := range [][]string{inputKeys, outputKeys, conversationKeys} {
		for rank, k := range keys {
			m[k] = keyRole{kind, rank}
		}
	}
	return m
}()

// Indexed message attributes: PREFIX.N.SUFFIX.
var indexedKeys = []struct{ prefix, role, content string }{
	{"gen_ai.prompt.", ".role", ".content"},
	{"llm.input_messages.", ".message.role", ".message.content"},
}
var indexedOutputKeys = []struct{ prefix, role, content string }{
	{"gen_ai.completion.", ".role", ".content"},
	{"llm.output_messages.", ".message.role", ".message.content"},
}

// payload is one span's input or output as found: the attribute's raw
// value, or messages gathered from indexed attributes.
type payload struct {
	raw     string
	indexed []message
}

func (p payload) empty() bool { return p.raw == "" && len(p.indexed) == 0 }

// message is one message's role and text.
type message struct{ role, text string }

// spanText reads a span's input, output and conversation id, and unless
// its record is known clean whether a key or text value holds invalid
// UTF-8 or NUL.
func spanText(attrs pcommon.Map, clean bool) (in, out payload, conv string, bad bool) {
	inRank, outRank, convRank := len(inputKeys), len(outputKeys), len(conversationKeys)
	var inIdx, outIdx map[int]*message
	attrs.Range(func(k string, v pcommon.Value) bool {
		if !clean && !bad {
			bad = badText(k) || (v.Type() == pcommon.ValueTypeStr && badText(v.Str()))
		}
		role, known := textKeys[k]
		switch {
		case !known:
			collectIndexed(&inIdx, indexedKeys[:], k, v)
			collectIndexed(&outIdx, indexedOutputKeys[:], k, v)
		case role.kind == kindInput && role.rank < inRank:
			inRank, in = role.rank, payload{raw: v.AsString()}
		case role.kind == kindOutput && role.rank < outRank:
			outRank, out = role.rank, payload{raw: v.AsString()}
		case role.kind == kindConversation && role.rank < convRank:
			convRank, conv = role.rank, v.AsString()
		}
		return true
	})
	if in.empty() && len(inIdx) > 0 {
		in = payload{indexed: ordered(inIdx)}
	}
	if out.empty() && len(outIdx) > 0 {
		out = payload{indexed: ordered(outIdx)}
	}
	return in, out, conv, bad
}

// badText reports invalid UTF-8 or NUL, which the sanitizer repairs.
func badText(s string) bool { return !utf8.ValidString(s) || strings.IndexByte(s, 0) >= 0 }

// collectIndexed files k if it is one of the indexed message attributes.
func collectIndexed(into *map[int]*message, forms []struct{ prefix, role, content string }, k string, v pcommon.Value) {
	for _, f := range forms {
		rest, ok := strings.CutPrefix(k, f.prefix)
		if !ok {
			continue
		}
		dot := strings.IndexByte(rest, '.')
		if dot <= 0 {
			continue
		}
		n, err := strconv.Atoi(rest[:dot])
		if err != nil || n < 0 || n > 10000 {
			continue
		}
		field := rest[dot:]
		if field != f.role && field != f.content {
			continue
		}
		if *into == nil {
			*into = map[int]*message{}
		}
		m := (*into)[n]
		if m == nil {
			m = &message{}
			(*into)[n] = m
		}
		if field == f.role {
			m.role = v.AsString()
		} else {
			m.text = v.AsString()
		}
		return
	}
}

func ordered(idx map[int]*message) []message {
	keys := make([]int, 0, len(idx))
	for k := range idx {
		keys = append(keys, k)
	}
	for i := 1; i < len(keys); i++ { // few keys: insertion sort
		for j := i; j > 0 && keys[j] < keys[j-1]; j-- {
			keys[j], keys[j-1] = keys[j-1], keys[j]
		}
	}
	out := make([]message, 0, len(keys))
	for _, k := range keys {
		out = append(out, *idx[k])
	}
	return out
}

// messages reads the payload: JSON holding messages in any of the
// dialects' shapes, else the text itself as one message of unknown role.
func (p payload) messages() []message {
	if len(p.indexed) > 0 || p.raw == "" {
		return p.indexed
	}
	raw := strings.TrimSpace(p.raw)
	if raw == "" || (raw[0] != '[' && raw[0] != '{' && raw[0] != '"') {
		return []message{{text: p.raw}}
	}
	if ms, ok := typedMessages(raw); ok {
		return ms
	}
	var v any
	if err := json.Unmarshal([]byte(raw), &v); err != nil {
		return []message{{text: p.raw}}
	}
	if ms := fromJSON(v); len(ms) > 0 {
		return ms
	}
	return []message{{text: p.raw}}
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

// typedMessages reads an array of messages in the common shape, the
// usual case, in one pass; ok is false for any other shape.
func typedMessages(raw string) ([]message, bool) {
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

// fromJSON finds messages in a decoded value: a string; an array of
// messages; an object with "messages", "prompt", "input" or "output".
func fromJSON(v any) []message {
	switch x := v.(type) {
	case string:
		return []message{{text: x}}
	case []any:
		var out []message
		for _, e := range x {
			if m, ok := oneMessage(e); ok {
				out = append(out, m)
			}
		}
		return out
	case map[string]any:
		if ms, ok := x["messages"]; ok {
			return fromJSON(ms)
		}
		if m, ok := oneMessage(x); ok && m.role != "" {
			return []message{m}
		}
		for _, k := range []string{"prompt", "input", "output", "text", "content"} {
			if s, ok := x[k].(string); ok {
				return []message{{role: "", text: s}}
			}
		}
	}
	return nil
}

// oneMessage reads {role, content | parts}: content a string or parts;
// parts of type "text" carrying content or text.
func oneMessage(e any) (message, bool) {
	switch x := e.(type) {
	case string:
		return message{text: x}, true
	case map[string]any:
		role, _ := x["role"].(string)
		text := partsText(x["content"])
		if text == "" {
			text = partsText(x["parts"])
		}
		return message{role: strings.ToLower(role), text: text}, role != "" || text != ""
	}
	return message{}, false
}

func partsText(v any) string {
	switch x := v.(type) {
	case string:
		return x
	case []any:
		var b strings.Builder
		for _, p := range x {
			part, ok := p.(map[string]any)
			if !ok {
				if s, ok := p.(string); ok {
					b.WriteString(s)
				}
				continue
			}
			if t, _ := part["type"].(string); t != "" && t != "text" {
				continue
			}
			for _, k := range []string{"content", "text"} {
				if s, ok := part[k].(string); ok {
					if b.Len() > 0 {
						b.WriteString("\n")
					}
					b.WriteString(s)
					break
				}
			}
		}
		return b.String()
	}
	return ""
}

// userMessages are the messages a user sent: role user or human, or of no
// role (plain text input).
func userMessages(ms []message) []string {
	var out []string
	for _, m := range ms {
		if m.role == "" || m.role == "user" || m.role == "human" {
			if m.text != "" {
				out = append(out, m.text)
			}
		}
	}
	return out
}

// answerText is the last message's text that is not the user's or a
// tool's.
func answerText(ms []message) string {
	for i := len(ms) - 1; i >= 0; i-- {
		switch ms[i].role {
		case "user", "human", "tool", "system":
			continue
		}
		if ms[i].text != "" {
			return ms[i].text
		}
	}
	return ""
}
