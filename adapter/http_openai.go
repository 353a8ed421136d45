package adapter

import (
	"encoding/json"
	"errors"
	"fmt"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/score"
)

// openAIChat speaks OpenAI chat completions: every turn posts the whole
// conversation as messages; the reply is a chat completion, or a stream of
// chunks (server-sent events) when the service streams. Tool calls the
// message carries become the actions.
type openAIChat struct{}

func (openAIChat) accept() string { return "application/json, text/event-stream" }

func (openAIChat) request(q agent.Question, model string) ([]byte, error) {
	var msgs []openAIMessage
	for _, m := range turns(q) {
		role := agent.RoleUser
		if m.Role == agent.RoleAssistant {
			role = agent.RoleAssistant
		}
		msgs = append(msgs, openAIMessage{Content: m.Content, Role: role})
	}
	return json.Marshal(chatRequest{Messages: msgs, Model: model})
}

func (openAIChat) read(contentType string, body []byte) (agent.Response, error) {
	var c chatCompletion
	if isEventStream(contentType, body) {
		events, err := sseEvents(body)
		if err != nil {
			return agent.Response{}, fmt.Errorf("read the chat completion stream: %w", err)
		}
		for i, data := range events {
			var chunk chatChunk
			if err := decodeLenient(data, &chunk); err != nil {
				return agent.Response{}, fmt.Errorf("chunk %d of the chat completion stream: %w", i+1, err)
			}
			if !c.add(chunk) {
				return agent.Response{}, fmt.Errorf("chunk %d of the chat completion stream does not follow the ones before it", i+1)
			}
		}
	} else if err := decodeLenient(body, &c); err != nil {
		return agent.Response{}, fmt.Errorf("want a chat completion: %w", err)
	}
	if len(c.Choices) == 0 {
		return agent.Response{}, fmt.Errorf("the chat completion has no choices")
	}
	msg := c.Choices[0].Message
	var calls []score.Action
	for _, tc := range msg.ToolCalls {
		if tc.Type == "custom" {
			calls = append(calls, score.Action{Name: tc.Custom.Name, Arguments: toolArguments(tc.Custom.Input)})
			continue
		}
		calls = append(calls, score.Action{Name: tc.Function.Name, Arguments: toolArguments(tc.Function.Arguments)})
	}
	return agent.Response{Output: textOutput(string(msg.Content)), Actions: callActions(calls),
		InputTokens: tokens(int64(c.Usage.PromptTokens)), OutputTokens: tokens(int64(c.Usage.CompletionTokens))}, nil
}

// openAIResponses speaks the OpenAI Responses API: every turn posts the
// whole conversation as input messages; the reply is a response (or its
// event stream, read up to response.completed) whose function_call items
// become the actions.
type openAIResponses struct{}

func (openAIResponses) accept() string { return "application/json, text/event-stream" }

func (openAIResponses) request(q agent.Question, model string) ([]byte, error) {
	var input []openAIMessage
	for _, m := range turns(q) {
		role := agent.RoleUser
		if m.Role == agent.RoleAssistant {
			role = agent.RoleAssistant
		}
		input = append(input, openAIMessage{Content: m.Content, Role: role})
	}
	return json.Marshal(responsesRequest{Input: input, Model: model})
}

func (openAIResponses) read(contentType string, body []byte) (agent.Response, error) {
	var r responseObject
	if isEventStream(contentType, body) {
		events, err := sseEvents(body)
		if err != nil {
			return agent.Response{}, fmt.Errorf("read the response stream: %w", err)
		}
		done := false
		for i, data := range events {
			var ev responseEvent
			if err := decodeLenient(data, &ev); err != nil {
				return agent.Response{}, fmt.Errorf("event %d of the response stream: %w", i+1, err)
			}
			switch ev.Type {
			case "response.completed", "response.incomplete", "response.failed":
				r, done = ev.Response, true
			case "error":
				return agent.Response{}, errStream(string(ev.Message))
			}
		}
		if !done {
			return agent.Response{}, fmt.Errorf("the response stream ended without response.completed")
		}
	} else if err := decodeLenient(body, &r); err != nil {
		return agent.Response{}, fmt.Errorf("want a response object: %w", err)
	}
	if r.Error.Message != "" {
		return agent.Response{}, fmt.Errorf("the response failed: %s", quoteReply([]byte(r.Error.Message)))
	}
	var calls []score.Action
	for _, item := range r.Output {
		if item.Type == "function_call" {
			calls = append(calls, score.Action{Name: string(item.Name), Arguments: toolArguments(string(item.Arguments))})
		}
	}
	return agent.Response{Output: textOutput(r.outputText()), Actions: callActions(calls),
		InputTokens: tokens(int64(r.Usage.InputTokens)), OutputTokens: tokens(int64(r.Usage.OutputTokens))}, nil
}

// decodeLenient reads a JSON object into v the way the OpenAI client
// libraries read replies: a value of an unexpected type leaves its field
// empty instead of failing the whole reply. Anything but an object, and
// malformed JSON, is an error.
func decodeLenient(data []byte, v any) error {
	err := json.Unmarshal(data, v)
	var typeErr *json.UnmarshalTypeError
	if errors.As(err, &typeErr) && typeErr.Field != "" {
		return nil // a field of the object; the rest was read
	}
	return err
}
