package replay

import (
	"bytes"
	"encoding/json"
	"net/http"
	"strings"
	"testing"
)

// FuzzSession_Decide fuzzes the replay matcher with arbitrary requests
// against one declared interaction: it never panics, a request matching
// the declaration exactly is matched, and the evidence is always valid
// JSON whose declared credentials, Authorization header and api_key are
// hidden.
func FuzzSession_Decide(f *testing.F) {
	const planted = "fz-planted-secret"
	fixtures := `[{"expect_request": {"method": "POST", "url": "https://api.example/v1/x", "query": {"a": "1", "api_key": "` + planted + `"},
	  "headers": {"Authorization": "Bearer ` + planted + `"}, "json": {"n": 1, "token": "` + planted + `", "list": [1, "two"]}},
	  "respond_with": {"json": {"ok": true}}}]`
	fx, err := Load(json.RawMessage(fixtures), f.TempDir())
	if err != nil {
		f.Fatal(err)
	}
	f.Add("POST", "/v1/x", "a=1&api_key="+planted, "Bearer "+planted, []byte(`{"n": 1, "token": "`+planted+`", "list": [1, "two"]}`))
	f.Add("POST", "/v1/x", "api_key="+planted+"&a=1", "Bearer "+planted, []byte(`{"list": [1, "two"], "token": "`+planted+`", "n": 1.0}`))
	f.Add("GET", "/v1/y", "token="+planted, "Basic "+planted, []byte(`{"note": "token=`+planted+`"}`))
	f.Add("POST", "/v1/x", "a=%zz", "", []byte(strings.Repeat("[", 5000)))
	f.Add("POST", "/v1/x", "", "", []byte("\xff\x00not json"))
	f.Fuzz(func(t *testing.T, method, path, rawQuery, auth string, body []byte) {
		req, err := http.NewRequest(method, "https://api.example"+path, bytes.NewReader(body))
		if err != nil {
			return // not a request an HTTP client could send
		}
		req.URL.RawQuery = rawQuery
		req.Header.Set("Authorization", auth)
		s := fx.NewSession()
		o := s.decide(newRequest(req, body, false))
		exact := method == "POST" && path == "/v1/x" && rawQuery == "a=1&api_key="+planted && auth == "Bearer "+planted &&
			bytes.Equal(body, []byte(`{"n": 1, "token": "`+planted+`", "list": [1, "two"]}`))
		if exact && (o.err != nil || o.reply == nil) {
			t.Fatalf("the declared request did not match: %v", o.err)
		}
		ev, _ := s.Finish()
		b, err := json.Marshal(ev)
		if err != nil || !json.Valid(b) {
			t.Fatalf("evidence does not marshal: %v", err)
		}
		// the credentials in declared places are always hidden (a fuzzed
		// body may carry the planted text under any name: that is not one)
		d, _ := json.Marshal(ev.Declared)
		if bytes.Contains(d, []byte(planted)) {
			t.Fatalf("declared evidence keeps the planted credential: %s", d)
		}
		for _, o := range ev.Observed {
			if h := o.Headers["authorization"]; h != "" && h != Redacted {
				t.Fatalf("observed Authorization kept as %q", h)
			}
			for _, v := range o.Query["api_key"] {
				if v != Redacted {
					t.Fatalf("observed api_key kept as %q", v)
				}
			}
		}
	})
}
