package main

import (
	"bytes"
	"net"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
)

func TestRun_Refusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		args []string
		env  map[string]string
		code int
		want string
	}{
		{"missing default database", nil, map[string]string{"XDG_DATA_HOME": t.TempDir(), "DATABASE_URL": ""}, exitInvalid,
			"does not exist yet"},
		{"unsafe mount path", []string{"--mount-path", "evaluations"}, nil, exitInvalid, "must start with /"},
		{"unsupported url", []string{"--database-url", "mysql://x"}, nil, exitInvalid, "unsupported database url"},
		{"missing sqlite file", []string{"--database-url", "sqlite:" + t.TempDir() + "/none.sqlite3"}, nil, exitInvalid, "no SQLite database"},
		{"bad listen address", []string{"--database-url", migratedURL(t), "--listen", "127.0.0.1:99999"}, nil, exitInvalid, "--listen"},
		{"unmigrated postgres", []string{"--database-url", testdb.PostgresURL(t)}, nil, exitInvalid,
			"the evaluation tables are missing from postgres://"},
		{"unmigrated postgres names the fix", []string{"--database-url", testdb.PostgresURL(t)}, nil, exitInvalid,
			"run `evalrun db:migrate` with the same database URL, then start evaldash again"},
		{"unknown flag", []string{"--no-such-flag"}, nil, exitInvalid, "unknown flag"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			for k, v := range tc.env {
				t.Setenv(k, v)
			}
			args := tc.args
			if !strings.Contains(strings.Join(args, " "), "--listen") {
				args = append(args, "--listen", "127.0.0.1:0")
			}
			var out, errb bytes.Buffer
			code := run(args, &out, &errb)
			if code != tc.code || !strings.Contains(errb.String(), tc.want) {
				t.Errorf("exit %d, stderr %q; want exit %d and %q", code, errb.String(), tc.code, tc.want)
			}
		})
	}
}

func TestRun_HelpAndVersion(t *testing.T) {
	for _, tc := range []struct {
		args    []string
		want    []string
		notWant string
	}{
		{[]string{"--help"}, []string{"--listen=HOST:PORT", "default: 127.0.0.1:4567", "--trusted-proxies=CIDR,...", "--version"}, "…,"},
		{[]string{"--version"}, []string{"evaldash (devel)"}, ""},
	} {
		var out, errb bytes.Buffer
		if code := run(tc.args, &out, &errb); code != 0 {
			t.Errorf("%v: exit %d\n%s", tc.args, code, errb.String())
		}
		for _, w := range tc.want {
			if !strings.Contains(out.String(), w) {
				t.Errorf("%v: output lacks %q:\n%s", tc.args, w, out.String())
			}
		}
		if tc.notWant != "" && strings.Contains(out.String(), tc.notWant) {
			t.Errorf("%v: output shows %q", tc.args, tc.notWant)
		}
	}
}

// migratedURL is the URL of a fresh PostgreSQL schema holding the
// evaluation tables.
func migratedURL(t *testing.T) string {
	t.Helper()
	db := testdb.Postgres(t)
	return db.URL
}

// TestLoopback: an address on every interface, or on another host's
// network, is not loopback, so evaldash warns that it has no login of its
// own (the addresses are not listened on: tests serve on 127.0.0.1 only).
func TestLoopback(t *testing.T) {
	for _, tc := range []struct {
		ip   net.IP
		want bool
	}{
		{net.IPv4(127, 0, 0, 1), true}, {net.IPv6loopback, true},
		{net.IPv4zero, false}, {net.IPv6unspecified, false}, {net.IPv4(10, 0, 0, 5), false},
	} {
		if got := loopback(&net.TCPAddr{IP: tc.ip, Port: 4567}); got != tc.want {
			t.Errorf("loopback(%s) = %v, want %v", tc.ip, got, tc.want)
		}
	}
}
