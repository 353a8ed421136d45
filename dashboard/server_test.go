package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

func TestServer_Methods(t *testing.T) {
	_, ro := MustOpenDBs(t, "sqlite")
	ts := MustServe(t, ro, mount)
	for _, method := range []string{http.MethodPost, http.MethodPut, http.MethodDelete, http.MethodPatch, "PROPFIND"} {
		for _, p := range []string{mount + "/", mount + "/runs/00000000-0000-0000-0000-000000000000", "/nowhere", mount + "/healthz"} {
			r := fetch(t, method, ts.URL+p)
			if r.Status != http.StatusMethodNotAllowed {
				t.Errorf("%s %s: status %d, want 405", method, p, r.Status)
			}
			if got := r.Header.Get("Allow"); got != "GET, HEAD" {
				t.Errorf("%s %s: Allow = %q", method, p, got)
			}
		}
	}
	r := fetch(t, http.MethodHead, ts.URL+mount+"/")
	if r.Status != http.StatusOK || r.Body != "" {
		t.Errorf("HEAD: status %d, body %d bytes; want 200 and no body", r.Status, len(r.Body))
	}
}

func TestServer_Headers(t *testing.T) {
	_, ro := MustOpenDBs(t, "sqlite")
	ts := MustServe(t, ro, mount)
	for _, p := range []string{mount + "/", mount + "/assets/style.css", mount + "/runs/x", mount + "/?limit=0"} {
		r := fetch(t, http.MethodGet, ts.URL+p)
		csp := r.Header.Get("Content-Security-Policy")
		for _, want := range []string{"default-src 'none'", "script-src 'none'", "style-src 'self'", "frame-ancestors 'none'", "base-uri 'none'"} {
			if !strings.Contains(csp, want) {
				t.Errorf("%s: CSP %q lacks %s", p, csp, want)
			}
		}
		if strings.Contains(csp, "unsafe-inline") || strings.Contains(csp, "unsafe-eval") {
			t.Errorf("%s: CSP allows unsafe code: %q", p, csp)
		}
		for h, want := range map[string]string{"X-Content-Type-Options": "nosniff", "Referrer-Policy": "no-referrer"} {
			if got := r.Header.Get(h); got != want {
				t.Errorf("%s: %s = %q, want %q", p, h, got, want)
			}
		}
	}
	if ct := fetch(t, http.MethodGet, ts.URL+mount+"/assets/style.css").Header.Get("Content-Type"); !strings.HasPrefix(ct, "text/css") {
		t.Errorf("stylesheet Content-Type = %q", ct)
	}
}

func TestServer_Errors(t *testing.T) {
	rw, ro := MustOpenDBs(t, "postgres")
	f := seedFixture(t, rw)
	ts := MustServe(t, ro, mount)
	base := ts.URL + mount
	for _, tc := range []struct {
		path string
		want int
	}{
		{"/runs/0190aa00-0000-7000-8000-000000000000", http.StatusNotFound},
		{"/runs/not-a-uuid", http.StatusNotFound},
		{"/runs/" + f.Candidate.ID.String() + "/cases/99", http.StatusNotFound},
		{"/runs/" + f.Candidate.ID.String() + "/cases/-1", http.StatusNotFound},
		{"/runs/" + f.Candidate.ID.String() + "/cases/x", http.StatusNotFound},
		{"/runs/0190aa00-0000-7000-8000-000000000000/report.json", http.StatusNotFound},
		{"/assets/../server.go", http.StatusNotFound},
		{"/assets/nothing.js", http.StatusNotFound},
		{"/no/such/page", http.StatusNotFound},
		{"/?suite=" + strings.Repeat("a", 201), http.StatusBadRequest},
		{"/?suite=%01", http.StatusBadRequest},
		{"/?from=2026-13-01", http.StatusBadRequest},
		{"/?from=yesterday", http.StatusBadRequest},
		{"/?from=2026-11-21&to=2026-11-20", http.StatusBadRequest},
		{"/?status=bogus", http.StatusBadRequest},
		{"/?kind=bogus", http.StatusBadRequest},
		{"/?kind=production", http.StatusOK},
		{"/?kind=suite", http.StatusOK},
		{"/?limit=201", http.StatusBadRequest},
		{"/?limit=0", http.StatusBadRequest},
		{"/?cursor=abc", http.StatusBadRequest},
		{"/?cursor=1.-2", http.StatusBadRequest},
		{"/compare?a=x&b=y", http.StatusBadRequest},
		{"/compare?a=" + f.Baseline.ID.String() + "&b=0190aa00-0000-7000-8000-000000000000", http.StatusNotFound},
		{"/?limit=200", http.StatusOK},
	} {
		r := fetch(t, http.MethodGet, base+tc.path)
		if r.Status != tc.want {
			t.Errorf("GET %s: status %d, want %d", tc.path, r.Status, tc.want)
			continue
		}
		if tc.want != http.StatusOK && len(selectAll(r.Doc, "p.error-message")) != 1 {
			t.Errorf("GET %s: no error page", tc.path)
		}
	}
	if r := fetch(t, http.MethodGet, ts.URL+"/runs/"+f.Candidate.ID.String()); r.Status != http.StatusNotFound {
		t.Errorf("a path outside the mount path answered %d", r.Status)
	}
}

func TestServer_DatabaseDown(t *testing.T) {
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			rw, ro := MustOpenDBs(t, backend)
			f := seedFixture(t, rw)
			ts := MustServe(t, ro, mount)
			for _, p := range []string{"/healthz", mount + "/healthz"} {
				if r := fetch(t, http.MethodGet, ts.URL+p); r.Status != http.StatusOK || r.Body != "ok\n" {
					t.Errorf("GET %s: %d %q", p, r.Status, r.Body)
				}
			}
			ro.Close()
			for _, p := range []string{mount + "/", mount + "/runs/" + f.Candidate.ID.String(), mount + "/healthz"} {
				r := fetch(t, http.MethodGet, ts.URL+p)
				if r.Status != http.StatusServiceUnavailable {
					t.Errorf("GET %s with the database gone: %d, want 503", p, r.Status)
				}
				for _, leak := range []string{"sql", "closed", "postgres", "sqlite", "ruby_llm"} {
					if strings.Contains(strings.ToLower(r.Body), leak) {
						t.Errorf("GET %s: 503 page leaks %q:\n%s", p, leak, r.Body)
					}
				}
			}
		})
	}
}

// TestReadOnlyConnection writes through the connection the dashboard uses:
// the database itself must refuse.
func TestReadOnlyConnection(t *testing.T) {
	for _, tc := range []struct{ backend, want string }{
		{"postgres", "read-only transaction"},
		{"sqlite", "readonly database"},
	} {
		t.Run(tc.backend, func(t *testing.T) {
			rw, ro := MustOpenDBs(t, tc.backend)
			seedFixture(t, rw)
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			run := &models.Run{Suite: "s", Agent: "a", Version: "1", SuiteDigest: "d", StartedAt: time.Now(), FinishedAt: time.Now()}
			err := ro.InsertRun(ctx, run)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("InsertRun through the read-only connection: %v, want an error containing %q", err, tc.want)
			}
			for _, stmt := range []string{
				"DELETE FROM " + models.MetricResultsTable,
				"UPDATE " + models.RunsTable + " SET suite = 'x'",
				"CREATE TABLE evil (id integer)",
			} {
				if _, err := ro.ExecContext(ctx, stmt); err == nil || !strings.Contains(err.Error(), tc.want) {
					t.Errorf("%s: %v, want an error containing %q", stmt, err, tc.want)
				}
			}
			var n int
			if err := rw.NewSelect().Table(models.RunsTable).ColumnExpr("count(*)").Scan(ctx, &n); err != nil || n != 4 {
				t.Errorf("runs after the attempts = %d (%v), want 4", n, err)
			}
		})
	}
}

func TestCleanMountPath(t *testing.T) {
	for _, tc := range []struct {
		in, want string
		ok       bool
	}{
		{"", "", true}, {"/", "", true}, {"/evaluations", "/evaluations", true}, {"/evaluations/", "/evaluations", true},
		{"/a/b", "/a/b", true}, {"evaluations", "", false}, {"/a/../b", "/b", true}, {"/a b", "", false},
		{"/a?x", "", false}, {"/<script>", "", false}, {"/%2e", "", false},
	} {
		got, err := CleanMountPath(tc.in)
		if (err == nil) != tc.ok || got != tc.want {
			t.Errorf("CleanMountPath(%q) = %q, %v; want %q, ok=%v", tc.in, got, err, tc.want, tc.ok)
		}
	}
}
