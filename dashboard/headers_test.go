package dashboard

import (
	"net"
	"net/http"
	"strings"
	"testing"
)

// TestServer_OversizedRequestKeepsSecurityHeaders: a request whose headers
// pass MaxHeaderBytes gets 431 from the dashboard itself, with the same
// security headers as every page (Go's own limit would answer bare).
func TestServer_OversizedRequestKeepsSecurityHeaders(t *testing.T) {
	_, ro := MustOpenDBs(t, "sqlite")
	ts := MustServe(t, ro, "/evaluations")
	req, err := http.NewRequest(http.MethodGet, ts.URL+"/evaluations/", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Padding", strings.Repeat("a", MaxHeaderBytes))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("status %d, want 431", res.StatusCode)
	}
	for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options"} {
		if res.Header.Get(h) == "" {
			t.Errorf("431 lacks %s", h)
		}
	}
}

// TestListener_GoOwnRepliesKeepSecurityHeaders: headers over the
// http.Server's own MaxHeaderBytes never reach the handler; net/http
// answers 431 itself, and through Listener that reply has the headers.
func TestListener_GoOwnRepliesKeepSecurityHeaders(t *testing.T) {
	_, ro := MustOpenDBs(t, "sqlite")
	s, err := New(Config{DB: ro})
	if err != nil {
		t.Fatal(err)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	srv := &http.Server{Handler: s, MaxHeaderBytes: ServerMaxHeaderBytes}
	go srv.Serve(Listener(ln))
	defer srv.Close()
	req, err := http.NewRequest(http.MethodGet, "http://"+ln.Addr().String()+"/", nil)
	if err != nil {
		t.Fatal(err)
	}
	req.Header.Set("X-Padding", strings.Repeat("a", 2*ServerMaxHeaderBytes))
	res, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if res.StatusCode != http.StatusRequestHeaderFieldsTooLarge {
		t.Fatalf("status %d, want net/http's 431", res.StatusCode)
	}
	for _, h := range []string{"Content-Security-Policy", "X-Content-Type-Options", "Referrer-Policy", "X-Frame-Options"} {
		if res.Header.Get(h) == "" {
			t.Errorf("net/http's 431 lacks %s", h)
		}
	}
	// An ordinary page through the same listener is unchanged.
	res, err = http.Get("http://" + ln.Addr().String() + "/healthz")
	if err != nil {
		t.Fatal(err)
	}
	res.Body.Close()
	if got := res.Header.Values("Content-Security-Policy"); len(got) != 1 {
		t.Errorf("a page has %d Content-Security-Policy headers, want 1", len(got))
	}
}
