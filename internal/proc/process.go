package proc

import (
	"bytes"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"unsafe"

	"golang.org/x/sys/unix"
)

// Process hygiene. Every agent process evalrun starts:
//
//   - leads its own process group (Setpgid), and the group is killed
//     (SIGKILL) as soon as the agent's main process exits or times out;
//   - gets SIGKILL when evalrun dies (Pdeathsig; Linux sends it when the
//     OS thread that started the process exits, and the Go runtime does
//     not end its threads while evalrun runs, so in practice it fires when
//     evalrun dies);
//   - carries TagEnv=<run tag>-<n> in its environment, which its
//     children inherit. When evalrun is a child subreaper (BecomeSubreaper,
//     which evalrun's main calls), orphans of an agent, including ones that
//     escaped the group with setsid, are re-parented to evalrun; they are
//     found among its children by that tag and killed, and the case error
//     says the agent left background processes running. A Guardian process
//     kills every tagged process when evalrun itself is killed.

// TagEnv names the environment variable that tags agent processes.
const TagEnv = "AGENTEVALS_PROCESS_TAG"

// BecomeSubreaper makes the calling process a child subreaper: orphaned
// descendants are re-parented to it instead of init, so agents' escaped
// background processes can be found and killed.
func BecomeSubreaper() error {
	if err := unix.Prctl(unix.PR_SET_CHILD_SUBREAPER, 1, 0, 0, 0); err != nil {
		return fmt.Errorf("become child subreaper: %w", err)
	}
	return nil
}

func isSubreaper() bool {
	var v int32
	err := unix.Prctl(unix.PR_GET_CHILD_SUBREAPER, uintptr(unsafe.Pointer(&v)), 0, 0, 0) // prctl writes an int there
	return err == nil && v != 0
}

// Processes tracks the agent processes of one agent.
type Processes struct {
	Tag          string // this agent's tag prefix
	subreaper    bool
	childrenFile string // the main thread's children
	mu           sync.Mutex
	n            int
	leaders      map[int]bool // running leaders (our direct children)
	groupsSeen   map[int]bool // every group we started, for reaping zombies
}

func NewProcesses(runTag string) *Processes {
	if runTag == "" {
		runTag = newTag()
	}
	pid := strconv.Itoa(os.Getpid())
	return &Processes{Tag: runTag, subreaper: isSubreaper(), childrenFile: "/proc/" + pid + "/task/" + pid + "/children",
		leaders: map[int]bool{}, groupsSeen: map[int]bool{}}
}

func newTag() string {
	b := make([]byte, 8)
	_, _ = rand.Read(b)
	return hex.EncodeToString(b)
}

// Prepare sets up cmd as a tagged group leader that dies with evalrun and
// returns its tag.
func (p *Processes) Prepare(cmd *exec.Cmd) string {
	p.mu.Lock()
	p.n++
	tag := p.Tag + "-" + strconv.Itoa(p.n)
	p.mu.Unlock()
	cmd.Env = append(cmd.Env, TagEnv+"="+tag)
	setProcessGroup(cmd)
	return tag
}

// Started records a running leader.
func (p *Processes) Started(cmd *exec.Cmd) {
	p.mu.Lock()
	defer p.mu.Unlock()
	p.leaders[cmd.Process.Pid] = true
	p.groupsSeen[cmd.Process.Pid] = true
}

// Cleanup runs after the leader exited (and was waited for): it kills
// whatever is left of the agent's group and, under a subreaper, every
// re-parented process carrying tag. It returns a description of the
// processes that were still running ("sleep (pid 123)"), nil when none.
func (p *Processes) Cleanup(cmd *exec.Cmd, tag string) []string {
	if cmd.Process == nil {
		return nil
	}
	pgid := cmd.Process.Pid
	p.mu.Lock()
	delete(p.leaders, pgid)
	p.mu.Unlock()
	var left []string
	if syscall.Kill(-pgid, 0) == nil { // rare: something of the group survived
		left = append(left, liveInGroup(pgid)...)
	}
	_ = syscall.Kill(-pgid, syscall.SIGKILL)
	if p.subreaper {
		left = append(left, p.killOrphans(tag)...)
	}
	return uniqueNames(left)
}

// killOrphans kills our children that carry tag (they were re-parented to
// us), then their re-parented descendants, until none is left.
func (p *Processes) killOrphans(tag string) []string {
	var left []string
	for range 64 {
		found := false
		for _, pid := range p.children() {
			st, ok := readStat(pid)
			if !ok {
				continue
			}
			if st.state == 'Z' {
				if p.known(st.pgid) {
					var ws syscall.WaitStatus
					_, _ = syscall.Wait4(pid, &ws, syscall.WNOHANG, nil)
				}
				continue
			}
			if !hasTag(pid, tag) {
				continue
			}
			found = true
			left = append(left, fmt.Sprintf("%s (pid %d)", st.comm, pid))
			if st.pgid != pid || st.pgid == st.sid { // its own group: kill all of it
				_ = syscall.Kill(-st.pgid, syscall.SIGKILL)
			}
			_ = syscall.Kill(pid, syscall.SIGKILL)
			var ws syscall.WaitStatus
			_, _ = syscall.Wait4(pid, &ws, 0, nil)
		}
		if !found {
			break
		}
	}
	return left
}

// known reports whether pgid is a group this agent started.
func (p *Processes) known(pgid int) bool {
	p.mu.Lock()
	defer p.mu.Unlock()
	return p.groupsSeen[pgid]
}

// children lists the children of our main thread that are not running
// leaders. The kernel re-parents orphans to the first live thread of the
// subreaper, which for a Go program is always the main thread (it never
// exits), so one file holds every orphan: reading every thread's file
// cost more than the agent process itself (profiled).
func (p *Processes) children() []int {
	b, err := os.ReadFile(p.childrenFile)
	if err != nil {
		return nil
	}
	var out []int
	p.mu.Lock()
	defer p.mu.Unlock()
	for _, field := range strings.Fields(string(b)) {
		if pid, err := strconv.Atoi(field); err == nil && !p.leaders[pid] {
			out = append(out, pid)
		}
	}
	return out
}

// procStat is what evalrun reads of /proc/PID/stat.
type procStat struct {
	comm       string
	state      byte
	ppid, pgid int
	sid        int
}

func readStat(pid int) (procStat, bool) {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/stat")
	if err != nil {
		return procStat{}, false
	}
	open, close := bytes.IndexByte(b, '('), bytes.LastIndexByte(b, ')')
	if open < 0 || close < open {
		return procStat{}, false
	}
	f := strings.Fields(string(b[close+1:]))
	if len(f) < 4 {
		return procStat{}, false
	}
	st := procStat{comm: string(b[open+1 : close]), state: f[0][0]}
	st.ppid, _ = strconv.Atoi(f[1])
	st.pgid, _ = strconv.Atoi(f[2])
	st.sid, _ = strconv.Atoi(f[3])
	return st, true
}

// hasTag reports whether process pid's environment holds the tag.
func hasTag(pid int, tag string) bool {
	b, err := os.ReadFile("/proc/" + strconv.Itoa(pid) + "/environ")
	if err != nil {
		return false
	}
	want := []byte(TagEnv + "=" + tag)
	for _, kv := range bytes.Split(b, []byte{0}) {
		if bytes.Equal(kv, want) {
			return true
		}
	}
	return false
}

// liveInGroup lists the processes of group pgid that are not zombies.
func liveInGroup(pgid int) []string {
	entries, _ := os.ReadDir("/proc")
	var out []string
	for _, e := range entries {
		pid, err := strconv.Atoi(e.Name())
		if err != nil {
			continue
		}
		if st, ok := readStat(pid); ok && st.pgid == pgid && st.state != 'Z' {
			out = append(out, fmt.Sprintf("%s (pid %d)", st.comm, pid))
		}
	}
	return out
}

// uniqueNames drops repeated entries, keeping the first of each.
func uniqueNames(list []string) []string {
	seen := map[string]bool{}
	var out []string
	for _, s := range list {
		if !seen[s] {
			seen[s] = true
			out = append(out, s)
		}
	}
	return out
}

// KillGroup kills the command's process group.
func KillGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// CloseAll closes each file, ignoring errors; a nil file is skipped (its
// Close returns os.ErrInvalid).
func CloseAll(files ...*os.File) {
	for _, f := range files {
		_ = f.Close()
	}
}

// setProcessGroup starts the command in its own process group so that
// killing the group kills its children, and makes it die with evalrun.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true, Pdeathsig: syscall.SIGKILL}
	if cmd.Cancel != nil { // made by CommandContext
		cmd.Cancel = func() error { return KillGroup(cmd) }
	}
}
