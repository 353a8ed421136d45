package otlp

import (
	"encoding/json"
	"strconv"
	"strings"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
)

// OpenInference as LangChain writes it: a tool span's input.value is the
// tool's input as the runnable got it (a bare string for a single-field
// tool, not the arguments object) and its output.value a serialized
// ToolMessage. The arguments are on the model span that asked for the call
// (llm.output_messages.N.message.tool_calls.M.tool_call.function.name and
// .arguments); the result is the message's content.

const oiToolCallsPrefix = "llm.output_messages."

// oiMapped reports whether a key is a model span's tool call, which the
// mapping reads.
func oiMapped(key string) bool {
	return strings.HasPrefix(key, oiToolCallsPrefix) && strings.Contains(key, ".tool_call.function.")
}

// oiCall is a tool call a model span asked for.
type oiCall struct {
	name, args string
	used       bool
}

// oiModelCalls lists the tool calls an LLM span's output messages carry,
// in message and call order.
func oiModelCalls(a models.SpanAttrs) []oiCall {
	var out []oiCall
	for m := 0; m < 64; m++ {
		found := false
		for c := 0; c < 64; c++ {
			base := oiToolCallsPrefix + strconv.Itoa(m) + ".message.tool_calls." + strconv.Itoa(c) + ".tool_call.function."
			name, ok := a.Get(base + "name")
			if !ok {
				break
			}
			found = true
			out = append(out, oiCall{name: repaired(name), args: repaired(a.Value(base + "arguments"))})
		}
		if !found && m > 0 {
			break
		}
	}
	return out
}

// oiRepair fixes an OpenInference tool call read from its span: arguments
// that are not a JSON object are taken from the first unused model call of
// the same name, and a serialized ToolMessage result becomes its content
// (a message with status "error" makes the call an error).
func oiRepair(act *score.Action, notArgs bool, calls []oiCall) {
	if notArgs || !isObject(act.Arguments) {
		for i := range calls {
			if !calls[i].used && calls[i].name == act.Name && isObject(json.RawMessage(calls[i].args)) {
				calls[i].used = true
				act.Arguments = json.RawMessage(calls[i].args)
				break
			}
		}
	}
	if content, failed, ok := toolMessageContent(act.Result); ok {
		act.Result = content
		if failed {
			act.Status = score.StatusError
		}
	}
}

func isObject(raw json.RawMessage) bool {
	var m map[string]json.RawMessage
	return len(raw) > 0 && json.Unmarshal(raw, &m) == nil
}

// toolMessageContent returns the content of a LangChain ToolMessage
// serialized as {"lc": 1, "type": "constructor", "id": [..., "ToolMessage"],
// "kwargs": {"content": ..., "status": ...}}, bare or under "output" as
// the instrumentation of LangChain 1.x writes a tool's output: JSON text
// content as JSON, other text as a JSON string. failed says the message's
// status is "error" (a tool node reports a tool's exception that way).
func toolMessageContent(raw json.RawMessage) (content json.RawMessage, failed, ok bool) {
	var wrapped struct {
		Output json.RawMessage `json:"output"`
	}
	if json.Unmarshal(raw, &wrapped) == nil && len(wrapped.Output) > 0 && wrapped.Output[0] == '{' {
		raw = wrapped.Output
	}
	var m struct {
		LC     *int     `json:"lc"`
		ID     []string `json:"id"`
		Kwargs struct {
			Content json.RawMessage `json:"content"`
			Status  string          `json:"status"`
		} `json:"kwargs"`
	}
	if json.Unmarshal(raw, &m) != nil || m.LC == nil || len(m.ID) == 0 || m.ID[len(m.ID)-1] != "ToolMessage" || len(m.Kwargs.Content) == 0 {
		return nil, false, false
	}
	failed = m.Kwargs.Status == "error"
	var text string
	if json.Unmarshal(m.Kwargs.Content, &text) == nil {
		return score.ActionJSON(text), failed, true
	}
	return m.Kwargs.Content, failed, true
}
