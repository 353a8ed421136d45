package testdb

import (
	"fmt"
	"os"
	"path/filepath"
	"strconv"
	"testing"
)

// Dedicated is a PostgreSQL server of one test's own, for tests that stop
// and restart the server (never do that to the shared one). It is stopped
// and removed when the test ends.
type Dedicated struct {
	// URL reaches the server's postgres database as the postgres user.
	URL string

	tb              testing.TB
	bin, data, opts string
	asUser, logFile string
}

// StartDedicated initialises and starts a throwaway server in a temp dir
// (about 1.5 s), as the postgres user when running as root.
func StartDedicated(tb testing.TB) *Dedicated {
	tb.Helper()
	bin, err := binDir()
	if err != nil {
		fail(tb, "%v", err)
	}
	dir, err := os.MkdirTemp("", "agentevals-pgdedicated-")
	if err != nil {
		tb.Fatalf("testdb: %v", err)
	}
	data, sock := filepath.Join(dir, "data"), filepath.Join(dir, "sock")
	for _, d := range []string{data, sock} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			tb.Fatalf("testdb: %v", err)
		}
	}
	asUser, err := runAs(dir, data, sock)
	if err != nil {
		fail(tb, "%v", err)
	}
	port, err := freePort()
	if err != nil {
		tb.Fatalf("testdb: %v", err)
	}
	if out, err := command(asUser, filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres",
		"--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C").CombinedOutput(); err != nil {
		tb.Fatalf("testdb: initdb: %v\n%s", err, out)
	}
	d := &Dedicated{URL: serverURL(strconv.Itoa(port)), tb: tb, bin: bin, data: data, asUser: asUser,
		logFile: filepath.Join(dir, "server.log"),
		opts:    fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -c unix_socket_directories=%s -c fsync=off", port, sock)}
	tb.Cleanup(func() {
		_ = command(asUser, filepath.Join(bin, "pg_ctl"), "-D", data, "-m", "immediate", "stop").Run()
		os.RemoveAll(dir)
	})
	d.Start()
	return d
}

// Start starts the (stopped) server and waits until it accepts connections.
func (d *Dedicated) Start() {
	d.tb.Helper()
	if out, err := command(d.asUser, filepath.Join(d.bin, "pg_ctl"), "-D", d.data, "-w", "-t", "60",
		"-l", d.logFile, "-o", d.opts, "start").CombinedOutput(); err != nil {
		log, _ := os.ReadFile(d.logFile)
		d.tb.Fatalf("testdb: pg_ctl start: %v\n%s\n%s", err, out, log)
	}
	if err := ping(d.URL); err != nil {
		d.tb.Fatalf("testdb: %v", err)
	}
}

// StopImmediate stops the server in immediate mode: every connection is
// cut at once, as in a crash.
func (d *Dedicated) StopImmediate() {
	d.tb.Helper()
	if out, err := command(d.asUser, filepath.Join(d.bin, "pg_ctl"), "-D", d.data, "-m", "immediate", "-w", "stop").CombinedOutput(); err != nil {
		d.tb.Fatalf("testdb: pg_ctl stop: %v\n%s", err, out)
	}
}
