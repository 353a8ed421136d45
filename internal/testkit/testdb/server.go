package testdb

import (
	"context"
	"errors"
	"fmt"
	"net"
	"os"
	"os/exec"
	"os/user"
	"path/filepath"
	"sort"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/jackc/pgx/v5"
)

// ServerURL returns the URL of a PostgreSQL server for tests:
// TEST_DATABASE_URL when set, else a throwaway server in
// $TMPDIR/agentevals-pgshared shared by the test processes on the machine
// (started on first use under a file lock). Every process that uses it
// holds a lease on it until it exits, and a reaper started with the
// server stops it once no process has held a lease for a few seconds, so
// `go test ./...` leaves no server running (see reaperScript).
func ServerURL(tb testing.TB) string {
	tb.Helper()
	if u := os.Getenv("TEST_DATABASE_URL"); u != "" {
		return u
	}
	u, err := sharedServer(filepath.Join(os.TempDir(), "agentevals-pgshared"), defaultReap)
	if err != nil {
		fail(tb, "%v", err)
	}
	return u
}

func sharedServer(dir string, reap reapTiming) (string, error) {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return "", fmt.Errorf("start test server: %w", err)
	}
	lock, err := os.OpenFile(filepath.Join(dir, "lock"), os.O_CREATE|os.O_RDWR, 0o644)
	if err != nil {
		return "", fmt.Errorf("start test server: %w", err)
	}
	defer lock.Close()
	if err := syscall.Flock(int(lock.Fd()), syscall.LOCK_EX); err != nil {
		return "", fmt.Errorf("start test server: lock: %w", err)
	}
	defer syscall.Flock(int(lock.Fd()), syscall.LOCK_UN)

	u := ""
	if b, err := os.ReadFile(filepath.Join(dir, "port")); err == nil {
		if u = serverURL(strings.TrimSpace(string(b))); ping(u) != nil {
			u = ""
		}
	}
	if u == "" {
		if u, err = startServer(dir); err != nil {
			return "", err
		}
	}
	// Under the lock: the reaper stops the server only under it too, and
	// only when no lease is held.
	if err := holdLease(dir); err != nil {
		return "", err
	}
	if err := ensureReaper(dir, reap); err != nil {
		return "", err
	}
	return u, nil
}

func serverURL(port string) string {
	return "postgres://postgres@127.0.0.1:" + port + "/postgres?sslmode=disable"
}

func ping(u string) error {
	ctx, cancel := context.WithTimeout(context.Background(), 3*time.Second)
	defer cancel()
	conn, err := pgx.Connect(ctx, u)
	if err != nil {
		return err
	}
	return conn.Close(ctx)
}

// binDir finds the newest /usr/lib/postgresql/*/bin holding initdb.
func binDir() (string, error) {
	dirs, _ := filepath.Glob("/usr/lib/postgresql/*/bin/initdb")
	if len(dirs) == 0 {
		return "", errors.New("start test server: no PostgreSQL server binaries under /usr/lib/postgresql/*/bin")
	}
	sort.Slice(dirs, func(i, j int) bool { return version(dirs[i]) > version(dirs[j]) })
	return filepath.Dir(dirs[0]), nil
}

func version(initdb string) int {
	v, _ := strconv.Atoi(filepath.Base(filepath.Dir(filepath.Dir(initdb))))
	return v
}

func startServer(dir string) (string, error) {
	bin, err := binDir()
	if err != nil {
		return "", err
	}
	data, sock := filepath.Join(dir, "data"), filepath.Join(dir, "sock")
	if err := os.RemoveAll(data); err != nil {
		return "", fmt.Errorf("start test server: %w", err)
	}
	for _, d := range []string{data, sock} {
		if err := os.MkdirAll(d, 0o700); err != nil {
			return "", fmt.Errorf("start test server: %w", err)
		}
	}
	asUser, err := runAs(dir, data, sock)
	if err != nil {
		return "", err
	}
	port, err := freePort()
	if err != nil {
		return "", err
	}
	if out, err := command(asUser, filepath.Join(bin, "initdb"), "-D", data, "-U", "postgres",
		"--auth=trust", "--no-sync", "-E", "UTF8", "--locale=C").CombinedOutput(); err != nil {
		return "", fmt.Errorf("start test server: initdb: %w\n%s", err, out)
	}
	opts := fmt.Sprintf("-p %d -c listen_addresses=127.0.0.1 -c unix_socket_directories=%s -c fsync=off "+
		"-c synchronous_commit=off -c full_page_writes=off -c max_connections=300", port, sock)
	logFile := filepath.Join(dir, "server.log")
	if out, err := command(asUser, filepath.Join(bin, "pg_ctl"), "-D", data, "-w", "-t", "60",
		"-l", logFile, "-o", opts, "start").CombinedOutput(); err != nil {
		log, _ := os.ReadFile(logFile)
		return "", fmt.Errorf("start test server: pg_ctl start: %w\n%s\n%s", err, out, log)
	}
	if err := os.WriteFile(filepath.Join(dir, "port"), []byte(strconv.Itoa(port)), 0o644); err != nil {
		return "", fmt.Errorf("start test server: %w", err)
	}
	u := serverURL(strconv.Itoa(port))
	if err := ping(u); err != nil {
		return "", fmt.Errorf("start test server: %w", err)
	}
	return u, nil
}

// runAs returns the user to run the server binaries as: "postgres" when we
// are root (initdb refuses root), else "" (ourselves). It hands the
// directories to that user.
func runAs(dirs ...string) (string, error) {
	if os.Geteuid() != 0 {
		return "", nil
	}
	pg, err := user.Lookup("postgres")
	if err != nil {
		return "", fmt.Errorf("start test server: running as root needs the postgres user: %w", err)
	}
	uid, _ := strconv.Atoi(pg.Uid)
	gid, _ := strconv.Atoi(pg.Gid)
	for _, d := range dirs {
		if err := os.Chown(d, uid, gid); err != nil {
			return "", fmt.Errorf("start test server: %w", err)
		}
	}
	return "postgres", nil
}

func command(asUser, name string, args ...string) *exec.Cmd {
	if asUser == "" {
		return exec.Command(name, args...)
	}
	return exec.Command("runuser", append([]string{"-u", asUser, "--", name}, args...)...)
}

func freePort() (int, error) {
	l, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return 0, fmt.Errorf("start test server: %w", err)
	}
	defer l.Close()
	return l.Addr().(*net.TCPAddr).Port, nil
}
