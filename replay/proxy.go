package replay

import (
	"bufio"
	"bytes"
	"crypto/tls"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Proxy is a local HTTP proxy on 127.0.0.1 for agents in other processes.
// It answers from the armed session: plain HTTP directly, HTTPS by
// intercepting CONNECT with a certificate from the run's CA. One proxy
// serves one case at a time; re-arm it for the next case. A disarmed proxy
// passes requests through untouched, as if there were no proxy.
type Proxy struct {
	ca   *CA
	next http.RoundTripper
	ln   net.Listener
	srv  *http.Server

	mu      sync.Mutex
	session *Session
	conns   map[net.Conn]struct{} // hijacked CONNECT tunnels
	blind   map[net.Conn]struct{} // the tunnels opened while disarmed
	closed  bool
	done    chan struct{}
}

// NewProxy starts a proxy on an ephemeral loopback port. Allowed requests
// go to next (http.DefaultTransport when nil). It answers nothing until a
// session is armed.
func NewProxy(ca *CA, next http.RoundTripper) (*Proxy, error) {
	if ca == nil {
		return nil, errors.New("replay proxy: nil CA")
	}
	if next == nil {
		next = http.DefaultTransport
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("replay proxy: listen: %w", err)
	}
	p := &Proxy{ca: ca, next: next, ln: ln, conns: map[net.Conn]struct{}{}, blind: map[net.Conn]struct{}{}, done: make(chan struct{})}
	p.srv = &http.Server{Handler: http.HandlerFunc(p.serveHTTP), ReadHeaderTimeout: 30 * time.Second}
	go func() {
		defer close(p.done)
		p.srv.Serve(ln) // returns http.ErrServerClosed on Close
	}()
	return p, nil
}

// Arm routes the following requests to s. Arm(nil) disarms the proxy: it
// then passes requests through as if there were no proxy, forwarding plain
// HTTP to its host (through next) and giving CONNECT a blind tunnel to the
// target, not intercepted. A case without fixtures served by a worker
// thus reaches the network like a command agent, which gets no proxy.
// Arming closes the blind tunnels opened while disarmed, so a kept-alive
// connection cannot carry an armed case's requests past replay.
func (p *Proxy) Arm(s *Session) {
	p.mu.Lock()
	p.session = s
	var stale []net.Conn
	if s != nil {
		for c := range p.blind {
			stale = append(stale, c)
		}
	}
	p.mu.Unlock()
	for _, c := range stale {
		c.Close()
	}
}

func (p *Proxy) armed() *Session {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.session
}

// URL is the proxy's address, e.g. http://127.0.0.1:41234.
func (p *Proxy) URL() string { return "http://" + p.ln.Addr().String() }

// envNames are the variables Env sets.
var envNames = []string{
	"HTTP_PROXY", "HTTPS_PROXY", "http_proxy", "https_proxy", "ALL_PROXY", "all_proxy", "NO_PROXY", "no_proxy",
	"SSL_CERT_FILE", "REQUESTS_CA_BUNDLE", "NODE_EXTRA_CA_CERTS", "CURL_CA_BUNDLE", "NODE_USE_ENV_PROXY",
}

// Env returns base (e.g. os.Environ()) with the proxy announced: every
// *_PROXY variable points here, NO_PROXY is cleared (so loopback requests
// are replayed too by clients that honour it), and SSL_CERT_FILE,
// REQUESTS_CA_BUNDLE, NODE_EXTRA_CA_CERTS and CURL_CA_BUNDLE name the CA
// certificate. Previous values of those variables are dropped.
func (p *Proxy) Env(base []string) []string {
	drop := map[string]bool{}
	for _, n := range envNames {
		drop[n] = true
	}
	out := make([]string, 0, len(base)+len(envNames))
	for _, kv := range base {
		name, _, _ := strings.Cut(kv, "=")
		if !drop[name] {
			out = append(out, kv)
		}
	}
	u, ca := p.URL(), p.ca.CertFile()
	return append(out,
		"HTTP_PROXY="+u, "HTTPS_PROXY="+u, "http_proxy="+u, "https_proxy="+u, "ALL_PROXY="+u, "all_proxy="+u,
		"NO_PROXY=", "no_proxy=",
		"SSL_CERT_FILE="+ca, "REQUESTS_CA_BUNDLE="+ca, "NODE_EXTRA_CA_CERTS="+ca, "CURL_CA_BUNDLE="+ca,
		"NODE_USE_ENV_PROXY=1",
	)
}

// Close stops the proxy and closes every open tunnel.
func (p *Proxy) Close() error {
	p.mu.Lock()
	p.closed = true
	for c := range p.conns {
		c.Close()
	}
	p.mu.Unlock()
	err := p.srv.Close()
	<-p.done
	if err != nil {
		return fmt.Errorf("replay proxy: close: %w", err)
	}
	return nil
}

// serveHTTP handles plain proxied requests and CONNECT.
func (p *Proxy) serveHTTP(w http.ResponseWriter, r *http.Request) {
	if r.Method == http.MethodConnect {
		p.serveConnect(w, r)
		return
	}
	if !r.URL.IsAbs() {
		http.Error(w, "api replay proxy: want an absolute-form proxy request", http.StatusBadRequest)
		return
	}
	r.URL.Scheme = "http"
	resp := p.answer(r)
	defer resp.Body.Close()
	for k, vs := range resp.Header {
		w.Header()[k] = vs
	}
	for _, k := range []string{"Content-Type", "Date"} {
		if _, ok := resp.Header[k]; !ok {
			w.Header()[k] = nil // not added by the server: only declared headers
		}
	}
	w.WriteHeader(resp.StatusCode)
	io.Copy(w, resp.Body)
}

// serveConnect intercepts a CONNECT tunnel as a TLS server and serves the
// HTTP/1.1 requests inside it.
func (p *Proxy) serveConnect(w http.ResponseWriter, r *http.Request) {
	target := r.Host
	if _, _, err := net.SplitHostPort(target); err != nil {
		http.Error(w, "api replay proxy: CONNECT wants host:port", http.StatusBadRequest)
		return
	}
	if p.armed() == nil {
		p.tunnel(w, r, target)
		return
	}
	conn, rw, ok := p.establish(w, false)
	if !ok {
		return
	}
	defer p.untrack(conn)
	defer conn.Close()
	name, _, _ := net.SplitHostPort(target)
	tconn := tls.Server(&bufferedConn{Conn: conn, r: rw.Reader}, &tls.Config{
		NextProtos: []string{"http/1.1"},
		GetCertificate: func(h *tls.ClientHelloInfo) (*tls.Certificate, error) {
			if h.ServerName != "" {
				return p.ca.leaf(h.ServerName)
			}
			return p.ca.leaf(name)
		},
	})
	if err := tconn.HandshakeContext(r.Context()); err != nil {
		return
	}
	br := bufio.NewReader(tconn)
	for {
		req, err := http.ReadRequest(br)
		if err != nil {
			return
		}
		req.URL.Scheme, req.URL.Host = "https", target
		if strings.EqualFold(req.Header.Get("Expect"), "100-continue") {
			if _, err := io.WriteString(tconn, "HTTP/1.1 100 Continue\r\n\r\n"); err != nil {
				return
			}
		}
		req = req.WithContext(r.Context())
		resp := p.answer(req)
		err = resp.Write(tconn)
		resp.Body.Close()
		if err != nil || req.Close || resp.Close {
			return
		}
	}
}

// answer decides req with the armed session and returns the response to
// send: the declared reply, the allowed host's reply, or a 502 naming the
// replay error. A disarmed proxy passes req through.
func (p *Proxy) answer(req *http.Request) *http.Response {
	s := p.armed()
	if s == nil {
		resp, err := p.passThrough(req)
		if err != nil {
			return errorResponse(req, "proxy: "+redactText(err.Error()))
		}
		return resp
	}
	body, tooLarge, err := readBody(req.Body)
	if err != nil {
		return errorResponse(req, "api replay: read request body: "+err.Error())
	}
	o := s.decide(newRequest(req, body, tooLarge))
	switch {
	case o.err != nil:
		return errorResponse(req, o.err.Error())
	case o.pass:
		resp, err := p.forward(req, body)
		resp = s.noteRecorded(o.rec, resp, err)
		if err != nil {
			s.noteUpstream(o.index, 0, err)
			return errorResponse(req, "api replay: allowed host: "+redactText(err.Error()))
		}
		s.noteUpstream(o.index, resp.StatusCode, nil)
		return resp
	default:
		return replyResponse(o.reply, req)
	}
}

// forward sends an allowed request, whose body was already read, to the network.
func (p *Proxy) forward(req *http.Request, body []byte) (*http.Response, error) {
	return p.relay(req, bytes.NewReader(body), int64(len(body)))
}

// relay sends req to its host with body, without the connection-level
// headers, and answers with the host's response.
func (p *Proxy) relay(req *http.Request, body io.Reader, length int64) (*http.Response, error) {
	out, err := http.NewRequestWithContext(req.Context(), req.Method, req.URL.String(), body)
	if err != nil {
		closeBody(req)
		return nil, err
	}
	out.ContentLength = length
	for k, vs := range req.Header {
		if !hopHeaders[http.CanonicalHeaderKey(k)] {
			out.Header[k] = vs
		}
	}
	out.Host = req.Host
	resp, err := p.next.RoundTrip(out)
	if err != nil {
		return nil, err
	}
	for k := range hopHeaders {
		if k != "Content-Length" {
			resp.Header.Del(k)
		}
	}
	resp.Request = req
	return resp, nil
}

func errorResponse(req *http.Request, msg string) *http.Response {
	body := []byte(msg + "\n")
	h := http.Header{"Content-Type": {"text/plain; charset=utf-8"}, "X-Api-Replay-Error": {"1"}}
	return &http.Response{
		Status: "502 Bad Gateway", StatusCode: http.StatusBadGateway, Proto: "HTTP/1.1", ProtoMajor: 1, ProtoMinor: 1,
		Header: h, Body: io.NopCloser(bytes.NewReader(body)), ContentLength: int64(len(body)), Request: req,
	}
}

// establish takes over the connection of a CONNECT request, tracks it
// (blind: a pass-through tunnel that Arm closes) and answers 200. When ok,
// the caller must untrack and close conn.
func (p *Proxy) establish(w http.ResponseWriter, blind bool) (conn net.Conn, rw *bufio.ReadWriter, ok bool) {
	hj, ok := w.(http.Hijacker)
	if !ok {
		http.Error(w, "api replay proxy: cannot tunnel", http.StatusInternalServerError)
		return nil, nil, false
	}
	conn, rw, err := hj.Hijack()
	if err != nil {
		return nil, nil, false
	}
	if !p.track(conn, blind) {
		conn.Close()
		return nil, nil, false
	}
	if _, err := rw.WriteString("HTTP/1.1 200 Connection Established\r\n\r\n"); err != nil || rw.Flush() != nil {
		p.untrack(conn)
		conn.Close()
		return nil, nil, false
	}
	return conn, rw, true
}

// track records a hijacked connection (blind: a tunnel opened while
// disarmed), or reports false when the proxy is closed.
func (p *Proxy) track(c net.Conn, blind bool) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	if p.closed {
		return false
	}
	p.conns[c] = struct{}{}
	if blind {
		p.blind[c] = struct{}{}
	}
	return true
}

func (p *Proxy) untrack(c net.Conn) {
	p.mu.Lock()
	delete(p.conns, c)
	delete(p.blind, c)
	p.mu.Unlock()
}

// bufferedConn reads first from the hijacked reader (it may hold bytes the
// client sent right after CONNECT).
type bufferedConn struct {
	net.Conn
	r *bufio.Reader
}

func (c *bufferedConn) Read(b []byte) (int, error) { return c.r.Read(b) }
