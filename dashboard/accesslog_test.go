package dashboard

import (
	"bytes"
	"encoding/json"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"
)

// logLine is one JSON line of the captured log.
type logLine map[string]any

// captureServer serves ro with a logger writing JSON lines to buf.
func captureServer(t *testing.T, trusted []string, buf *bytes.Buffer) *Server {
	t.Helper()
	_, ro := MustOpenDBs(t, "sqlite")
	s, err := New(Config{DB: ro, MountPath: mount, TrustedProxies: trusted, Logger: slog.New(slog.NewJSONHandler(buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	return s
}

// lines parses the captured log and empties the buffer.
func lines(t *testing.T, buf *bytes.Buffer) []logLine {
	t.Helper()
	var out []logLine
	for _, l := range strings.Split(strings.TrimSpace(buf.String()), "\n") {
		if l == "" {
			continue
		}
		var m logLine
		if err := json.Unmarshal([]byte(l), &m); err != nil {
			t.Fatalf("log line %q: %v", l, err)
		}
		out = append(out, m)
	}
	buf.Reset()
	return out
}

// serve sends one request from remote (the connection's peer) with an
// optional X-Forwarded-For header and returns the status.
func serve(s *Server, method, target, remote, forwardedFor string) int {
	req := httptest.NewRequest(method, target, nil)
	req.RemoteAddr = remote
	if forwardedFor != "" {
		req.Header.Set("X-Forwarded-For", forwardedFor)
	}
	rec := httptest.NewRecorder()
	s.ServeHTTP(rec, req)
	return rec.Code
}

func TestAccessLog_ClientFromTrustedProxyOnly(t *testing.T) {
	var buf bytes.Buffer
	s := captureServer(t, []string{"10.0.0.0/8"}, &buf)
	for _, tc := range []struct {
		name, remote, xff, want string
	}{
		{"trusted proxy: the forwarded client is believed", "10.1.2.3:40000", "203.0.113.7", "203.0.113.7"},
		{"trusted proxy chain: the first untrusted hop", "10.1.2.3:40000", "203.0.113.7, 10.9.9.9", "203.0.113.7"},
		{"untrusted peer: its header is ignored", "192.0.2.9:5555", "203.0.113.7", "192.0.2.9"},
		{"no header", "192.0.2.9:5555", "", "192.0.2.9"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if code := serve(s, http.MethodGet, mount+"/healthz", tc.remote, tc.xff); code != http.StatusOK {
				t.Fatalf("status %d", code)
			}
			ls := lines(t, &buf)
			if len(ls) != 1 || ls[0]["msg"] != "request" {
				t.Fatalf("want one access line, got %v", ls)
			}
			if got := ls[0]["client"]; got != tc.want {
				t.Errorf("client = %v, want %s", got, tc.want)
			}
		})
	}

	// Without --trusted-proxies nobody's header is believed.
	var plain bytes.Buffer
	s = captureServer(t, nil, &plain)
	serve(s, http.MethodGet, mount+"/healthz", "127.0.0.1:40000", "203.0.113.7")
	if ls := lines(t, &plain); len(ls) != 1 || ls[0]["client"] != "127.0.0.1" {
		t.Errorf("no trusted proxies: log = %v, want client 127.0.0.1", ls)
	}
}

func TestAccessLog_Line(t *testing.T) {
	var buf bytes.Buffer
	s := captureServer(t, nil, &buf)
	target := mount + "/?suite=" + url.QueryEscape("secret suite") + "&token=hunter2&agent=a&suite=b"
	if code := serve(s, http.MethodGet, target, "192.0.2.1:1", ""); code != http.StatusOK {
		t.Fatalf("status %d", code)
	}
	ls := lines(t, &buf)
	if len(ls) != 1 {
		t.Fatalf("want one line, got %v", ls)
	}
	l := ls[0]
	if l["method"] != "GET" || l["path"] != mount+"/?agent&suite&token" || l["status"] != float64(200) || l["client"] != "192.0.2.1" {
		t.Errorf("access line = %v", l)
	}
	if d, ok := l["duration"].(float64); !ok || d <= 0 {
		t.Errorf("duration = %v, want a positive number of nanoseconds", l["duration"])
	}
	for _, secret := range []string{"hunter2", "secret"} {
		if strings.Contains(toJSON(l), secret) {
			t.Errorf("access line leaks the query value %q: %v", secret, l)
		}
	}

	// Refused methods and unknown addresses are logged too.
	serve(s, http.MethodPost, mount+"/", "192.0.2.1:1", "")
	serve(s, http.MethodGet, "/nowhere", "192.0.2.1:1", "")
	ls = lines(t, &buf)
	if len(ls) != 2 || ls[0]["status"] != float64(405) || ls[0]["method"] != "POST" || ls[1]["status"] != float64(404) {
		t.Errorf("405 and 404 lines = %v", ls)
	}
}

func TestAccessLog_ErrorNamesClient(t *testing.T) {
	var buf bytes.Buffer
	s := captureServer(t, []string{"10.0.0.1"}, &buf)
	if err := s.db.Close(); err != nil {
		t.Fatal(err)
	}
	if code := serve(s, http.MethodGet, mount+"/", "10.0.0.1:3000", "198.51.100.4"); code != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503", code)
	}
	var failed logLine
	for _, l := range lines(t, &buf) {
		if l["msg"] == "request failed" {
			failed = l
		}
	}
	if failed == nil || failed["client"] != "198.51.100.4" || failed["cause"] == nil || failed["status"] != float64(503) {
		t.Errorf("error line = %v, want status 503, the cause and client 198.51.100.4", failed)
	}
}

func toJSON(v any) string {
	b, _ := json.Marshal(v)
	return string(b)
}

// TestAccessLog_BudgetExceededLoggedOnce: a search stopped by the request
// budget answers 503 and is logged on one line, never as a failure and
// again as a success.
func TestAccessLog_BudgetExceededLoggedOnce(t *testing.T) {
	var buf bytes.Buffer
	rw, ro := MustOpenDBs(t, "sqlite")
	seedFixture(t, rw)
	s, err := New(Config{DB: ro, MountPath: mount, RequestBudget: time.Nanosecond,
		Logger: slog.New(slog.NewJSONHandler(&buf, nil))})
	if err != nil {
		t.Fatal(err)
	}
	if code := serve(s, http.MethodGet, mount+"/search?q=days", "192.0.2.1:1", ""); code != http.StatusServiceUnavailable {
		t.Fatalf("status %d, want 503", code)
	}
	ls := lines(t, &buf)
	if len(ls) != 1 || ls[0]["msg"] != "request failed" || ls[0]["status"] != float64(503) || ls[0]["cause"] == nil {
		t.Errorf("log lines = %v, want one failure line with status 503 and its cause", ls)
	}
}
