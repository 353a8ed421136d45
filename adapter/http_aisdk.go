package adapter

import (
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/score"
)

// aiSDKUI speaks the AI SDK's chat transport: every turn posts the chat's
// id and its whole history as UI messages (text parts) with the trigger
// "submit-message"; the reply is a UI message stream (server-sent events
// of JSON chunks ending with "[DONE]") whose text deltas are the output
// and whose tool chunks are the actions, with their results and errors.
type aiSDKUI struct{}

// uiMessage and uiPart are the UI messages the chat transport posts.
type uiMessage struct {
	ID    string   `json:"id"`
	Role  string   `json:"role"`
	Parts []uiPart `json:"parts"`
}

type uiPart struct {
	Type string `json:"type"`
	Text string `json:"text"`
}

type uiRequest struct {
	ID       string      `json:"id"`
	Messages []uiMessage `json:"messages"`
	Trigger  string      `json:"trigger"`
}

// uiChunk holds the fields of the stream's chunks that are read.
type uiChunk struct {
	Type       string          `json:"type"`
	Delta      string          `json:"delta"`
	ToolCallID string          `json:"toolCallId"`
	ToolName   string          `json:"toolName"`
	Input      json.RawMessage `json:"input"`
	Output     json.RawMessage `json:"output"`
	ErrorText  string          `json:"errorText"`
}

func (aiSDKUI) accept() string { return "text/event-stream" }

func (aiSDKUI) request(q agent.Question, _ string) ([]byte, error) {
	chat := q.SessionID
	if chat == "" {
		chat = q.ID
	}
	var msgs []uiMessage
	for i, m := range turns(q) {
		msgs = append(msgs, uiMessage{ID: "m" + strconv.Itoa(i+1), Role: m.Role, Parts: []uiPart{{Type: "text", Text: m.Content}}})
	}
	return json.Marshal(uiRequest{ID: chat, Messages: msgs, Trigger: "submit-message"})
}

func (aiSDKUI) read(_ string, body []byte) (agent.Response, error) {
	events, err := sseEvents(body)
	if err != nil {
		return agent.Response{}, fmt.Errorf("read the UI message stream: %w", err)
	}
	var text strings.Builder
	var calls []score.Action
	byID := map[string]int{} // tool call id → index in calls
	call := func(c uiChunk) *score.Action {
		i, ok := byID[c.ToolCallID]
		if !ok {
			i = len(calls)
			byID[c.ToolCallID] = i
			calls = append(calls, score.Action{Name: c.ToolName})
		}
		return &calls[i]
	}
	for i, data := range events {
		var c uiChunk
		if err := json.Unmarshal(data, &c); err != nil {
			return agent.Response{}, fmt.Errorf("chunk %d of the UI message stream: %w", i+1, err)
		}
		switch c.Type {
		case "text-delta":
			text.WriteString(c.Delta)
		case "tool-input-available", "tool-input-error":
			a := call(c)
			a.Name, a.Arguments = c.ToolName, nullToNil(c.Input)
			if c.Type == "tool-input-error" {
				a.Status, a.Result = score.StatusError, textOutput(c.ErrorText)
			}
		case "tool-output-available":
			a := call(c)
			a.Status, a.Result = score.StatusOK, nullToNil(c.Output)
		case "tool-output-error":
			a := call(c)
			a.Status, a.Result = score.StatusError, textOutput(c.ErrorText)
		case "error":
			return agent.Response{}, errStream(c.ErrorText)
		}
	}
	return agent.Response{Output: textOutput(text.String()), Actions: callActions(calls)}, nil
}

// nullToNil drops an absent or null JSON value.
func nullToNil(raw json.RawMessage) json.RawMessage {
	if len(raw) == 0 || string(raw) == "null" {
		return nil
	}
	return raw
}
