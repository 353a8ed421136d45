package adapter

import (
	"context"
	"encoding/json"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/suite"
)

// conversationTurn is the second user turn of a conversation.
var conversationTurn = agent.Question{ID: "q", Question: json.RawMessage(`"It is A-1042."`), Conversation: agent.Conversation{
	SessionID: "s1", Turn: 2, Messages: []agent.Message{
		{Role: agent.RoleUser, Content: "Where is my order?"},
		{Role: agent.RoleAssistant, Content: "What is the order number?"},
		{Role: agent.RoleUser, Content: "It is A-1042."}}}}

// TestHTTP_ChatProtocols: each chat protocol posts the whole conversation
// the way its API carries it and reads the answer, the tool calls (with
// their outcomes where the protocol carries them) and the usage from the
// reply, plain or streamed.
func TestHTTP_ChatProtocols(t *testing.T) {
	const lookup = `{"id":"A-1042"}`
	tests := []struct {
		name, protocol, contentType, reply string
		wantInRequest                      []string
		wantActions                        string // JSON; "null" for none
		wantTokens                         int64
	}{
		{name: "openai chat", protocol: suite.ProtocolOpenAIChat, contentType: "application/json",
			reply: `{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"It ships today.",
				"tool_calls":[{"id":"t1","type":"function","function":{"name":"lookup_order","arguments":"{\"id\":\"A-1042\"}"}}]}}],"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17}}`,
			wantInRequest: []string{`"model":"Shop"`, `{"content":"Where is my order?","role":"user"}`, `{"content":"What is the order number?","role":"assistant"}`},
			wantActions:   `[{"name":"lookup_order","arguments":` + lookup + `}]`, wantTokens: 12},
		{name: "openai chat without tool calls", protocol: suite.ProtocolOpenAIChat, contentType: "application/json",
			reply:       `{"id":"c1","object":"chat.completion","created":1,"model":"m","choices":[{"index":0,"finish_reason":"stop","message":{"role":"assistant","content":"It ships today."}}]}`,
			wantActions: `null`},
		{name: "openai chat streamed", protocol: suite.ProtocolOpenAIChat, contentType: "text/event-stream",
			reply: sse(`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"role":"assistant","content":"It ships "}}]}`,
				`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"id":"t1","type":"function","function":{"name":"lookup_order","arguments":"{\"id\":"}}]}}]}`,
				`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"tool_calls":[{"index":0,"function":{"arguments":"\"A-1042\"}"}}]}}]}`,
				`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[{"index":0,"delta":{"content":"today."},"finish_reason":"stop"}]}`,
				`{"id":"c1","object":"chat.completion.chunk","created":1,"model":"m","choices":[],"usage":{"prompt_tokens":12,"completion_tokens":5,"total_tokens":17}}`, `[DONE]`),
			wantActions: `[{"name":"lookup_order","arguments":` + lookup + `}]`, wantTokens: 12},
		{name: "openai responses", protocol: suite.ProtocolOpenAIResponses, contentType: "application/json",
			reply: `{"id":"r1","object":"response","created_at":1,"model":"m","status":"completed","output":[
				{"type":"function_call","id":"f1","call_id":"c1","name":"lookup_order","arguments":"{\"id\":\"A-1042\"}","status":"completed"},
				{"type":"message","id":"m1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"It ships today.","annotations":[]}]}],
				"usage":{"input_tokens":12,"output_tokens":5,"total_tokens":17}}`,
			wantInRequest: []string{`"input":[`, `"role":"assistant"`, `"What is the order number?"`},
			wantActions:   `[{"name":"lookup_order","arguments":` + lookup + `}]`, wantTokens: 12},
		{name: "openai responses streamed", protocol: suite.ProtocolOpenAIResponses, contentType: "text/event-stream",
			reply: sse(`{"type":"response.output_text.delta","item_id":"m1","output_index":0,"content_index":0,"delta":"It ships today.","sequence_number":1}`,
				`{"type":"response.completed","sequence_number":2,"response":{"id":"r1","object":"response","created_at":1,"model":"m","status":"completed","output":[
				{"type":"message","id":"m1","role":"assistant","status":"completed","content":[{"type":"output_text","text":"It ships today.","annotations":[]}]}],"usage":{"input_tokens":12,"output_tokens":5,"total_tokens":17}}}`),
			wantActions: `null`, wantTokens: 12},
		{name: "ai sdk ui message stream", protocol: suite.ProtocolAISDKUI, contentType: "text/event-stream",
			reply: sse(`{"type":"start","messageId":"a1"}`, `{"type":"start-step"}`,
				`{"type":"tool-input-start","toolCallId":"t1","toolName":"lookup_order"}`,
				`{"type":"tool-input-delta","toolCallId":"t1","inputTextDelta":"{\"id\":\"A-1042\"}"}`,
				`{"type":"tool-input-available","toolCallId":"t1","toolName":"lookup_order","input":{"id":"A-1042"}}`,
				`{"type":"tool-output-available","toolCallId":"t1","output":{"status":"shipped"}}`,
				`{"type":"tool-input-available","toolCallId":"t2","toolName":"notify","input":{}}`,
				`{"type":"tool-output-error","toolCallId":"t2","errorText":"mail down"}`,
				`{"type":"finish-step"}`, `{"type":"start-step"}`,
				`{"type":"text-start","id":"x"}`, `{"type":"text-delta","id":"x","delta":"It ships "}`, `{"type":"text-delta","id":"x","delta":"today."}`,
				`{"type":"text-end","id":"x"}`, `{"type":"finish-step"}`, `{"type":"finish"}`, `[DONE]`),
			wantInRequest: []string{`"id":"s1"`, `"trigger":"submit-message"`, `{"id":"m2","role":"assistant","parts":[{"type":"text","text":"What is the order number?"}]}`},
			wantActions:   `[{"name":"lookup_order","arguments":` + lookup + `,"result":{"status":"shipped"},"status":"ok"},{"name":"notify","arguments":{},"result":"mail down","status":"error"}]`},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			var got []byte
			srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				got, _ = io.ReadAll(r.Body)
				w.Header().Set("Content-Type", tc.contentType)
				io.WriteString(w, tc.reply)
			}))
			defer srv.Close()
			a := mustAgent(t, suite.AgentConfig{Name: "Shop", Type: suite.AgentHTTP, URL: srv.URL, Protocol: tc.protocol, Timeout: suite.Duration(10 * time.Second)}, Options{Concurrency: 1})
			resp, err := a.Answer(context.Background(), conversationTurn)
			if err != nil {
				t.Fatal(err)
			}
			for _, want := range tc.wantInRequest {
				if !strings.Contains(string(got), want) {
					t.Errorf("request %s lacks %s", got, want)
				}
			}
			if string(resp.Output) != `"It ships today."` {
				t.Errorf("output = %s", resp.Output)
			}
			actions, _ := json.Marshal(resp.Actions)
			if string(actions) != tc.wantActions {
				t.Errorf("actions = %s\nwant      %s", actions, tc.wantActions)
			}
			if tc.wantTokens > 0 && (resp.InputTokens == nil || *resp.InputTokens != tc.wantTokens) {
				t.Errorf("input tokens = %v, want %d", resp.InputTokens, tc.wantTokens)
			}
		})
	}
}

// TestHTTP_ErrorShowsBody: a refused request's error says what the service
// answered, bounded, not only the status line.
func TestHTTP_ErrorShowsBody(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, `{"error": "messages[0] lacks parts"}`+strings.Repeat("x", 5000), http.StatusBadRequest)
	}))
	defer srv.Close()
	a := mustAgent(t, suite.AgentConfig{Name: "A", Type: suite.AgentHTTP, URL: srv.URL, Timeout: suite.Duration(10 * time.Second)}, Options{Concurrency: 1})
	_, err := a.Answer(context.Background(), agent.Question{ID: "q", Question: json.RawMessage(`"hi"`)})
	if err == nil || !strings.Contains(err.Error(), "400 Bad Request") || !strings.Contains(err.Error(), `messages[0] lacks parts`) || len(err.Error()) > 300 {
		t.Errorf("error = %v, want the status and the start of the body, bounded", err)
	}
}

// TestHTTP_ChatProtocolStreamError: an error chunk fails the case.
func TestHTTP_ChatProtocolStreamError(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Type", "text/event-stream")
		io.WriteString(w, sse(`{"type":"start"}`, `{"type":"error","errorText":"model overloaded"}`, `[DONE]`))
	}))
	defer srv.Close()
	a := mustAgent(t, suite.AgentConfig{Name: "A", Type: suite.AgentHTTP, URL: srv.URL, Protocol: suite.ProtocolAISDKUI, Timeout: suite.Duration(10 * time.Second)}, Options{Concurrency: 1})
	_, err := a.Answer(context.Background(), agent.Question{ID: "q", Question: json.RawMessage(`"hi"`)})
	if err == nil || !strings.Contains(err.Error(), "model overloaded") {
		t.Errorf("error = %v, want the stream's error", err)
	}
}

// sse writes server-sent events, one data line each.
func sse(data ...string) string {
	var b strings.Builder
	for _, d := range data {
		b.WriteString("data: " + strings.Join(strings.Fields(d), " ") + "\n\n")
	}
	return b.String()
}
