package replay_test

import (
	"crypto/tls"
	"crypto/x509"
	"encoding/pem"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/replay"
)

// TestProxy_DisarmedPassesThrough: a disarmed proxy behaves as if there
// were no proxy: plain HTTP reaches the loopback server, HTTPS gets a blind
// tunnel (the client checks the real server's certificate, not one of the
// run's CA), Python trusts that server through the CA bundle the proxy
// announces, and arming the proxy closes the blind tunnels so a kept-alive
// connection cannot bypass replay.
func TestProxy_DisarmedPassesThrough(t *testing.T) {
	python := MustTool(t, "python3")
	handler := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("X-Seen", r.Header.Get("X-Test"))
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte("real " + r.URL.Path))
	})
	plain := httptest.NewServer(handler)
	defer plain.Close()
	tlsSrv := httptest.NewTLSServer(handler)
	defer tlsSrv.Close()
	certFile := filepath.Join(t.TempDir(), "server.pem")
	if err := os.WriteFile(certFile, pem.EncodeToMemory(&pem.Block{Type: "CERTIFICATE", Bytes: tlsSrv.Certificate().Raw}), 0o644); err != nil {
		t.Fatal(err)
	}
	t.Setenv("SSL_CERT_FILE", certFile) // the trust store the agent has without the proxy
	ca := MustCA(t)
	p := MustProxy(t, ca, nil)
	proxyURL, _ := url.Parse(p.URL())
	serverOnly := x509.NewCertPool()
	serverOnly.AddCert(tlsSrv.Certificate())
	client := func(roots *x509.CertPool) *http.Client {
		return &http.Client{Transport: &http.Transport{Proxy: http.ProxyURL(proxyURL), TLSClientConfig: &tls.Config{RootCAs: roots}}}
	}
	tests := []struct{ name, url string }{
		{"http", plain.URL + "/a"},
		{"https blind tunnel", tlsSrv.URL + "/b"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			req, _ := http.NewRequest("GET", tc.url, nil)
			req.Header.Set("X-Test", "through")
			resp, err := client(serverOnly).Do(req)
			if err != nil {
				t.Fatalf("GET %s through a disarmed proxy: %v", tc.url, err)
			}
			defer resp.Body.Close()
			body, _ := io.ReadAll(resp.Body)
			path := tc.url[strings.LastIndex(tc.url, "/"):]
			if resp.StatusCode != http.StatusTeapot || string(body) != "real "+path || resp.Header.Get("X-Seen") != "through" ||
				resp.Header.Get("X-Api-Replay-Error") != "" {
				t.Errorf("got %d %q (X-Seen %q), want the real server's 418", resp.StatusCode, body, resp.Header.Get("X-Seen"))
			}
		})
		t.Run(tc.name+"/python", func(t *testing.T) {
			out, err := runAgent(t, p, python, "-c", `import sys, urllib.request, urllib.error
try:
    urllib.request.urlopen(sys.argv[1])
except urllib.error.HTTPError as e:
    print(e.code, e.read().decode())`, tc.url)
			if err != nil || !strings.HasPrefix(out, "418 real /") {
				t.Errorf("python through a disarmed proxy = %q, %v; want the real server's 418", out, err)
			}
		})
	}

	t.Run("arming closes blind tunnels", func(t *testing.T) {
		both := ca.Pool()
		both.AddCert(tlsSrv.Certificate())
		c := client(both)
		resp, err := c.Get(tlsSrv.URL + "/kept")
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		s := MustLoad(t, `[]`, t.TempDir()).NewSession()
		p.Arm(s)
		defer p.Arm(nil)
		resp, err = c.Get(tlsSrv.URL + "/after")
		if err != nil {
			t.Fatalf("GET after arming: %v", err)
		}
		resp.Body.Close()
		ev, _ := s.Finish()
		if resp.StatusCode != http.StatusBadGateway || len(ev.Observed) != 1 || ev.Observed[0].Status != replay.Unexpected {
			t.Errorf("after arming: status %d, observed %+v; want the kept-alive client refused by replay", resp.StatusCode, ev.Observed)
		}
	})
}
