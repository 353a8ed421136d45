package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// TestServer_UnmigratedDatabase: on a PostgreSQL database without the
// evaluation tables, /healthz fails and every page says to migrate.
func TestServer_UnmigratedDatabase(t *testing.T) {
	ctx, cancel := context.WithTimeout(context.Background(), time.Minute)
	defer cancel()
	db, err := models.Open(ctx, testdb.PostgresURL(t), models.OpenOptions{ReadOnly: true})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	ts := MustServe(t, db, mount)
	for _, p := range []string{"/healthz", mount + "/healthz"} {
		if r := fetch(t, http.MethodGet, ts.URL+p); r.Status != http.StatusServiceUnavailable || !strings.HasPrefix(r.Body, "evaluation tables missing\nRun `evalrun db:migrate`") {
			t.Errorf("GET %s: %d %q, want 503 \"evaluation tables missing\"", p, r.Status, r.Body)
		}
	}
	id := "0190aa00-0000-7000-8000-000000000000"
	for _, p := range []string{"/", "/runs/" + id, "/runs/" + id + "/cases/0", "/runs/" + id + "/report.json",
		"/compare?a=" + id + "&b=" + id} {
		r := fetch(t, http.MethodGet, ts.URL+mount+p)
		if r.Status != http.StatusServiceUnavailable {
			t.Errorf("GET %s: %d, want 503", p, r.Status)
			continue
		}
		msg := text(mustSelect(t, r.Doc, "p.error-message")[0])
		if !strings.Contains(msg, "evaluation tables do not exist") || !strings.Contains(msg, "evalrun db:migrate") {
			t.Errorf("GET %s: message %q does not say to run evalrun db:migrate", p, msg)
		}
		for _, leak := range []string{"sql", "relation", "postgres", "ruby_llm", "42P01"} {
			if strings.Contains(strings.ToLower(r.Body), strings.ToLower(leak)) {
				t.Errorf("GET %s: page leaks %q", p, leak)
			}
		}
	}
}
