package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"time"

	"agentevals/sanitize"
)

// httpAgent POSTs the question JSON to a URL and reads a Response JSON, or
// plain text, back.
type httpAgent struct {
	cfg     AgentConfig
	headers http.Header
	timeout time.Duration
	client  *http.Client
}

var (
	_ Agent     = (*httpAgent)(nil)
	_ io.Closer = (*httpAgent)(nil)
)

func newHTTPAgent(cfg AgentConfig, timeout time.Duration, opts AgentOptions) (*httpAgent, error) {
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
	h.Set("Content-Type", "application/json")
	h.Set("Accept", "application/json, text/plain;q=0.9")
	tr := http.DefaultTransport.(*http.Transport).Clone()
	// Keep one idle connection per concurrent case: the default (2) would
	// open and close connections at every request under load.
	tr.MaxIdleConnsPerHost = opts.Concurrency
	tr.MaxIdleConns = opts.Concurrency
	return &httpAgent{cfg: cfg, headers: h, timeout: timeout, client: &http.Client{Transport: tr}}, nil
}

// Answer posts the question.
func (a *httpAgent) Answer(ctx context.Context, q Question) (Response, error) {
	in, err := json.Marshal(q)
	if err != nil {
		return Response{}, &AgentError{Kind: "bad_question", Message: err.Error()}
	}
	ctx, cancel := context.WithTimeout(ctx, a.timeout)
	defer cancel()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, a.cfg.URL, bytes.NewReader(in))
	if err != nil {
		return Response{}, &AgentError{Kind: "start", Message: err.Error()}
	}
	req.Header = a.headers.Clone()
	addReplayHeaders(ctx, req.Header) // replay: the case's proxy (runner/replay.go)
	details := map[string]any{"url": sanitize.URL(a.cfg.URL)}
	res, err := a.client.Do(req)
	if err != nil {
		switch {
		case errors.Is(ctx.Err(), context.DeadlineExceeded):
			return Response{}, &AgentError{Kind: "timeout", Message: fmt.Sprintf("no answer within %s", a.timeout), Details: details}
		case ctx.Err() != nil:
			return Response{}, &AgentError{Kind: "interrupted", Message: "the run was interrupted", Details: details}
		}
		return Response{}, &AgentError{Kind: "http", Message: err.Error(), Details: details}
	}
	defer res.Body.Close()
	body := newAnswerBuffer(a.cfg.MaxAnswerBytes, maxStdout)
	if _, err := io.Copy(body, res.Body); err != nil {
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return Response{}, &AgentError{Kind: "timeout", Message: fmt.Sprintf("no answer within %s", a.timeout), Details: details}
		}
		return Response{}, &AgentError{Kind: "http", Message: "read response: " + err.Error(), Details: details}
	}
	details["status"] = res.StatusCode
	if res.StatusCode/100 != 2 {
		details["body"] = excerpt(body.buf)
		return Response{}, &AgentError{Kind: "http_status", Message: res.Status, Details: details}
	}
	if body.over {
		return Response{}, &AgentError{Kind: "bad_response", Message: fmt.Sprintf("body exceeds %d bytes besides the answer", maxStdout), Details: details}
	}
	// Like a command agent's stdout: a JSON object is a Response, whatever
	// the Content-Type (servers often label JSON text/plain); anything else
	// is plain text, the output with actions null.
	resp, err := parseReply(body.buf, true)
	if err != nil {
		details["body"] = excerpt(body.buf)
		return Response{}, &AgentError{Kind: "bad_response", Message: err.Error(), Details: details}
	}
	return withTruncation(resp, body), nil
}

// Close releases idle connections.
func (a *httpAgent) Close() error {
	a.client.CloseIdleConnections()
	return nil
}
