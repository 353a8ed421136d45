package adapter

import (
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"net/http"

	"github.com/openai/openai-go/v3/packages/ssestream"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/score"
	"github.com/agentevals-go/agentevals/suite"
)

// chatProtocol is how an http agent that is a chat endpoint is spoken to:
// the request body of one turn (the whole conversation so far, the way
// its API carries it) and the reading of its reply.
type chatProtocol interface {
	request(q agent.Question, model string) ([]byte, error)
	accept() string
	read(contentType string, body []byte) (agent.Response, error)
}

var (
	_ chatProtocol = openAIChat{}
	_ chatProtocol = openAIResponses{}
	_ chatProtocol = aiSDKUI{}
)

// chatProtocolOf returns the protocol named in the agent section; nil for
// the default (the Question JSON in, a Response out).
func chatProtocolOf(name string) chatProtocol {
	switch name {
	case suite.ProtocolOpenAIChat:
		return openAIChat{}
	case suite.ProtocolOpenAIResponses:
		return openAIResponses{}
	case suite.ProtocolAISDKUI:
		return aiSDKUI{}
	}
	return nil
}

// turns is the conversation of a question as role and text: its messages
// in a conversation, else the question alone as the user's message.
func turns(q agent.Question) []agent.Message {
	if len(q.Messages) > 0 {
		return q.Messages
	}
	text, ok := q.Text()
	if !ok {
		text = string(q.Question) // a structured question goes as its JSON
	}
	return []agent.Message{{Role: agent.RoleUser, Content: text}}
}

// sseEvents reads a text/event-stream body: the data of each event, up to
// a "[DONE]" one.
func sseEvents(body []byte) ([][]byte, error) {
	res := &http.Response{Header: http.Header{"Content-Type": {"text/event-stream"}}, Body: io.NopCloser(bytes.NewReader(body))}
	dec := ssestream.NewDecoder(res)
	defer dec.Close()
	var out [][]byte
	for dec.Next() {
		data := dec.Event().Data
		if bytes.HasPrefix(data, []byte("[DONE]")) {
			break
		}
		if len(bytes.TrimSpace(data)) > 0 {
			out = append(out, data)
		}
	}
	return out, dec.Err()
}

// isEventStream reports whether a reply is a server-sent event stream: by
// its Content-Type, or by starting with a "data:" line when the server
// labels it otherwise.
func isEventStream(contentType string, body []byte) bool {
	return bytes.HasPrefix([]byte(contentType), []byte("text/event-stream")) || bytes.HasPrefix(bytes.TrimSpace(body), []byte("data:"))
}

// textOutput is a reply's text as the Response's output.
func textOutput(text string) json.RawMessage {
	b, _ := json.Marshal(text)
	return b
}

// tokens returns a usage count for the Response (nil when 0: not given).
func tokens(n int64) *int64 {
	if n <= 0 {
		return nil
	}
	return &n
}

// errStream is the error of a stream that reported an error itself.
func errStream(msg string) error {
	return fmt.Errorf("the stream reported an error: %s", quoteReply([]byte(msg)))
}

// callActions turns the calls a protocol carries into actions, in order;
// nil when there are none (the calls may then come from spans).
func callActions(calls []score.Action) []score.Action {
	if len(calls) == 0 {
		return nil
	}
	return calls
}
