package models_test

import (
	"context"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// TestOpen_RailsDatabaseURL: the DATABASE_URL a Rails app uses opens as it
// is (Rails' pool parameters ignored with a note, encoding sent as
// client_encoding), over sslmode's default; a real error of such a URL
// comes without pgx's line about the refused TLS attempt.
func TestOpen_RailsDatabaseURL(t *testing.T) {
	u, err := url.Parse(testdb.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	q := u.Query()
	q.Del("sslmode") // Rails URLs rarely set it: pgx then tries TLS first
	for k, v := range map[string]string{"pool": "5", "encoding": "unicode", "timeout": "5000", "reconnect": "true", "prepared_statements": "false"} {
		q.Set(k, v)
	}
	u.RawQuery = q.Encode()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	db, err := models.Open(ctx, u.String(), models.OpenOptions{})
	if err != nil {
		t.Fatalf("Open(a Rails DATABASE_URL): %v", err)
	}
	defer db.Close()
	if len(db.Notes) != 1 || !strings.Contains(db.Notes[0], "pool, prepared_statements, reconnect, timeout") {
		t.Errorf("notes %q, want one naming the ignored parameters", db.Notes)
	}
	var enc string
	if err := db.QueryRowContext(ctx, "SHOW client_encoding").Scan(&enc); err != nil || enc != "UTF8" {
		t.Errorf("client_encoding %q, %v", enc, err)
	}

	q.Set("no_such_setting", "1")
	u.RawQuery = q.Encode()
	_, err = models.Open(ctx, u.String(), models.OpenOptions{})
	if err == nil || !strings.Contains(err.Error(), `unrecognized configuration parameter "no_such_setting"`) {
		t.Fatalf("Open with an unknown setting: %v", err)
	}
	if strings.Contains(err.Error(), "tls error") {
		t.Errorf("the refused TLS attempt is still in the error:\n%v", err)
	}
}
