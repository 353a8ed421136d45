package testdb

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"syscall"

	"github.com/agentevals-go/agentevals/bounds"
)

// reapTiming is how often the reaper looks for leases and after how many
// looks in a row without one it stops the server.
type reapTiming struct {
	interval string // sleep(1) seconds
	checks   int
}

// defaultReap stops the shared server about 6 s after its last user
// exited: long enough for `go test ./...` to hand it from one package's
// test binary to the next without a restart most of the time.
var defaultReap = reapTiming{interval: "2", checks: 3}

// leases are the lease files this process holds, by directory: the file
// descriptors stay open (and their shared locks held) until the process
// exits, when the kernel releases them, however the process ends. This is
// process-wide on purpose: a lease belongs to the test binary, not to a
// test.
var leases = struct {
	sync.Mutex
	held map[string]int
}{held: map[string]int{}}

// holdLease takes this process's shared lock on dir/lease, once.
func holdLease(dir string) error {
	leases.Lock()
	defer leases.Unlock()
	if _, ok := leases.held[dir]; ok {
		return nil
	}
	// A raw descriptor: an *os.File would be closed by its finalizer.
	fd, err := syscall.Open(filepath.Join(dir, "lease"), syscall.O_RDONLY|syscall.O_CREAT|syscall.O_CLOEXEC, 0o644)
	if err != nil {
		return fmt.Errorf("test server lease: %w", err)
	}
	if err := syscall.Flock(fd, syscall.LOCK_SH); err != nil {
		syscall.Close(fd)
		return fmt.Errorf("test server lease: %w", err)
	}
	leases.held[dir] = fd
	return nil
}

// reaperScript stops the server once no process has held a lease for
// $checks looks in a row, $interval seconds apart. The stop happens under
// the start lock and only if the lease is still free, so a process that
// is about to use the server either finds it stopped (and starts a new
// one) or holds its lease first. It exits when the server is gone.
const reaperScript = `dir=$1 pgctl=$2 data=$3 user=$4 interval=$5 checks=$6
idle=0
while sleep "$interval"; do
  [ -f "$data/postmaster.pid" ] || exit 0
  if flock -n -x "$dir/lease" true; then idle=$((idle + 1)); else idle=0; fi
  [ "$idle" -ge "$checks" ] || continue
  if flock -x "$dir/lock" sh -c '
    flock -n -x "$1/lease" true || exit 1
    rm -f "$1/port"
    if [ -n "$4" ]; then runuser -u "$4" -- "$2" -D "$3" -m fast -w stop; else "$2" -D "$3" -m fast -w stop; fi
  ' reaper "$dir" "$pgctl" "$data" "$user" >/dev/null 2>&1; then
    exit 0
  fi
  idle=0
done`

// ensureReaper starts the reaper of the server in dir unless one is
// running (its pid in dir/reaper.pid answers signal 0). The reaper runs in
// its own session with no inherited streams, so that it outlives the test
// binary and go test does not wait for it.
func ensureReaper(dir string, reap reapTiming) error {
	pidFile := filepath.Join(dir, "reaper.pid")
	if b, err := bounds.ReadFile(pidFile, 64); err == nil {
		if pid, err := strconv.Atoi(strings.TrimSpace(string(b))); err == nil && syscall.Kill(pid, 0) == nil {
			return nil
		}
	}
	for _, p := range []string{"flock", "setsid"} {
		if _, err := exec.LookPath(p); err != nil {
			return fmt.Errorf("test server reaper: %s is needed to stop the server after the tests: apt-get install -y util-linux", p)
		}
	}
	bin, err := binDir()
	if err != nil {
		return err
	}
	asUser := ""
	if os.Geteuid() == 0 {
		asUser = "postgres"
	}
	cmd := exec.Command("setsid", "sh", "-c", reaperScript, "reaper", dir, filepath.Join(bin, "pg_ctl"),
		filepath.Join(dir, "data"), asUser, reap.interval, strconv.Itoa(reap.checks))
	if err := cmd.Start(); err != nil {
		return fmt.Errorf("test server reaper: %w", err)
	}
	pid := cmd.Process.Pid
	if err := cmd.Process.Release(); err != nil {
		return fmt.Errorf("test server reaper: %w", err)
	}
	return os.WriteFile(pidFile, []byte(strconv.Itoa(pid)), 0o644)
}
