package replay

import (
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"

	"github.com/agentevals-go/agentevals/models"
)

// Errors a transport returns (wrapped) for a request replay refused. The
// agent sees them (or a 502 through the proxy); Finish reports them again.
var (
	ErrUnexpected = errors.New("unexpected request: host neither declared nor allowed")
	ErrMismatched = errors.New("request does not match the next declared interaction")
	ErrExhausted  = errors.New("request after every declared interaction was used")
	ErrFinished   = errors.New("replay session already finished")
	ErrTooLarge   = errors.New("request body too large for replay")
)

// Status is what became of one observed request.
type Status = models.ReplayStatus

// Observed request statuses.
const (
	Matched    Status = "matched"
	Mismatched Status = "mismatched"
	Unexpected Status = "unexpected"
	Exhausted  Status = "exhausted"
	Allowed    Status = "allowed"  // passed through to an allowed host
	Rejected   Status = "rejected" // body too large to match
)

// maxObserved bounds the observed requests kept in evidence; further ones
// are counted.
const maxObserved = 200

// maxBody bounds a request body read for matching.
const maxBody = 16 << 20

// Session matches one case's requests against its fixtures. It is safe for
// concurrent use; requests are matched in the order they arrive.
type Session struct {
	fx       *Fixtures
	declared map[string]bool // normalized hosts of the declarations

	mu       sync.Mutex
	next     int // index of the next unconsumed declaration
	consumed []bool
	observed []ObservedRequest
	dropped  int
	counts   map[Status]int
	finished bool

	recording bool // NewRecorder: forward everything and keep it
	recorded  []*Recorded
}

// NewSession starts matching a case against f. A nil f declares nothing and
// allows nothing: every request is unexpected.
func (f *Fixtures) NewSession() *Session {
	if f == nil {
		f = &Fixtures{}
	}
	s := &Session{fx: f, declared: map[string]bool{}, consumed: make([]bool, len(f.Interactions)), counts: map[Status]int{}}
	for _, in := range f.Interactions {
		s.declared[in.Request.host] = true
	}
	return s
}

// request is an observed request prepared for matching.
type request struct {
	method, scheme, host, path string
	query                      url.Values
	header                     http.Header
	body                       []byte
	tooLarge                   bool
}

func (r *request) url() string { return r.scheme + "://" + r.host + r.path }

// newRequest captures req (whose URL must be absolute) with its body.
func newRequest(req *http.Request, body []byte, tooLarge bool) *request {
	q, err := url.ParseQuery(req.URL.RawQuery)
	if err != nil && q == nil {
		q = url.Values{}
	}
	return &request{
		method: req.Method, scheme: strings.ToLower(req.URL.Scheme),
		host: normalHost(strings.ToLower(req.URL.Scheme), req.URL.Host), path: escapedPath(req.URL),
		query: q, header: req.Header, body: body, tooLarge: tooLarge,
	}
}

// outcome is the session's decision on one request.
type outcome struct {
	reply *Reply    // answer with this
	pass  bool      // send to the network
	rec   *Recorded // a recorder's slot for the reply (with pass)
	index int       // index of the observed record, -1 if not kept
	err   error     // refuse with this
}

// decide records r and decides how to answer it.
func (s *Session) decide(r *request) outcome {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.finished {
		return outcome{index: -1, err: fmt.Errorf("api replay: %s %s: %w", r.method, redactURLPath(r.url()), ErrFinished)}
	}
	obs := observe(r)
	var o outcome
	switch {
	case r.tooLarge:
		obs.Status, o.err = Rejected, ErrTooLarge
	case s.recording:
		obs.Status, o.pass, o.rec = Allowed, true, s.record(r)
	case s.declared[r.host]:
		if s.next >= len(s.fx.Interactions) {
			obs.Status, o.err = Exhausted, ErrExhausted
			break
		}
		want := &s.fx.Interactions[s.next]
		i := s.next
		obs.Interaction = &i
		if diffs := differences(&want.Request, r); len(diffs) > 0 {
			obs.Status, obs.Differences, o.err = Mismatched, diffs, ErrMismatched
			break
		}
		obs.Status, obs.ResponseStatus = Matched, want.Response.Status
		s.consumed[s.next] = true
		s.next++
		o.reply = &want.Response
	case s.allowed(r.scheme, r.host):
		obs.Status, o.pass = Allowed, true
	default:
		obs.Status, o.err = Unexpected, ErrUnexpected
	}
	if o.err != nil {
		o.err = fmt.Errorf("api replay: %s %s: %w", r.method, obs.URL, o.err)
		obs.Error = o.err.Error()
	}
	s.counts[obs.Status]++
	o.index = -1
	if len(s.observed) < maxObserved {
		o.index = len(s.observed)
		s.observed = append(s.observed, obs)
	} else {
		s.dropped++
	}
	return o
}

// noteUpstream records the real response (or error) of a passed-through request.
func (s *Session) noteUpstream(index, status int, err error) {
	if index < 0 {
		return
	}
	s.mu.Lock()
	defer s.mu.Unlock()
	if err != nil {
		s.observed[index].Error = "upstream: " + redactText(err.Error())
		return
	}
	s.observed[index].ResponseStatus = status
}

// allowed reports whether host (normalized for scheme) is in allow_hosts.
func (s *Session) allowed(scheme, host string) bool {
	name, port := splitHost(scheme, host)
	for _, a := range s.fx.AllowHosts {
		an, ap, err := net.SplitHostPort(a)
		if err != nil {
			an, ap = strings.Trim(a, "[]"), ""
		}
		if an == name && (ap == "" || ap == port) {
			return true
		}
	}
	return false
}

// splitHost returns the host name and effective port.
func splitHost(scheme, host string) (string, string) {
	if name, port, err := net.SplitHostPort(host); err == nil {
		return name, port
	}
	if scheme == "https" {
		return strings.Trim(host, "[]"), "443"
	}
	return strings.Trim(host, "[]"), "80"
}

// Failure is a case's replay failure: Finish returns it when any request was
// refused or any declaration was never requested.
type Failure struct {
	Unexpected, Mismatched, Exhausted, Rejected int
	Missing                                     int // declarations never matched
}

// Error counts what went wrong, e.g. "api replay: 1 mismatched request,
// 1 declared request never made".
func (f *Failure) Error() string {
	var parts []string
	add := func(n int, one, many string) {
		if n == 1 {
			parts = append(parts, "1 "+one)
		} else if n > 1 {
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	add(f.Unexpected, "unexpected request", "unexpected requests")
	add(f.Mismatched, "mismatched request", "mismatched requests")
	add(f.Exhausted, "request after the fixtures were used up", "requests after the fixtures were used up")
	add(f.Rejected, "rejected request", "rejected requests")
	add(f.Missing, "declared request never made", "declared requests never made")
	return "api replay: " + strings.Join(parts, ", ")
}

// Finish ends the session and returns its evidence, with a *Failure when
// any request was refused or any declaration is missing. Requests arriving
// later are refused (ErrFinished) but no longer recorded. Calling Finish
// again returns the same verdict.
func (s *Session) Finish() (*Evidence, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.finished = true
	ev := &Evidence{
		AllowHosts: append([]string{}, s.fx.AllowHosts...),
		Declared:   make([]DeclaredInteraction, len(s.fx.Interactions)),
		Observed:   append([]ObservedRequest{}, s.observed...),
		Missing:    []MissingRequest{},
		Dropped:    s.dropped,
	}
	for i := range s.fx.Interactions {
		ev.Declared[i] = declared(i, &s.fx.Interactions[i], s.consumed[i])
		if !s.consumed[i] {
			req := &s.fx.Interactions[i].Request
			ev.Missing = append(ev.Missing, MissingRequest{Interaction: i, Method: req.Method, URL: redactURLPath(req.URL)})
		}
	}
	f := &Failure{
		Unexpected: s.counts[Unexpected], Mismatched: s.counts[Mismatched],
		Exhausted: s.counts[Exhausted], Rejected: s.counts[Rejected], Missing: len(ev.Missing),
	}
	if *f == (Failure{}) {
		ev.Passed = true
		return ev, nil
	}
	ev.Error = f.Error()
	return ev, f
}
