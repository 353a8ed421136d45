package models

import (
	"context"
	"errors"
	"net"
	"strings"
	"syscall"

	"github.com/jackc/pgx/v5/pgconn"
)

// connectHint names the likely cause of a failed PostgreSQL connection,
// for the error Open returns: "" when there is nothing useful to add.
func connectHint(err error, host string) string {
	var pg *pgconn.PgError
	if errors.As(err, &pg) {
		switch {
		case pg.Code == "28P01" || pg.Code == "28000":
			return "authentication failed: check the user and password in the URL (and pg_hba.conf for this client address)"
		case pg.Code == "3D000":
			return "the database does not exist: create it (createdb) or fix its name in the URL"
		case pg.Code == "53300":
			return "the server has no free connection slots: close idle clients or raise max_connections"
		case pg.Code == "57P03":
			return "the server is starting up or shutting down: try again in a moment"
		}
		return ""
	}
	var dns *net.DNSError
	switch {
	case errors.Is(err, syscall.ECONNREFUSED):
		return "connection refused at " + host + ": the server is not running, or listens on another host or port"
	case errors.As(err, &dns):
		return "the host name does not resolve: check the host in the URL"
	case errors.Is(err, context.DeadlineExceeded) || isTimeout(err):
		return "no answer from " + host + ": a firewall, a wrong host or a server that is down"
	case strings.Contains(err.Error(), "server does not support SSL") || strings.Contains(err.Error(), "SSL is not enabled"):
		return "the server does not speak TLS: add sslmode=disable to the URL (only on a trusted network)"
	}
	return ""
}

func isTimeout(err error) bool {
	var ne net.Error
	return errors.As(err, &ne) && ne.Timeout()
}

// refusedTLS is the line pgx adds for the TLS attempt of sslmode=prefer (its
// default) when the server does not speak TLS; the plaintext attempt after
// it carries the real cause.
const refusedTLS = "tls error: server refused TLS connection"

// quietTLS is a connection error shown without the refused TLS attempt.
type quietTLS struct{ err error }

func (e quietTLS) Error() string {
	var kept []string
	for _, line := range strings.Split(e.err.Error(), "\n") {
		if !strings.Contains(line, refusedTLS) {
			kept = append(kept, line)
		}
	}
	return strings.Join(kept, "\n")
}

func (e quietTLS) Unwrap() error { return e.err }

// withoutRefusedTLS drops the refused TLS attempt from a connection error
// that has another attempt to tell about.
func withoutRefusedTLS(err error) error {
	msg := err.Error()
	if !strings.Contains(msg, refusedTLS) || strings.Count(msg, "\n") == 0 {
		return err
	}
	return quietTLS{err}
}
