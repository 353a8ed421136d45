package replay

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"net/http"
	"strconv"
)

// RoundTripper returns an http.RoundTripper that answers requests from the
// session. Requests to allowed hosts go to next (http.DefaultTransport when
// nil). Refused requests return an error wrapping ErrUnexpected,
// ErrMismatched, ErrExhausted, ErrFinished or ErrTooLarge.
func (s *Session) RoundTripper(next http.RoundTripper) http.RoundTripper {
	if next == nil {
		next = http.DefaultTransport
	}
	return &roundTripper{s: s, next: next}
}

// Client returns an *http.Client whose transport is s.RoundTripper(next).
func (s *Session) Client(next http.RoundTripper) *http.Client {
	return &http.Client{Transport: s.RoundTripper(next)}
}

type roundTripper struct {
	s    *Session
	next http.RoundTripper
}

var _ http.RoundTripper = (*roundTripper)(nil)

// RoundTrip answers req from the session, or passes it to an allowed host.
func (t *roundTripper) RoundTrip(req *http.Request) (*http.Response, error) {
	if req.URL == nil || !req.URL.IsAbs() {
		closeBody(req)
		return nil, errors.New("api replay: request without an absolute URL")
	}
	body, tooLarge, err := readBody(req.Body)
	if err != nil {
		return nil, fmt.Errorf("api replay: read request body: %w", err)
	}
	o := t.s.decide(newRequest(req, body, tooLarge))
	switch {
	case o.err != nil:
		return nil, o.err
	case o.pass:
		out := req.Clone(req.Context())
		out.Body = io.NopCloser(bytes.NewReader(body))
		out.ContentLength = int64(len(body))
		out.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(body)), nil }
		resp, err := t.next.RoundTrip(out)
		resp = t.s.noteRecorded(o.rec, resp, err)
		if err != nil {
			t.s.noteUpstream(o.index, 0, err)
			return nil, err
		}
		t.s.noteUpstream(o.index, resp.StatusCode, nil)
		return resp, nil
	default:
		return replyResponse(o.reply, req), nil
	}
}

// readBody reads and closes body, up to maxBody bytes.
func readBody(body io.ReadCloser) ([]byte, bool, error) {
	if body == nil || body == http.NoBody {
		return nil, false, nil
	}
	defer body.Close()
	b, err := io.ReadAll(io.LimitReader(body, maxBody+1))
	if err != nil {
		return nil, false, err
	}
	if len(b) > maxBody {
		return nil, true, nil
	}
	return b, false, nil
}

func closeBody(req *http.Request) {
	if req.Body != nil {
		req.Body.Close()
	}
}

// replyResponse builds the HTTP response for a declared reply. HEAD gets
// the headers and no body.
func replyResponse(r *Reply, req *http.Request) *http.Response {
	h := make(http.Header, len(r.Headers)+1)
	for k, v := range r.Headers {
		h.Set(k, v)
	}
	h.Set("Content-Length", strconv.Itoa(len(r.Body)))
	body := r.Body
	if req.Method == http.MethodHead {
		body = nil
	}
	return &http.Response{
		Status:        strconv.Itoa(r.Status) + " " + http.StatusText(r.Status),
		StatusCode:    r.Status,
		Proto:         "HTTP/1.1",
		ProtoMajor:    1,
		ProtoMinor:    1,
		Header:        h,
		Body:          io.NopCloser(bytes.NewReader(body)),
		ContentLength: int64(len(r.Body)),
		Request:       req,
	}
}
