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
	return storedActions(acts, nil)
}

// storedActions is StoredActions with each call's raw argument text beside
// it where raw has one (the trace record's span_actions).
func storedActions(acts []score.Action, raw []*string) models.JSON {
	out := make([]storedAction, len(acts))
	for i, a := range acts {
		out[i] = storedAction{Name: a.Name, Arguments: objectArguments(a.Arguments), Result: a.Result, Status: a.Status, DurationMS: a.DurationMS}
		if a.Group != "" {
			out[i].Group = &a.Group
		}
		if i < len(raw) {
			out[i].RawArguments = raw[i]
		}
	}
	return models.MustJSON(out)
}

// argumentsOf reads a tool call's argument text: a JSON object is kept as
// it is; none is {}; anything else (a string, an array, text that is not
// JSON) is {} with the text returned as raw, to be kept as evidence.
func argumentsOf(text string) (args json.RawMessage, raw *string) {
	obj := objectArguments(json.RawMessage(text))
	if text != "" && string(obj) != text {
		raw = &text
	}
	return obj, raw
}

// objectArguments is args when it is a JSON object, else {}.
func objectArguments(args json.RawMessage) json.RawMessage {
	// Valid JSON that starts with a brace is an object: checking it is
	// far cheaper than decoding it.
	if len(args) > 0 && args[0] == '{' && json.Valid(args) {
		return args
	}
	return json.RawMessage(`{}`)
}
