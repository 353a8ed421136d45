package replay_test

import (
	"crypto/tls"
	"io"
	"net/http"
	"net/url"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/replay"
)

// MustCA creates a run CA removed at the end of the test.
func MustCA(tb testing.TB) *replay.CA {
	tb.Helper()
	ca, err := replay.NewCA()
	if err != nil {
		tb.Fatalf("NewCA: %v", err)
	}
	tb.Cleanup(func() { ca.Close() })
	return ca
}

// MustProxy starts a proxy closed at the end of the test.
func MustProxy(tb testing.TB, ca *replay.CA, next http.RoundTripper) *replay.Proxy {
	tb.Helper()
	p, err := replay.NewProxy(ca, next)
	if err != nil {
		tb.Fatalf("NewProxy: %v", err)
	}
	tb.Cleanup(func() { p.Close() })
	return p
}

// proxyClient is a Go client that goes through p and trusts ca.
func proxyClient(p *replay.Proxy, ca *replay.CA) *http.Client {
	u, _ := url.Parse(p.URL())
	return &http.Client{Transport: &http.Transport{
		Proxy:             http.ProxyURL(u),
		TLSClientConfig:   &tls.Config{RootCAs: ca.Pool()},
		DisableKeepAlives: false,
	}}
}

// variant is one way an agent reaches replay.
type variant struct {
	name   string
	scheme string // scheme used for declared URLs in the table
	// start arms s and returns the agent's client; done is called after the calls.
	start func(s *replay.Session) *http.Client
	proxy bool // refusals arrive as 502 responses instead of errors
}

// variants returns the in-process round tripper and the proxy, each over
// HTTP and HTTPS; the proxies (and their CA) are shared by every case,
// re-armed each time.
func variants(t *testing.T) []variant {
	ca := MustCA(t)
	httpProxy, httpsProxy := MustProxy(t, ca, nil), MustProxy(t, ca, nil)
	httpClient, httpsClient := proxyClient(httpProxy, ca), proxyClient(httpsProxy, ca)
	return []variant{
		{name: "roundtripper-http", scheme: "http", start: func(s *replay.Session) *http.Client { return s.Client(nil) }},
		{name: "roundtripper-https", scheme: "https", start: func(s *replay.Session) *http.Client { return s.Client(nil) }},
		{name: "proxy-http", scheme: "http", proxy: true, start: func(s *replay.Session) *http.Client { httpProxy.Arm(s); return httpClient }},
		{name: "proxy-https", scheme: "https", proxy: true, start: func(s *replay.Session) *http.Client { httpsProxy.Arm(s); return httpsClient }},
	}
}

// call is one request an agent makes.
type call struct {
	method, url, body string
	header            map[string]string
}

// result is what the agent saw.
type result struct {
	status  int
	body    string
	header  http.Header
	refused bool
	err     error
}

func do(c *http.Client, v variant, cl call) result {
	var body io.Reader
	if cl.body != "" {
		body = strings.NewReader(cl.body)
	}
	req, err := http.NewRequest(cl.method, cl.url, body)
	if err != nil {
		return result{err: err}
	}
	for k, val := range cl.header {
		req.Header[k] = []string{val} // keep the name's case as written
	}
	resp, err := c.Do(req)
	if err != nil {
		return result{err: err, refused: !v.proxy}
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return result{
		status: resp.StatusCode, body: string(b), header: resp.Header,
		refused: v.proxy && resp.StatusCode == http.StatusBadGateway && resp.Header.Get("X-Api-Replay-Error") != "",
	}
}
