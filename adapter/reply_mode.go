package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"maps"
	"unicode/utf8"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/suite"
)

// replyNoteKey is the response-metadata key under which a reply that was
// not one Response object, as a whole, says how it was read (see
// models.ReplyNote).
const replyNoteKey = "reply_note"

// maxNoteText bounds the text kept in a reply note, in runes.
const maxNoteText = 2000

// parseReplyAs reads a command or http agent's reply by the suite's
// agent.reply mode ("" is suite.ReplyAuto):
//
//   - json: the reply must be one Response object (ParseReply without
//     plain text); anything else, text before the object included, is an
//     error.
//   - text: the whole reply is the answer, as plain text.
//   - auto: a reply starting with "{" is a Response object. Otherwise, when
//     its last non-blank line is a valid Response object, that line is the
//     reply and the text before it (a debug line, a banner) is kept in the
//     note; else the reply is plain text, and when it holds a JSON object
//     the note says it was scored as text.
//
// So a stray line printed before the JSON reply never turns the raw
// protocol JSON into the scored answer without the case saying so.
func parseReplyAs(b []byte, mode string) (agent.Response, error) {
	switch mode {
	case suite.ReplyJSON:
		r, err := ParseReply(b, false)
		if err != nil {
			return agent.Response{}, fmt.Errorf("agent.reply is \"json\": %w", err)
		}
		return r, nil
	case suite.ReplyText:
		return textReply(bytes.TrimSpace(b))
	}
	t := bytes.TrimSpace(b)
	if len(t) > 0 && t[0] == '{' {
		return ParseReply(t, false)
	}
	before, last := splitLastLine(t)
	if len(before) > 0 && len(last) > 0 && last[0] == '{' {
		r, err := ParseReply(last, false)
		if err == nil {
			return withNote(r, noteOf("json",
				"the text before the JSON reply on the last line of stdout was not part of it: kept here, not scored; write logs to stderr or set agent.reply to \"json\" to refuse such replies",
				before, "")), nil
		}
		tr, terr := textReply(t)
		if terr != nil {
			return agent.Response{}, terr
		}
		return withNote(tr, noteOf("text", "the last line of the reply is a JSON object but not a valid Response, so the whole reply was read and scored as plain text; set agent.reply to \"json\" to make this a case error",
			nil, err.Error())), nil
	}
	r, err := textReply(t)
	if err != nil {
		return agent.Response{}, err
	}
	if holdsObject(t) {
		r = withNote(r, noteOf("text", "the reply holds a JSON object but is not one Response object (it does not start with \"{\" and its last line is not one): it was read and scored as plain text; print the Response alone (logs to stderr) or set agent.reply to \"json\" or \"text\"",
			nil, ""))
	}
	return r, nil
}

// textReply is a plain-text reply: the output string, actions nil.
func textReply(t []byte) (agent.Response, error) {
	if !utf8.Valid(t) {
		return agent.Response{}, fmt.Errorf("want UTF-8 text or a Response JSON object")
	}
	out, err := json.Marshal(string(t))
	if err != nil {
		return agent.Response{}, err
	}
	return agent.Response{Output: out}, nil
}

// splitLastLine splits trimmed text at its last line break: the text
// before it (trimmed) and the last line; before is nil for one line.
func splitLastLine(t []byte) (before, last []byte) {
	i := bytes.LastIndexByte(t, '\n')
	if i < 0 {
		return nil, t
	}
	return bytes.TrimSpace(t[:i]), bytes.TrimSpace(t[i+1:])
}

// holdsObject reports whether a JSON object starts at one of the first
// objectTries "{" of t (a bound, so that text full of braces costs little).
func holdsObject(t []byte) bool {
	const objectTries = 32
	for i, n := bytes.IndexByte(t, '{'), 0; i >= 0 && n < objectTries; n++ {
		dec := json.NewDecoder(bytes.NewReader(t[i:]))
		var v map[string]json.RawMessage
		if dec.Decode(&v) == nil {
			return true
		}
		j := bytes.IndexByte(t[i+1:], '{')
		if j < 0 {
			return false
		}
		i += 1 + j
	}
	return false
}

// noteOf is the reply note's value (see models.ReplyNote).
func noteOf(readAs, note string, before []byte, objectError string) map[string]any {
	n := map[string]any{"read_as": readAs, "note": note}
	if len(before) > 0 {
		s := string(bytes.ToValidUTF8(before, []byte("\uFFFD")))
		if r := []rune(s); len(r) > maxNoteText {
			s = string(r[:maxNoteText]) + "…"
		}
		n["text_before"] = s
	}
	if objectError != "" {
		n["object_error"] = objectError
	}
	return n
}

// withNote adds the reply note to r's metadata.
func withNote(r agent.Response, note map[string]any) agent.Response {
	r.Metadata = maps.Clone(r.Metadata)
	if r.Metadata == nil {
		r.Metadata = map[string]any{}
	}
	r.Metadata[replyNoteKey] = note
	return r
}
