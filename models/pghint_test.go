package models_test

import (
	"context"
	"net"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
)

// TestOpen_PostgresHints: a refused connection and a missing database get
// their likely cause in the error, besides pgx's own message.
func TestOpen_PostgresHints(t *testing.T) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	closed := ln.Addr().String()
	ln.Close() // nothing listens there now
	u, err := url.Parse(testdb.PostgresURL(t))
	if err != nil {
		t.Fatal(err)
	}
	u.Path = "/no_such_database_i14"
	tests := []struct{ name, url, want string }{
		{"server down", "postgres://postgres@" + closed + "/evals?sslmode=disable&connect_timeout=5",
			"connection refused at " + closed + ": the server is not running, or listens on another host or port"},
		{"missing database", u.String(), "the database does not exist: create it (createdb) or fix its name in the URL"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
			defer cancel()
			db, err := models.Open(ctx, tt.url, models.OpenOptions{})
			if err == nil {
				db.Close()
				t.Fatal("Open succeeded")
			}
			if !strings.Contains(err.Error(), tt.want) {
				t.Errorf("Open: %v\nwant it to contain %q", err, tt.want)
			}
		})
	}
}
