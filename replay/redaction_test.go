package replay_test

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/replay"
	"github.com/agentevals-go/agentevals/sanitize"
)

// TestEvidence_Redaction plants credentials in declared and observed
// headers, query parameters and JSON bodies (matched and mismatched, so
// they also reach the differences) and finds none in the evidence JSON.
func TestEvidence_Redaction(t *testing.T) {
	planted := []string{
		"sk-planted-header-0001", "cookie-planted-0002", "apikey-planted-0003", "qtoken-planted-0004",
		"qkey-planted-0005", "body-password-0006", "nested-secret-0007", "declared-auth-0008",
		"declared-body-token-0009", "declared-query-key-0010", "setcookie-planted-0011", "ghp_plantedvalue0012",
		"refresh-planted-0013", "form-password-0014",
	}
	fixtures := `{"allow_hosts": [], "interactions": [
	  {"expect_request": {"method": "POST", "url": "https://api.example/v1/orders",
	    "query": {"api_key": "declared-query-key-0010", "id": "1"},
	    "headers": {"Authorization": "Bearer declared-auth-0008"},
	    "json": {"access_token": "declared-body-token-0009", "n": 1}},
	   "respond_with": {"headers": {"Set-Cookie": "sid=setcookie-planted-0011"}, "json": {"ok": true}}},
	  {"expect_request": {"method": "POST", "url": "https://api.example/v1/login"},
	   "respond_with": {"json": {}}}]}`
	for _, v := range variants(t) {
		t.Run(v.name, func(t *testing.T) {
			s := MustLoad(t, fixtures, t.TempDir()).NewSession()
			c := v.start(s)
			hdr := map[string]string{
				"Authorization": "Bearer sk-planted-header-0001",
				"Cookie":        "session=cookie-planted-0002",
				"X-Api-Key":     "apikey-planted-0003",
				"X-Note":        "ghp_plantedvalue0012",
			}
			body := `{"access_token": "declared-body-token-0009", "n": 2, "password": "body-password-0006",
			          "profile": {"client_secret": "nested-secret-0007", "tokens": ["refresh-planted-0013"]}}`
			u := "https://api.example/v1/orders?api_key=qkey-planted-0005&token=qtoken-planted-0004&id=1"
			do(c, v, call{method: "POST", url: u, body: body, header: hdr}) // mismatched: n and extra fields
			form := call{method: "POST", url: "https://api.example/v1/login", body: "user=a&password=form-password-0014",
				header: map[string]string{"Content-Type": "application/x-www-form-urlencoded"}}
			do(c, v, form) // mismatched against the first declaration
			ev, _ := s.Finish()
			b, err := json.Marshal(ev)
			if err != nil {
				t.Fatal(err)
			}
			b2, err := json.Marshal(evidenceValue(t, ev))
			if err != nil {
				t.Fatal(err)
			}
			for _, doc := range []string{string(b), string(b2)} {
				for _, p := range planted {
					if strings.Contains(doc, p) {
						t.Errorf("evidence leaks %q:\n%s", p, doc)
					}
				}
			}
			if !strings.Contains(string(b), replay.Redacted) {
				t.Errorf("evidence shows no redaction marker:\n%s", b)
			}
			// Non-secret details stay readable.
			for _, want := range []string{`"id":["1"]`, `body.n: want 1, got 2`, `"user":["a"]`} {
				if !strings.Contains(string(b), strings.ReplaceAll(want, `"`, `\"`)) && !strings.Contains(string(b), want) {
					t.Errorf("evidence lacks %s:\n%s", want, b)
				}
			}
		})
	}
}

// evidenceValue is the evidence as plain JSON values, as it is stored.
func evidenceValue(t *testing.T, ev *replay.Evidence) map[string]any {
	t.Helper()
	b, err := json.Marshal(ev)
	if err != nil {
		t.Fatal(err)
	}
	var v map[string]any
	if err := json.Unmarshal(b, &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func TestEvidence_Value(t *testing.T) {
	s := MustLoad(t, `[{"expect_request": {"method": "GET", "url": "https://a.example/x"}, "respond_with": {"json": 1}}]`, t.TempDir()).NewSession()
	resp, err := s.Client(nil).Get("https://a.example/x")
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	ev, err := s.Finish()
	if err != nil {
		t.Fatal(err)
	}
	v := evidenceValue(t, ev)
	if got, want := v["passed"], true; got != want {
		t.Errorf("passed = %v, want %v", got, want)
	}
	obs, _ := v["observed"].([]any)
	if len(obs) != 1 || obs[0].(map[string]any)["status"] != string(replay.Matched) {
		t.Errorf("observed = %v, want one matched request", v["observed"])
	}
	if got, want := ev.Observed[0].ResponseStatus, http.StatusOK; got != want {
		t.Errorf("response_status = %d, want %d", got, want)
	}
}

func TestRedactText(t *testing.T) {
	for _, tc := range []struct{ in, want string }{
		{`Get "https://a.example/x?api_key=s3cr3t&id=1": refused`, `Get "https://a.example/x?api_key=[REDACTED]&id=1": refused`},
		{"Authorization: Bearer abc123\nnext", "Authorization: [REDACTED]\nnext"},
		{"token sk-abcdefghijkl leaked", "token [REDACTED] leaked"},
		{"client_secret=xyz password=hunter2 user=bob", "client_secret=[REDACTED] password=[REDACTED] user=bob"},
		{"nothing secret here", "nothing secret here"},
	} {
		if got := sanitize.String(tc.in); got != tc.want {
			t.Errorf("RedactText(%q) = %q, want %q", tc.in, got, tc.want)
		}
	}
}
