package replay_test

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	"agentevals/replay"
)

// TestSession_Rules checks every matching rule through the in-process
// round tripper and through the proxy over HTTP and HTTPS.
func TestSession_Rules(t *testing.T) {
	live := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte("live"))
	}))
	t.Cleanup(live.Close)
	liveHost := strings.TrimPrefix(live.URL, "http://")

	const (
		M  = replay.Matched
		X  = replay.Mismatched
		U  = replay.Unexpected
		E  = replay.Exhausted
		OK = replay.Allowed
	)
	get := func(u string) call { return call{method: "GET", url: u} }
	post := func(u, body string) call { return call{method: "POST", url: u, body: body} }
	one := func(req string) string {
		return `[{"expect_request": ` + req + `, "respond_with": {"json": {"ok": true}}}]`
	}
	tests := []struct {
		name     string
		fixtures string // S:// becomes the variant's scheme, LIVE the live server's host
		calls    []call
		want     []replay.Status
		pass     bool
	}{
		{"matched get with query", one(`{"method": "GET", "url": "S://shop.example/orders", "query": {"id": "42"}}`),
			[]call{get("S://shop.example/orders?id=42")}, []replay.Status{M}, true},
		{"query order ignored", one(`{"method": "GET", "url": "S://shop.example/o", "query": {"tag": ["a", "b"], "id": 1}}`),
			[]call{get("S://shop.example/o?tag=b&id=1&tag=a")}, []replay.Status{M}, true},
		{"query multiplicity kept", one(`{"method": "GET", "url": "S://shop.example/o", "query": {"tag": ["a", "a"]}}`),
			[]call{get("S://shop.example/o?tag=a")}, []replay.Status{X}, false},
		{"extra query parameter", one(`{"method": "GET", "url": "S://shop.example/o?id=1"}`),
			[]call{get("S://shop.example/o?id=1&x=2")}, []replay.Status{X}, false},
		{"no query declared", one(`{"method": "GET", "url": "S://shop.example/o"}`),
			[]call{get("S://shop.example/o?id=1")}, []replay.Status{X}, false},
		{"string is not number", one(`{"method": "POST", "url": "S://shop.example/o", "json": {"count": 1}}`),
			[]call{post("S://shop.example/o", `{"count": "1"}`)}, []replay.Status{X}, false},
		{"null is not false", one(`{"method": "POST", "url": "S://shop.example/o", "json": {"enabled": null}}`),
			[]call{post("S://shop.example/o", `{"enabled": false}`)}, []replay.Status{X}, false},
		{"typed json equal", one(`{"method": "POST", "url": "S://shop.example/o", "json": {"a": 1, "b": [true, null], "n": 12345678901234567890}}`),
			[]call{post("S://shop.example/o", `{"n": 12345678901234567890, "b": [true, null], "a": 1.0}`)}, []replay.Status{M}, true},
		{"big integers stay exact", one(`{"method": "POST", "url": "S://shop.example/o", "json": {"n": 12345678901234567890}}`),
			[]call{post("S://shop.example/o", `{"n": 12345678901234567891}`)}, []replay.Status{X}, false},
		{"declared null body", one(`{"method": "POST", "url": "S://shop.example/o", "json": null}`),
			[]call{post("S://shop.example/o", `null`)}, []replay.Status{M}, true},
		{"declared null needs a body", one(`{"method": "POST", "url": "S://shop.example/o", "json": null}`),
			[]call{post("S://shop.example/o", ``)}, []replay.Status{X}, false},
		{"no json means empty body", one(`{"method": "POST", "url": "S://shop.example/o"}`),
			[]call{post("S://shop.example/o", `{}`)}, []replay.Status{X}, false},
		{"header names case-insensitive, others ignored", one(`{"method": "GET", "url": "S://shop.example/o", "headers": {"X-Region": "eu"}}`),
			[]call{{method: "GET", url: "S://shop.example/o", header: map[string]string{"x-region": "eu", "X-Other": "1"}}}, []replay.Status{M}, true},
		{"declared header missing", one(`{"method": "GET", "url": "S://shop.example/o", "headers": {"X-Region": "eu"}}`),
			[]call{get("S://shop.example/o")}, []replay.Status{X}, false},
		{"declared header differs", one(`{"method": "GET", "url": "S://shop.example/o", "headers": {"X-Region": "eu"}}`),
			[]call{{method: "GET", url: "S://shop.example/o", header: map[string]string{"X-Region": "us"}}}, []replay.Status{X}, false},
		{"method differs", one(`{"method": "GET", "url": "S://shop.example/o"}`),
			[]call{{method: "DELETE", url: "S://shop.example/o"}}, []replay.Status{X}, false},
		{"path differs", one(`{"method": "GET", "url": "S://shop.example/o"}`),
			[]call{get("S://shop.example/p")}, []replay.Status{X}, false},
		{"scheme differs", one(`{"method": "GET", "url": "https://shop.example/o"}`),
			[]call{get("http://shop.example/o")}, []replay.Status{X}, false},
		{"declared order", `[{"expect_request": {"method": "GET", "url": "S://shop.example/a"}, "respond_with": {"json": 1}},
		                     {"expect_request": {"method": "GET", "url": "S://shop.example/b"}, "respond_with": {"json": 2}}]`,
			[]call{get("S://shop.example/b"), get("S://shop.example/a"), get("S://shop.example/b")}, []replay.Status{X, M, M}, false},
		{"consumed once", one(`{"method": "GET", "url": "S://shop.example/a"}`),
			[]call{get("S://shop.example/a"), get("S://shop.example/a")}, []replay.Status{M, E}, false},
		{"repeat declared twice", `[{"expect_request": {"method": "GET", "url": "S://shop.example/a"}, "respond_with": {"json": 1}},
		                            {"expect_request": {"method": "GET", "url": "S://shop.example/a"}, "respond_with": {"json": 1}}]`,
			[]call{get("S://shop.example/a"), get("S://shop.example/a")}, []replay.Status{M, M}, true},
		{"missing request", `[{"expect_request": {"method": "GET", "url": "S://shop.example/a"}, "respond_with": {"json": 1}},
		                      {"expect_request": {"method": "GET", "url": "S://shop.example/b"}, "respond_with": {"json": 2}}]`,
			[]call{get("S://shop.example/a")}, []replay.Status{M}, false},
		{"unexpected host", one(`{"method": "GET", "url": "S://shop.example/a"}`),
			[]call{get("S://other.example/a"), get("S://shop.example/a")}, []replay.Status{U, M}, false},
		{"nothing declared, nothing called", `[]`, nil, nil, true},
		{"allowed host passes through", `{"allow_hosts": ["127.0.0.1"], "interactions": [{"expect_request": {"method": "GET", "url": "S://shop.example/a"}, "respond_with": {"json": 1}}]}`,
			[]call{get("S://shop.example/a"), get("http://LIVE/live")}, []replay.Status{M, OK}, true},
		{"allowed host never bypasses a declaration", `{"allow_hosts": ["127.0.0.1"], "interactions": [{"expect_request": {"method": "GET", "url": "S://LIVE/x", "query": {"id": 1}}, "respond_with": {"json": 1}}]}`,
			[]call{get("S://LIVE/x?id=2")}, []replay.Status{X}, false},
		{"allowed port is exact", `{"allow_hosts": ["127.0.0.1:1"]}`,
			[]call{get("http://LIVE/live")}, []replay.Status{U}, false},
	}
	for _, v := range variants(t) {
		t.Run(v.name, func(t *testing.T) {
			for _, tc := range tests {
				t.Run(tc.name, func(t *testing.T) {
					fill := strings.NewReplacer("S://", v.scheme+"://", "LIVE", liveHost)
					s := MustLoad(t, fill.Replace(tc.fixtures), t.TempDir()).NewSession()
					client := v.start(s)
					results := make([]result, len(tc.calls))
					for i, c := range tc.calls {
						c.url = fill.Replace(c.url)
						results[i] = do(client, v, c)
					}
					ev, err := s.Finish()
					if got, want := len(ev.Observed), len(tc.want); got != want {
						t.Fatalf("observed %d requests, want %d: %+v", got, want, ev.Observed)
					}
					for i, want := range tc.want {
						o, r := ev.Observed[i], results[i]
						if o.Status != want {
							t.Errorf("request %d: status %q, want %q (differences %q)", i, o.Status, want, o.Differences)
						}
						if refused := want != replay.Matched && want != replay.Allowed; r.refused != refused {
							t.Errorf("request %d: refused = %v (%+v), want %v", i, r.refused, r, refused)
						}
						if want == replay.Mismatched && len(o.Differences) == 0 {
							t.Errorf("request %d: mismatch without differences", i)
						}
						if want == replay.Allowed && (r.status != http.StatusTeapot || o.ResponseStatus != http.StatusTeapot) {
							t.Errorf("request %d: allowed request got %d (evidence %d), want the live server's 418", i, r.status, o.ResponseStatus)
						}
					}
					var f *replay.Failure
					if tc.pass {
						if err != nil || !ev.Passed {
							t.Errorf("Finish = %v (passed %v), want success", err, ev.Passed)
						}
					} else if !errors.As(err, &f) || ev.Passed || ev.Error == "" {
						t.Errorf("Finish = %v (passed %v), want a *Failure", err, ev.Passed)
					}
				})
			}
		})
	}
}
