package adapter

import (
	"encoding/json"
	"fmt"

	"github.com/openai/openai-go/v3"
	"github.com/openai/openai-go/v3/responses"

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
	var msgs []openai.ChatCompletionMessageParamUnion
	for _, m := range turns(q) {
		if m.Role == agent.RoleAssistant {
			msgs = append(msgs, openai.AssistantMessage(m.Content))
		} else {
			msgs = append(msgs, openai.UserMessage(m.Content))
		}
	}
	return json.Marshal(openai.ChatCompletionNewParams{Model: model, Messages: msgs})
}

func (openAIChat) read(contentType string, body []byte) (agent.Response, error) {
	var c openai.ChatCompletion
	if isEventStream(contentType, body) {
		events, err := sseEvents(body)
		if err != nil {
			return agent.Response{}, fmt.Errorf("read the chat completion stream: %w", err)
		}
		var acc openai.ChatCompletionAccumulator
		for i, data := range events {
			var chunk openai.ChatCompletionChunk
			if err := json.Unmarshal(data, &chunk); err != nil {
				return agent.Response{}, fmt.Errorf("chunk %d of the chat completion stream: %w", i+1, err)
			}
			if !acc.AddChunk(chunk) {
				return agent.Response{}, fmt.Errorf("chunk %d of the chat completion stream does not follow the ones before it", i+1)
			}
		}
		c = acc.ChatCompletion
	} else if err := json.Unmarshal(body, &c); err != nil {
		return agent.Response{}, fmt.Errorf("want a chat completion: %w", err)
	}
	if len(c.Choices) == 0 {
		return agent.Response{}, fmt.Errorf("the chat completion has no choices")
	}
	msg := c.Choices[0].Message
	var calls []score.Action
	for _, tc := range msg.ToolCalls {
		if tc.Type == "custom" {
			calls = append(calls, score.Action{Name: tc.Custom.Name, Arguments: score.ActionJSON(tc.Custom.Input)})
			continue
		}
		calls = append(calls, score.Action{Name: tc.Function.Name, Arguments: score.ActionJSON(tc.Function.Arguments)})
	}
	return agent.Response{Output: textOutput(msg.Content), Actions: callActions(calls),
		InputTokens: tokens(c.Usage.PromptTokens), OutputTokens: tokens(c.Usage.CompletionTokens)}, nil
}

// openAIResponses speaks the OpenAI Responses API: every turn posts the
// whole conversation as input messages; the reply is a response (or its
// event stream, read up to response.completed) whose function_call items
// become the actions.
type openAIResponses struct{}

func (openAIResponses) accept() string { return "application/json, text/event-stream" }

func (openAIResponses) request(q agent.Question, model string) ([]byte, error) {
	var input responses.ResponseInputParam
	for _, m := range turns(q) {
		role := responses.EasyInputMessageRoleUser
		if m.Role == agent.RoleAssistant {
			role = responses.EasyInputMessageRoleAssistant
		}
		input = append(input, responses.ResponseInputItemParamOfMessage(m.Content, role))
	}
	return json.Marshal(responses.ResponseNewParams{Model: model, Input: responses.ResponseNewParamsInputUnion{OfInputItemList: input}})
}

func (openAIResponses) read(contentType string, body []byte) (agent.Response, error) {
	var r responses.Response
	if isEventStream(contentType, body) {
		events, err := sseEvents(body)
		if err != nil {
			return agent.Response{}, fmt.Errorf("read the response stream: %w", err)
		}
		done := false
		for i, data := range events {
			var ev responses.ResponseStreamEventUnion
			if err := json.Unmarshal(data, &ev); err != nil {
				return agent.Response{}, fmt.Errorf("event %d of the response stream: %w", i+1, err)
			}
			switch ev.Type {
			case "response.completed", "response.incomplete", "response.failed":
				r, done = ev.Response, true
			case "error":
				return agent.Response{}, errStream(ev.Message)
			}
		}
		if !done {
			return agent.Response{}, fmt.Errorf("the response stream ended without response.completed")
		}
	} else if err := json.Unmarshal(body, &r); err != nil {
		return agent.Response{}, fmt.Errorf("want a response object: %w", err)
	}
	if r.Error.Message != "" {
		return agent.Response{}, fmt.Errorf("the response failed: %s", quoteReply([]byte(r.Error.Message)))
	}
	var calls []score.Action
	for _, item := range r.Output {
		if item.Type == "function_call" {
			fc := item.AsFunctionCall()
			calls = append(calls, score.Action{Name: fc.Name, Arguments: score.ActionJSON(fc.Arguments)})
		}
	}
	return agent.Response{Output: textOutput(r.OutputText()), Actions: callActions(calls),
		InputTokens: tokens(r.Usage.InputTokens), OutputTokens: tokens(r.Usage.OutputTokens)}, nil
}
