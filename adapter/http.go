package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strings"
	"time"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/llm"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/suite"
)

// SessionHeader is the header an http agent receives the session id in.
const SessionHeader = "X-Session-Id"

// HTTP is the http agent: it POSTs the question JSON to a URL and reads a
// Response JSON, or plain text, back.
type HTTP struct {
	cfg     suite.AgentConfig
	headers http.Header
	timeout time.Duration
	client  *http.Client
	limiter *llm.Limiter // nil: not paced
	proto   chatProtocol // nil: the Question JSON in, a Response out
}

var (
	_ agent.Agent = (*HTTP)(nil)
	_ io.Closer   = (*HTTP)(nil)
)

func newHTTPAgent(cfg suite.AgentConfig, timeout time.Duration, opts Options) (*HTTP, error) {
	h := http.Header{}
	for k, v := range cfg.Headers {
		h.Set(k, v)
	}
	for k, name := range cfg.HeaderEnv {
		v, ok := opts.LookupEnv(name)
		if !ok {
			return nil, fmt.Errorf("new agent %q: $.agent.header_env[%q]: environment variable %s is not set", cfg.Name, k, name)
		}
		h.Set(k, v)
	}
	proto := chatProtocolOf(cfg.Protocol)
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/plain;q=0.9")
	if proto != nil {
		h.Set("Accept", proto.accept())
	}
	tr := http.DefaultTransport.(*http.Transport).Clone()
	// Keep one idle connection per concurrent case: the default (2) would
	// open and close connections at every request under load.
	tr.MaxIdleConnsPerHost = opts.Concurrency
	tr.MaxIdleConns = opts.Concurrency
	return &HTTP{cfg: cfg, headers: h, timeout: timeout, client: &http.Client{Transport: tr}, limiter: opts.Limiter, proto: proto}, nil
}

// Answer posts the question. A 429 (or a 503 with Retry-After) is the
// server pacing us: the request is repeated after the Retry-After it names
// (else 1s, 2s, 4s, … up to 20s), at most llm.MaxRateLimitedAttempts
// times in all and within the case's timeout, and the agent's shared
// limiter (Options.Limiter) slows every worker down meanwhile.
func (a *HTTP) Answer(ctx context.Context, q agent.Question) (agent.Response, error) {
	in, err := a.requestBody(q)
	if err != nil {
		return agent.Response{}, &Error{Kind: "bad_question", Message: err.Error()}
	}
	ctx, cancel := context.WithTimeout(ctx, a.timeout)
	defer cancel()
	for attempt := 1; ; attempt++ {
		if err := a.limiter.Wait(ctx); err != nil {
			return agent.Response{}, a.ctxError(ctx, map[string]any{"url": a.cfg.URL})
		}
		resp, status, retryAfter, err := a.post(ctx, in, q.SessionID)
		limited := status == http.StatusTooManyRequests || (status == http.StatusServiceUnavailable && retryAfter > 0)
		a.limiter.Observe(status == http.StatusTooManyRequests, retryAfter, err == nil)
		if !limited || attempt >= llm.MaxRateLimitedAttempts {
			return resp, err
		}
		wait := retryAfter
		if wait == 0 {
			wait = min(time.Second<<(attempt-1), 20*time.Second)
		}
		t := time.NewTimer(wait)
		select {
		case <-t.C:
		case <-ctx.Done():
			t.Stop()
			return resp, err // the case's deadline came first: report the last 429
		}
	}
}

// requestBody is the body of the question's request: the Question JSON, or
// the conversation in the agent's chat protocol (the agent's name as the
// model).
func (a *HTTP) requestBody(q agent.Question) ([]byte, error) {
	if a.proto != nil {
		return a.proto.request(q, a.cfg.Name)
	}
	return json.Marshal(q)
}

// ctxError is the agent error of a request whose context ended.
func (a *HTTP) ctxError(ctx context.Context, details map[string]any) error {
	if errors.Is(ctx.Err(), context.DeadlineExceeded) {
		return &Error{Kind: "timeout", Message: fmt.Sprintf("no answer within %s", a.timeout), Details: details}
	}
	return &Error{Kind: "interrupted", Message: "the run was interrupted", Details: details}
}

// post makes one request; status is the HTTP status (0 without a reply)
// and retryAfter the server's Retry-After.
func (a *HTTP) post(ctx context.Context, in []byte, session string) (agent.Response, int, time.Duration, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.cfg.URL, bytes.NewReader(in))
	if err != nil {
		return agent.Response{}, 0, 0, &Error{Kind: "start", Message: err.Error()}
	}
	req.Header = a.headers.Clone()
	addReplayHeaders(ctx, req.Header) // replay: the case's proxy (runner/replay.go)
	addTraceHeader(ctx, req.Header)
	if session != "" { // a turn of a conversation (agent/history.go)
		req.Header.Set(SessionHeader, session)
	}
	details := map[string]any{"url": sanitize.URL(a.cfg.URL)}
	res, err := a.client.Do(req)
	if err != nil {
		if ctx.Err() != nil {
			return agent.Response{}, 0, 0, a.ctxError(ctx, details)
		}
		return agent.Response{}, 0, 0, &Error{Kind: "http", Message: err.Error(), Details: details}
	}
	defer res.Body.Close()
	retryAfter := llm.RetryAfter(res.Header, time.Now())
	body := newAnswerBuffer(a.cfg.MaxAnswerBytes, maxStdout)
	if _, err := io.Copy(body, res.Body); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return agent.Response{}, 0, 0, a.ctxError(ctx, details)
		}
		return agent.Response{}, 0, 0, &Error{Kind: "http", Message: "read response: " + err.Error(), Details: details}
	}
	details["status"] = res.StatusCode
	if res.StatusCode/100 != 2 {
		details["body"] = excerpt(body.Buf)
		msg := res.Status
		if b := strings.TrimSpace(quoteReply(body.Buf)); b != `""` {
			msg += ": " + b
		}
		return agent.Response{}, res.StatusCode, retryAfter, &Error{Kind: "http_status", Message: msg, Details: details}
	}
	if body.over {
		return agent.Response{}, res.StatusCode, 0, &Error{Kind: "bad_response", Message: fmt.Sprintf("body exceeds %d bytes besides the answer", maxStdout), Details: details}
	}
	// Like a command agent's stdout: a JSON object is a Response, whatever
	// the Content-Type (servers often label JSON text/plain); anything else
	// is plain text, the output with actions null.
	var resp agent.Response
	if a.proto != nil {
		if body.cut {
			return agent.Response{}, res.StatusCode, 0, &Error{Kind: "bad_response", Message: fmt.Sprintf("the reply exceeds the agent's max_answer_bytes (%d)", body.limit), Details: details}
		}
		resp, err = a.proto.read(res.Header.Get("Content-Type"), body.Buf)
		if err == nil {
			err = CheckResponse(&resp)
		}
	} else {
		resp, err = parseReplyAs(body.Buf, a.cfg.Reply)
	}
	if err != nil {
		details["body"] = excerpt(body.Buf)
		return agent.Response{}, res.StatusCode, 0, &Error{Kind: "bad_response", Message: err.Error(), Details: details}
	}
	return withTruncation(resp, body), res.StatusCode, 0, nil
}

// Close releases idle connections.
func (a *HTTP) Close() error {
	a.client.CloseIdleConnections()
	return nil
}
