package proc

import (
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"os/signal"
	"strconv"
	"syscall"
	"time"
)

// GuardianEnv names the environment variable that turns an evalrun
// process into the guardian of a run: its value is the run's process tag.
const GuardianEnv = "AGENTEVALS_GUARDIAN_FOR"

// Guardian is a helper process (evalrun itself, started with GuardianEnv)
// that outlives evalrun when evalrun is killed with SIGKILL: it notices
// because its stdin, a pipe from evalrun, reaches end of file, and then
// kills every process tagged with the run's tag. Pdeathsig only reaches
// the agents' main processes; their children, and the ones that escaped
// with setsid, are the guardian's.
type Guardian struct {
	// Tag is the prefix of every agent process's TagEnv value;
	// pass it as AgentOptions.ProcessTag.
	Tag string
	w   *os.File
	cmd *exec.Cmd
}

// StartGuardian starts the executable at exe (evalrun's own, from
// os.Executable) as the run's guardian.
func StartGuardian(exe string) (*Guardian, error) {
	r, w, err := os.Pipe()
	if err != nil {
		return nil, fmt.Errorf("start guardian: %w", err)
	}
	tag := newTag()
	cmd := exec.Command(exe)
	cmd.Env = append(os.Environ(), GuardianEnv+"="+tag)
	cmd.Stdin = r
	// its own group: a Ctrl-C aimed at evalrun must not end the guardian first
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if err := cmd.Start(); err != nil {
		CloseAll(r, w)
		return nil, fmt.Errorf("start guardian: %w", err)
	}
	CloseAll(r)
	return &Guardian{Tag: tag, w: w, cmd: cmd}, nil
}

// Close tells the guardian that evalrun is done (it sweeps once more and
// exits) and waits for it.
func (g *Guardian) Close() error {
	_ = g.w.Close()
	return g.cmd.Wait()
}

// Guard is the guardian's body: it waits until r (the pipe from evalrun)
// ends, then kills every process whose TagEnv starts with tag,
// repeating until none is left. It ignores SIGINT, SIGTERM and SIGHUP so
// that it outlives evalrun.
func Guard(r io.Reader, tag string) {
	signal.Ignore(syscall.SIGINT, syscall.SIGTERM, syscall.SIGHUP)
	_, _ = io.Copy(io.Discard, r)
	KillTagged(tag)
}

// KillTagged kills every live process whose TagEnv value starts
// with tag+"-" and returns how many it killed; processes started by their
// victims are found on the next pass.
func KillTagged(tag string) int {
	prefix := []byte(TagEnv + "=" + tag + "-")
	killed := 0
	for range 50 {
		found := 0
		entries, _ := os.ReadDir("/proc")
		for _, e := range entries {
			pid, err := strconv.Atoi(e.Name())
			if err != nil || pid == os.Getpid() {
				continue
			}
			env, err := os.ReadFile("/proc/" + e.Name() + "/environ")
			if err != nil || !hasPrefixVar(env, prefix) {
				continue
			}
			if syscall.Kill(pid, syscall.SIGKILL) == nil {
				found++
			}
		}
		if found == 0 {
			break
		}
		killed += found
		time.Sleep(10 * time.Millisecond) // let the kernel re-parent their children
	}
	return killed
}

func hasPrefixVar(env, prefix []byte) bool {
	for _, kv := range bytes.Split(env, []byte{0}) {
		if bytes.HasPrefix(kv, prefix) {
			return true
		}
	}
	return false
}
