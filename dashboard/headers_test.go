package dashboard

import (
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
