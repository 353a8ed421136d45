package replay_test

import (
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/replay"
)

// Rule is one row of testdata/rules.json: fixtures, the requests an agent
// makes and what replay must make of them. The runner package runs the same
// file through its command, worker and Go agents.
type Rule struct {
	Name     string          `json:"name"`
	Fixtures json.RawMessage `json:"fixtures"` // S:// is the variant's scheme, LIVE the live server's host
	Calls    []struct {
		Method string            `json:"method"`
		URL    string            `json:"url"`
		Body   string            `json:"body"`
		Header map[string]string `json:"header"`
	} `json:"calls"`
	Want []replay.Status `json:"want"`
	Pass bool            `json:"pass"`
}

// loadRules reads the shared rule table.
func loadRules(tb testing.TB) []Rule {
	tb.Helper()
	b, err := os.ReadFile("testdata/rules.json")
	if err != nil {
		tb.Fatal(err)
	}
	var doc struct{ Rules []Rule }
	if err := json.Unmarshal(b, &doc); err != nil {
		tb.Fatalf("testdata/rules.json: %v", err)
	}
	return doc.Rules
}

// liveServer answers 418 "live" to everything: the network behind allow_hosts.
func liveServer(tb testing.TB) string {
	live := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.WriteHeader(http.StatusTeapot)
		w.Write([]byte("live"))
	}))
	tb.Cleanup(live.Close)
	return strings.TrimPrefix(live.URL, "http://")
}

// TestSession_Rules checks every matching rule through the in-process
// round tripper and through the proxy (a Go client), each over HTTP and
// HTTPS.
func TestSession_Rules(t *testing.T) {
	liveHost := liveServer(t)
	rules := loadRules(t)
	for _, v := range variants(t) {
		t.Run(v.name, func(t *testing.T) {
			for _, tc := range rules {
				t.Run(tc.Name, func(t *testing.T) {
					fill := strings.NewReplacer("S://", v.scheme+"://", "LIVE", liveHost)
					s := MustLoad(t, fill.Replace(string(tc.Fixtures)), t.TempDir()).NewSession()
					client := v.start(s)
					results := make([]result, len(tc.Calls))
					for i, c := range tc.Calls {
						results[i] = do(client, v, call{method: c.Method, url: fill.Replace(c.URL), body: c.Body, header: c.Header})
					}
					ev, err := s.Finish()
					if got, want := len(ev.Observed), len(tc.Want); got != want {
						t.Fatalf("observed %d requests, want %d: %+v", got, want, ev.Observed)
					}
					for i, want := range tc.Want {
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
					if tc.Pass {
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
