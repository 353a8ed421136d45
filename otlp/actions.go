package otlp

import (
	"encoding/json"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
)

// storedAction is a tool call read from spans as the gem stores an action:
// a group (null when unknown, as the gem leaves it), a name and the
// arguments as an object, then what the span also told: the result, the
// status and the duration. RawArguments, kept only in the trace record,
// is the span's argument text when it was not a JSON object.
type storedAction struct {
	Group        *string         `json:"group"`
	Name         string          `json:"name"`
	Arguments    json.RawMessage `json:"arguments"`
	Result       json.RawMessage `json:"result,omitempty"`
	Status       string          `json:"status,omitempty"`
	DurationMS   *float64        `json:"duration_ms,omitempty"`
	RawArguments *string         `json:"raw_arguments,omitempty"`
}

// StoredActions are tool calls read from spans in the shape the gem writes
// actions (group null when unknown, arguments an object), for the case's
// actions column.
func StoredActions(acts []score.Action) models.JSON {
	return storedActions(acts, nil, false)
}

// storedActions is StoredActions with each call's raw argument text beside
// it where raw has one (the trace record's span_actions); objects says
// every call's arguments are already a JSON object (argText.arguments).
// It writes the bytes json.Marshal writes for []storedAction, without
// reflection: a trace of many tool calls is read on every case (see
// TestStoredActions_AsMarshal).
func storedActions(acts []score.Action, raw []*string, objects bool) models.JSON {
	size := 2
	for i, a := range acts {
		size += 100 + len(a.Group) + len(a.Name) + len(a.Arguments) + len(a.Result) + len(a.Status)
		if i < len(raw) && raw[i] != nil {
			size += 20 + len(*raw[i])
		}
	}
	b := make([]byte, 0, size) // escapes aside, the size it will take
	b = append(b, '[')
	for i, a := range acts {
		if i > 0 {
			b = append(b, ',')
		}
		b = append(b, `{"group":`...)
		if a.Group != "" {
			b = models.AppendJSONString(b, a.Group)
		} else {
			b = append(b, "null"...)
		}
		b = append(b, `,"name":`...)
		b = models.AppendJSONString(b, a.Name)
		b = append(b, `,"arguments":`...)
		if objects {
			b = models.AppendJSONRaw(b, a.Arguments)
		} else {
			b = models.AppendJSONRaw(b, objectArguments(a.Arguments))
		}
		if len(a.Result) > 0 {
			b = append(b, `,"result":`...)
			b = models.AppendJSONRaw(b, a.Result)
		}
		if a.Status != "" {
			b = append(b, `,"status":`...)
			b = models.AppendJSONString(b, a.Status)
		}
		if a.DurationMS != nil {
			b = append(b, `,"duration_ms":`...)
			b, _ = models.AppendJSONFloat(b, *a.DurationMS) // a duration is finite
		}
		if i < len(raw) && raw[i] != nil {
			b = append(b, `,"raw_arguments":`...)
			b = models.AppendJSONString(b, *raw[i])
		}
		b = append(b, '}')
	}
	return append(b, ']')
}

// argText holds the argument and result text of a trace's tool calls:
// blocks of bytes, not one allocation a call.
type argText struct{ b []byte }

// arguments reads a tool call's argument text: a JSON object is kept as
// it is; none is {}; anything else (a string, an array, text that is not
// JSON) is {} with the text returned as raw, to be kept as evidence.
func (t *argText) arguments(text string) (args json.RawMessage, raw *string) {
	if text != "" && text[0] == '{' && models.ValidJSON(text) {
		// Valid JSON that starts with a brace is an object: checking it
		// is far cheaper than decoding it.
		return t.copy(text), nil
	}
	if text != "" {
		kept := text // escapes only here
		raw = &kept
	}
	return t.copy("{}"), raw
}

// result keeps a call's result text as score.ActionJSON does: JSON text
// as it is, any other text as a JSON string; nil for none.
func (t *argText) result(text string) json.RawMessage {
	if text == "" {
		return nil
	}
	if models.ValidJSON(text) {
		return t.copy(text)
	}
	return score.ActionJSON(text)
}

// copy is s in the current block, which a later copy does not overwrite.
func (t *argText) copy(s string) json.RawMessage {
	if cap(t.b)-len(t.b) < len(s) {
		t.b = make([]byte, 0, max(len(s), min(2*cap(t.b), 64<<10), 1024))
	}
	l := len(t.b)
	t.b = append(t.b, s...)
	return t.b[l:len(t.b):len(t.b)]
}

// objectArguments is args when it is a JSON object, else {}.
func objectArguments(args json.RawMessage) json.RawMessage {
	// Valid JSON that starts with a brace is an object: checking it is
	// far cheaper than decoding it.
	if len(args) > 0 && args[0] == '{' && models.ValidJSONBytes(args) {
		return args
	}
	return json.RawMessage(`{}`)
}
