package adapter

import (
	"bytes"
	"encoding/json"
	"strings"
)

// The parts of OpenAI's chat completions and Responses API that
// openAIChat and openAIResponses write and read.

// openAIMessage is one message of a request: a chat completions message
// or a Responses API input message, which have the same shape.
type openAIMessage struct {
	Content string `json:"content"`
	Role    string `json:"role"`
}

type chatRequest struct {
	Messages []openAIMessage `json:"messages"`
	Model    string          `json:"model,omitempty"`
}

type responsesRequest struct {
	Input []openAIMessage `json:"input"`
	Model string          `json:"model,omitempty"`
}

// chatCompletion is a chat completion, or the one accumulated from the
// chunks of a stream (add).
type chatCompletion struct {
	ID      string       `json:"id"`
	Choices []chatChoice `json:"choices"`
	Usage   chatUsage    `json:"usage"`
}

type chatChoice struct {
	Index   int         `json:"index"`
	Message chatMessage `json:"message"`
	Delta   chatMessage `json:"delta"`
}

type chatMessage struct {
	Content   textValue      `json:"content"`
	ToolCalls []chatToolCall `json:"tool_calls"`
}

type chatToolCall struct {
	Index    int    `json:"index"`
	ID       string `json:"id"`
	Type     string `json:"type"`
	Function struct {
		Name      string `json:"name"`
		Arguments string `json:"arguments"`
	} `json:"function"`
	Custom struct {
		Name  string `json:"name"`
		Input string `json:"input"`
	} `json:"custom"`
}

type chatUsage struct {
	PromptTokens     int64 `json:"prompt_tokens"`
	CompletionTokens int64 `json:"completion_tokens"`
	TotalTokens      int64 `json:"total_tokens"`
}

// chatChunk is one chunk of a streamed chat completion.
type chatChunk = chatCompletion

// Bounds on a stream's indices: a chunk beyond them does not follow the
// ones before it (and cannot make the accumulated completion grow without
// limit).
const (
	maxChoiceIndex    = 127
	maxToolCallGrowth = 128
)

// add merges a stream's chunk into c: texts and tool call names and
// arguments are appended by choice and tool call index, usage counts
// summed. It reports false for a chunk of another completion or with an
// index out of bounds, and then leaves c as it was.
func (c *chatCompletion) add(chunk chatChunk) bool {
	if c.ID != "" && chunk.ID != c.ID {
		return false
	}
	for _, ch := range chunk.Choices {
		if ch.Index < 0 || ch.Index > maxChoiceIndex {
			return false
		}
		have := 0
		if ch.Index < len(c.Choices) {
			have = len(c.Choices[ch.Index].Message.ToolCalls)
		}
		for _, tc := range ch.Delta.ToolCalls {
			if tc.Index < 0 || tc.Index >= have+maxToolCallGrowth {
				return false
			}
		}
	}
	c.ID = chunk.ID
	for _, ch := range chunk.Choices {
		for len(c.Choices) <= ch.Index {
			c.Choices = append(c.Choices, chatChoice{Index: len(c.Choices)})
		}
		msg := &c.Choices[ch.Index].Message
		msg.Content += ch.Delta.Content
		for _, tc := range ch.Delta.ToolCalls {
			for len(msg.ToolCalls) <= tc.Index {
				msg.ToolCalls = append(msg.ToolCalls, chatToolCall{Index: len(msg.ToolCalls)})
			}
			call := &msg.ToolCalls[tc.Index]
			if tc.ID != "" {
				call.ID = tc.ID
			}
			if tc.Type != "" {
				call.Type = tc.Type
			}
			call.Function.Name += tc.Function.Name
			call.Function.Arguments += tc.Function.Arguments
		}
	}
	c.Usage.PromptTokens += chunk.Usage.PromptTokens
	c.Usage.CompletionTokens += chunk.Usage.CompletionTokens
	c.Usage.TotalTokens += chunk.Usage.TotalTokens
	return true
}

// responseObject is a Responses API response.
type responseObject struct {
	Error struct {
		Message string `json:"message"`
	} `json:"error"`
	Output []responseItem `json:"output"`
	Usage  struct {
		InputTokens  int64 `json:"input_tokens"`
		OutputTokens int64 `json:"output_tokens"`
	} `json:"usage"`
}

// responseItem is an output item: a message (Content) or a function call
// (Name, Arguments).
type responseItem struct {
	Type      string    `json:"type"`
	Name      textValue `json:"name"`
	Arguments textValue `json:"arguments"`
	Content   []struct {
		Type string    `json:"type"`
		Text textValue `json:"text"`
	} `json:"content"`
}

// outputText is the text of every output_text part of the response's
// messages, in order.
func (r responseObject) outputText() string {
	var b strings.Builder
	for _, item := range r.Output {
		if item.Type != "message" {
			continue
		}
		for _, c := range item.Content {
			if c.Type == "output_text" {
				b.WriteString(string(c.Text))
			}
		}
	}
	return b.String()
}

// responseEvent is one event of a streamed response.
type responseEvent struct {
	Type     string         `json:"type"`
	Message  textValue      `json:"message"`
	Response responseObject `json:"response"`
}

// textValue is a text field read leniently: a string as it is, a number
// or a boolean as its JSON text, anything else as "".
type textValue string

func (t *textValue) UnmarshalJSON(b []byte) error {
	b = bytes.TrimSpace(b)
	switch {
	case len(b) == 0:
		*t = ""
	case b[0] == '"':
		var s string
		if err := json.Unmarshal(b, &s); err != nil {
			return err
		}
		*t = textValue(s)
	case b[0] == '-' || (b[0] >= '0' && b[0] <= '9') || string(b) == "true" || string(b) == "false":
		*t = textValue(b)
	default:
		*t = ""
	}
	return nil
}
