package main

import (
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"testing"
)

// The scripted OpenAI-compatible model every framework agent calls. Within
// one user turn its replies follow a fixed script: the first request asks
// for lookup_order, the second (with that tool's result) for track_parcel,
// the third gets the answer; so each agent call is exactly three model
// calls, whatever the framework sends besides. The order is 42 unless the
// turn's user message names order 7, whose parcel the agents' tool cannot
// track (it throws). Every reply reports the same usage, plain or as a
// chunk stream when the request asks for one.
const (
	scriptPromptTokens = 50
	scriptOutputTokens = 10
)

// scriptedCall is one tool call of the script, as the model asks for it.
type scriptedCall struct{ name, args string }

// orderScript is the script for one order: its tool calls and the answer.
type orderScript struct {
	calls  []scriptedCall
	answer string
}

var (
	modelScript = orderScript{[]scriptedCall{
		{"lookup_order", `{"id":42}`},
		{"track_parcel", `{"order_id":42,"carrier":"DHL"}`},
	}, "Order 42 has shipped with DHL and arrives on Friday."}
	brokenScript = orderScript{[]scriptedCall{
		{"lookup_order", `{"id":7}`},
		{"track_parcel", `{"order_id":7,"carrier":"DHL"}`},
	}, "Order 7 has shipped, but its parcel cannot be tracked."}
)

// scriptedChat is the model server; calls counts the requests it answered.
type scriptedChat struct {
	srv   *httptest.Server
	calls atomic.Int64
	ids   atomic.Int64
}

func newScriptedChat(t *testing.T) *scriptedChat {
	t.Helper()
	m := &scriptedChat{}
	m.srv = httptest.NewServer(http.HandlerFunc(m.serve))
	t.Cleanup(m.srv.Close)
	return m
}

// scriptMessage is a request message; only its role and text matter.
type scriptMessage struct {
	Role    string          `json:"role"`
	Content json.RawMessage `json:"content"`
}

// scriptStep is the script of the request's current turn (its last user
// message) and how many of its tool calls the turn has answered: the tool
// results after that message.
func scriptStep(messages []scriptMessage) (orderScript, int) {
	n, script := 0, modelScript
	for _, msg := range messages {
		switch msg.Role {
		case "user":
			n, script = 0, modelScript
			if strings.Contains(string(msg.Content), "order 7") {
				script = brokenScript
			}
		case "tool":
			n++
		}
	}
	return script, n
}

func (m *scriptedChat) serve(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodPost && strings.HasSuffix(r.URL.Path, "/responses") {
		m.serveResponses(w, r)
		return
	}
	if r.Method != http.MethodPost || !strings.HasSuffix(r.URL.Path, "/chat/completions") {
		http.Error(w, "the scripted model serves POST /chat/completions and /responses only, not "+r.Method+" "+r.URL.Path, http.StatusNotFound)
		return
	}
	var req struct {
		Stream   bool            `json:"stream"`
		Messages []scriptMessage `json:"messages"`
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 4<<20))
	if err := json.Unmarshal(body, &req); err != nil || len(req.Messages) == 0 {
		http.Error(w, fmt.Sprintf("want a chat completions request with messages: %v", err), http.StatusBadRequest)
		return
	}
	m.calls.Add(1)
	var call *scriptedCall
	script, n := scriptStep(req.Messages)
	if n < len(script.calls) {
		call = &script.calls[n]
	}
	id := fmt.Sprintf("call_%d", m.ids.Add(1))
	usage := fmt.Sprintf(`{"prompt_tokens": %d, "completion_tokens": %d, "total_tokens": %d}`, scriptPromptTokens, scriptOutputTokens, scriptPromptTokens+scriptOutputTokens)
	head := `"id": "chatcmpl-` + id + `", "created": 1, "model": "scripted-model"`
	toolCall := func(withIndex bool) string {
		args, _ := json.Marshal(call.args)
		idx := ""
		if withIndex {
			idx = `"index": 0, `
		}
		return fmt.Sprintf(`[{%s"id": %q, "type": "function", "function": {"name": %q, "arguments": %s}}]`, idx, id, call.name, args)
	}
	if !req.Stream {
		w.Header().Set("Content-Type", "application/json")
		msg, finish := fmt.Sprintf(`{"role": "assistant", "content": %q}`, script.answer), "stop"
		if call != nil {
			msg, finish = `{"role": "assistant", "content": null, "tool_calls": `+toolCall(false)+`}`, "tool_calls"
		}
		fmt.Fprintf(w, `{%s, "object": "chat.completion", "choices": [{"index": 0, "finish_reason": %q, "message": %s}], "usage": %s}`, head, finish, msg, usage)
		return
	}
	w.Header().Set("Content-Type", "text/event-stream")
	chunk := func(delta, finish string) {
		fmt.Fprintf(w, "data: {%s, \"object\": \"chat.completion.chunk\", \"choices\": [{\"index\": 0, \"delta\": %s, \"finish_reason\": %s}]}\n\n", head, delta, finish)
	}
	if call != nil {
		chunk(`{"role": "assistant", "content": null, "tool_calls": `+toolCall(true)+`}`, "null")
		chunk(`{}`, `"tool_calls"`)
	} else {
		half := len(script.answer) / 2
		chunk(fmt.Sprintf(`{"role": "assistant", "content": %q}`, script.answer[:half]), "null")
		chunk(fmt.Sprintf(`{"content": %q}`, script.answer[half:]), "null")
		chunk(`{}`, `"stop"`)
	}
	fmt.Fprintf(w, "data: {%s, \"object\": \"chat.completion.chunk\", \"choices\": [], \"usage\": %s}\n\ndata: [DONE]\n\n", head, usage)
}

// serveResponses answers the OpenAI Responses API (not streamed) by the
// same script: the input items after the last user message that are
// function call outputs say how far the turn is.
func (m *scriptedChat) serveResponses(w http.ResponseWriter, r *http.Request) {
	var req struct {
		Stream bool `json:"stream"`
		Input  []struct {
			Type    string          `json:"type"`
			Role    string          `json:"role"`
			Content json.RawMessage `json:"content"`
		} `json:"input"`
	}
	body, _ := io.ReadAll(io.LimitReader(r.Body, 4<<20))
	if err := json.Unmarshal(body, &req); err != nil || len(req.Input) == 0 || req.Stream {
		http.Error(w, fmt.Sprintf("want a Responses API request with input items, not streamed: %v", err), http.StatusBadRequest)
		return
	}
	m.calls.Add(1)
	msgs := make([]scriptMessage, 0, len(req.Input))
	for _, item := range req.Input {
		switch {
		case item.Role == "user":
			msgs = append(msgs, scriptMessage{Role: "user", Content: item.Content})
		case item.Type == "function_call_output":
			msgs = append(msgs, scriptMessage{Role: "tool"})
		}
	}
	script, n := scriptStep(msgs)
	id := m.ids.Add(1)
	output := fmt.Sprintf(`{"type": "message", "id": "msg_%d", "role": "assistant", "status": "completed", "content": [{"type": "output_text", "text": %q, "annotations": []}]}`, id, script.answer)
	if n < len(script.calls) {
		call := script.calls[n]
		args, _ := json.Marshal(call.args)
		output = fmt.Sprintf(`{"type": "function_call", "id": "fc_%d", "call_id": "call_%d", "name": %q, "arguments": %s, "status": "completed"}`, id, id, call.name, args)
	}
	w.Header().Set("Content-Type", "application/json")
	fmt.Fprintf(w, `{"id": "resp_%d", "object": "response", "created_at": 1, "status": "completed", "model": "scripted-model", "output": [%s],
	  "usage": {"input_tokens": %d, "output_tokens": %d, "total_tokens": %d, "input_tokens_details": {"cached_tokens": 0}, "output_tokens_details": {"reasoning_tokens": 0}}}`,
		id, output, scriptPromptTokens, scriptOutputTokens, scriptPromptTokens+scriptOutputTokens)
}
