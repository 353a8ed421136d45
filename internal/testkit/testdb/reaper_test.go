package testdb

import (
	"bufio"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"
)

// helperDirEnv makes the test binary a user of the shared server in that
// directory (TestHelperUser) instead of running the tests.
const helperDirEnv = "AGENTEVALS_TESTDB_HELPER_DIR"

var fastReap = reapTiming{interval: "0.5", checks: 2}

// TestMain makes the test binary, when helperDirEnv is set, a user of the
// shared server in that directory instead of running the tests (see
// helperUser).
func TestMain(m *testing.M) {
	if dir := os.Getenv(helperDirEnv); dir != "" {
		os.Exit(helperUser(dir))
	}
	os.Exit(m.Run())
}

// helperUser gets the shared server of dir, prints its URL, waits for
// stdin to close and exits (releasing its lease).
func helperUser(dir string) int {
	u, err := sharedServer(dir, fastReap)
	if err != nil {
		os.Stderr.WriteString("helper: " + err.Error() + "\n")
		return 1
	}
	os.Stdout.WriteString("URL " + u + "\n")
	bufio.NewReader(os.Stdin).ReadString('\n')
	return 0
}

// TestSharedServer_StopsAfterLastUser: the shared server stays up while a
// test process holds a lease on it, even across the reaper's idle window,
// and is stopped once the last one exited, so no server is left running.
func TestSharedServer_StopsAfterLastUser(t *testing.T) {
	dir, err := os.MkdirTemp("", "agentevals-pgreaper-") // under t.TempDir, a 0700 parent would keep the postgres user out
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { os.RemoveAll(dir) })
	start := func() (*exec.Cmd, func(), string) {
		cmd := exec.Command(os.Args[0])
		cmd.Env = append(os.Environ(), helperDirEnv+"="+dir)
		in, _ := cmd.StdinPipe()
		out, _ := cmd.StdoutPipe()
		cmd.Stderr = os.Stderr
		if err := cmd.Start(); err != nil {
			t.Fatal(err)
		}
		line, err := bufio.NewReader(out).ReadString('\n')
		if err != nil || !strings.HasPrefix(line, "URL ") {
			cmd.Process.Kill()
			t.Fatalf("helper: %q %v", line, err)
		}
		return cmd, func() { in.Close(); cmd.Wait() }, strings.TrimSpace(strings.TrimPrefix(line, "URL "))
	}
	_, stopA, u := start()
	_, stopB, u2 := start()
	if u != u2 {
		t.Fatalf("two users got two servers: %s, %s", u, u2)
	}
	stopA()
	time.Sleep(3 * time.Second) // several idle windows of the reaper: B still holds its lease
	if err := ping(u); err != nil {
		t.Fatalf("the server stopped while a process still used it: %v", err)
	}
	stopB()
	deadline := time.Now().Add(30 * time.Second)
	pidFile := filepath.Join(dir, "data", "postmaster.pid")
	for {
		_, err := os.Stat(pidFile)
		if ping(u) != nil && os.IsNotExist(err) {
			break // stopped, and shut down cleanly
		}
		if time.Now().After(deadline) {
			t.Fatalf("the server at %s still runs 30 s after its last user exited (postmaster.pid: %v)", u, err)
		}
		time.Sleep(200 * time.Millisecond)
	}
}
