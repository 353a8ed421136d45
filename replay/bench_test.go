package replay_test

import (
	"io"
	"net/http"
	"net/http/httptest"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/replay"
)

// BenchmarkReplay measures the latency of one replayed request, in process
// and through the proxy (HTTP and HTTPS over kept-alive connections),
// against a direct call to a local httptest server answering the same bytes
// in the same loop. It reports ns per replayed request, ns per direct
// request and their ratio (x-direct). Session set-up and Finish are not
// timed.
//
//	go test ./replay -run '^$' -bench Replay -benchtime 2000x
func BenchmarkReplay(b *testing.B) {
	body := []byte(`{"status":"ready","items":[1,2,3]}`)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Write(body)
	}))
	b.Cleanup(srv.Close)
	direct := srv.Client()

	ca := MustCA(b)
	fx := func(scheme string) *replay.Fixtures {
		return MustLoad(b, `[{"expect_request": {"method": "GET", "url": "`+scheme+`://shop.example/orders", "query": {"id": "42"}},
		  "respond_with": {"json": {"status": "ready", "items": [1, 2, 3]}}}]`, b.TempDir())
	}
	httpProxy, httpsProxy := MustProxy(b, ca, nil), MustProxy(b, ca, nil)
	httpClient, httpsClient := proxyClient(httpProxy, ca), proxyClient(httpsProxy, ca)
	for _, m := range []struct {
		name   string
		fx     *replay.Fixtures
		url    string
		client func(*replay.Session) *http.Client
	}{
		{"roundtripper", fx("https"), "https://shop.example/orders?id=42", func(s *replay.Session) *http.Client { return s.Client(nil) }},
		{"proxy-http", fx("http"), "http://shop.example/orders?id=42", func(s *replay.Session) *http.Client { httpProxy.Arm(s); return httpClient }},
		{"proxy-https", fx("https"), "https://shop.example/orders?id=42", func(s *replay.Session) *http.Client { httpsProxy.Arm(s); return httpsClient }},
	} {
		b.Run(m.name, func(b *testing.B) {
			var replayed, base time.Duration
			for i := 0; i < b.N; i++ {
				s := m.fx.NewSession()
				c := m.client(s)
				start := time.Now()
				get(b, c, m.url)
				replayed += time.Since(start)
				if _, err := s.Finish(); err != nil {
					b.Fatal(err)
				}
				start = time.Now()
				get(b, direct, srv.URL+"/orders?id=42")
				base += time.Since(start)
			}
			b.ReportMetric(float64(replayed.Nanoseconds())/float64(b.N), "ns/replayed")
			b.ReportMetric(float64(base.Nanoseconds())/float64(b.N), "ns/direct")
			b.ReportMetric(float64(replayed)/float64(base), "x-direct")
		})
	}
}

func get(b *testing.B, c *http.Client, u string) {
	resp, err := c.Get(u)
	if err != nil {
		b.Fatal(err)
	}
	if _, err := io.Copy(io.Discard, resp.Body); err != nil {
		b.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		b.Fatalf("status %d", resp.StatusCode)
	}
}
