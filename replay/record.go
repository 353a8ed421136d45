package replay

import (
	"bytes"
	"io"
	"mime"
	"net/http"
	"net/url"
	"sort"

	"github.com/agentevals-go/agentevals/sanitize"
)

// Recording: a session made by NewRecorder declares nothing and forwards
// every request to its real host (through the transport or proxy it is
// used with), keeping each request and the host's reply, so they can be
// written as fixtures (suite.Recordings.Write) that the next run replays
// strictly.

// Recorded is one request a recorder forwarded and the reply it got.
type Recorded struct {
	Method string
	// URL is scheme://host[:port]/path without the query (default ports
	// omitted), as an expect_request url.
	URL   string
	Query url.Values
	// Body is the request body (nil when empty).
	Body []byte
	// Status, ContentType and Reply are the upstream's reply; Status is 0
	// when the request failed (Err says why).
	Status      int
	ContentType string
	Reply       []byte
	Err         string
}

// NewRecorder returns a session that records instead of replaying.
func NewRecorder() *Session {
	s := (&Fixtures{}).NewSession()
	s.recording = true
	return s
}

// Recorded returns the requests a recorder forwarded, in arrival order.
func (s *Session) Recorded() []Recorded {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := make([]Recorded, len(s.recorded))
	for i, r := range s.recorded {
		out[i] = *r
		out[i].Query = url.Values(cloneValues(r.Query))
	}
	return out
}

func cloneValues(q url.Values) map[string][]string {
	out := make(map[string][]string, len(q))
	for k, vs := range q {
		out[k] = append([]string(nil), vs...)
	}
	return out
}

// record keeps r and returns its slot; the caller holds s.mu.
func (s *Session) record(r *request) *Recorded {
	rec := &Recorded{Method: r.method, URL: r.url(), Query: r.query}
	if len(r.body) > 0 {
		rec.Body = append([]byte(nil), r.body...)
	}
	s.recorded = append(s.recorded, rec)
	return rec
}

// noteRecorded stores the upstream's reply to a recorded request and
// returns resp with its body buffered (up to maxBody bytes, the rest is
// still streamed to the agent but the recording is marked too large).
func (s *Session) noteRecorded(rec *Recorded, resp *http.Response, err error) *http.Response {
	s.mu.Lock()
	defer s.mu.Unlock()
	if rec == nil {
		return resp
	}
	if err != nil {
		rec.Err = "upstream: " + redactText(err.Error())
		return resp
	}
	body, rerr := io.ReadAll(io.LimitReader(resp.Body, maxBody+1))
	rest := resp.Body
	resp.Body = struct {
		io.Reader
		io.Closer
	}{io.MultiReader(bytes.NewReader(body), rest), rest}
	rec.Status = resp.StatusCode
	if ct := resp.Header.Get("Content-Type"); ct != "" {
		if mt, params, perr := mime.ParseMediaType(ct); perr == nil {
			rec.ContentType = mime.FormatMediaType(mt, params)
		}
	}
	switch {
	case rerr != nil:
		rec.Err = "upstream: read reply: " + redactText(rerr.Error())
	case len(body) > maxBody:
		rec.Err = "the reply is larger than 16 MiB"
	default:
		rec.Reply = body
	}
	return resp
}

// SensitiveQuery lists, sorted, the query parameters of r whose names or
// values look like credentials (by the recording's stricter rules): a
// fixture would have to store them.
func (r Recorded) SensitiveQuery() []string {
	var out []string
	for k, vs := range r.Query {
		for _, v := range vs {
			if recordSensitiveName(k) || recordSecretValue(k) || recordSecretValue(v) {
				out = append(out, sanitize.String(k))
				break
			}
		}
	}
	sort.Strings(out)
	return out
}

// SensitiveBody reports whether the request's JSON body holds a field or
// value that looks like a credential.
func (r Recorded) SensitiveBody() bool {
	if len(r.Body) == 0 {
		return false
	}
	_, changed := recordRedactedJSON(r.Body)
	return changed
}

// RedactedReply is the reply (which must be JSON) unchanged, or, when it
// holds credential-like fields, keys or values, re-encoded with them
// redacted, each value keeping its JSON type.
func (r Recorded) RedactedReply() []byte {
	red, changed := recordRedactedJSON(r.Reply)
	if !changed {
		return r.Reply
	}
	return red
}
