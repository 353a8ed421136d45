package adapter

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"sync/atomic"
	"time"
	"unicode/utf8"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/internal/proc"
	"github.com/agentevals-go/agentevals/suite"
)

// Error is a failed agent call. It becomes the case's error_details
// ({"kind", "message", "details"}); the other cases go on.
type Error struct {
	Kind    string         // exit_status, timeout, bad_response, start, agent_error, panic, interrupted
	Message string         // human-readable
	Details map[string]any // stderr tail, exit code, …
}

// Error formats the failure as "agent KIND: message".
func (e *Error) Error() string { return "agent " + e.Kind + ": " + e.Message }

// Limits on what evalrun keeps of an agent's streams.
const (
	maxStdout = 32 << 20 // a reply larger than this is an error
	MaxStderr = 8 << 10  // the tail of stderr kept as evidence
)

// tailBuffer keeps the last max bytes written to it.
type tailBuffer struct {
	max       int
	buf       []byte
	truncated bool
}

// Write keeps the tail of p.
func (t *tailBuffer) Write(p []byte) (int, error) {
	t.buf = append(t.buf, p...)
	if over := len(t.buf) - t.max; over > 0 {
		t.buf = append(t.buf[:0], t.buf[over:]...)
		t.truncated = true
	}
	return len(p), nil
}

// String returns the kept tail as valid UTF-8.
func (t *tailBuffer) String() string {
	b := t.buf
	for len(b) > 0 && !utf8.Valid(b) && t.truncated {
		b = b[1:] // drop a rune cut in half by truncation
	}
	s := string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
	if t.truncated {
		return "…" + s
	}
	return s
}

// Command is the command agent: it runs one process per case.
type Command struct {
	cfg     suite.AgentConfig
	env     []string
	timeout time.Duration
	Procs   *proc.Processes
	program string // Command[0], looked up in PATH once rather than per case
	// buffers are the pipe copies' buffers: io.Copy would allocate 32 KiB
	// twice per case.
	buffers sync.Pool
}

// newCommandAgent resolves the program once: looking it up in PATH for
// every case costs a stat per PATH entry. A program that is not found
// stays as written, so each case reports the start error.
func newCommandAgent(cfg suite.AgentConfig, env []string, timeout time.Duration, processTag string) *Command {
	program := cfg.Command[0]
	if !strings.Contains(program, "/") {
		if p, err := exec.LookPath(program); err == nil && filepath.IsAbs(p) {
			program = p
		}
	}
	a := &Command{cfg: cfg, env: env, timeout: timeout, Procs: proc.NewProcesses(processTag), program: program}
	a.buffers.New = func() any { b := make([]byte, 32<<10); return &b }
	return a
}

var _ agent.Agent = (*Command)(nil)

// pipeDrain is how long evalrun keeps reading an agent's output after the
// agent's process group was killed: only a process that escaped both the
// group and the subreaper (say, one that cleared its environment and
// called setsid) can hold the pipes longer.
const pipeDrain = 2 * time.Second

// Answer runs the command with the question JSON on stdin. The command's
// streams are OS pipes read by evalrun itself, so that the moment the
// agent's main process exits its whole process group is killed: children
// it left running cannot hold the case open, and they make the case an
// agent error ("agent left background processes running").
func (a *Command) Answer(ctx context.Context, q agent.Question) (agent.Response, error) {
	in, err := json.Marshal(q)
	if err != nil {
		return agent.Response{}, &Error{Kind: "bad_question", Message: err.Error()}
	}
	stdout, details, err := a.run(ctx, in)
	if err != nil {
		return agent.Response{}, err
	}
	resp, err := parseReplyAs(stdout.Buf, a.cfg.Reply)
	if err != nil {
		details["stdout"] = excerpt(stdout.Buf)
		return agent.Response{}, &Error{Kind: "bad_response", Message: err.Error(), Details: details}
	}
	return withTruncation(resp, stdout), nil
}

// run starts the command with in (and a newline) on stdin and returns
// its stdout, or an *Error for a start failure, a timeout, an exit status,
// background processes left running or stdout over its bound.
func (a *Command) run(ctx context.Context, in []byte) (*answerBuffer, map[string]any, error) {
	ctx, cancel := context.WithTimeout(ctx, a.timeout)
	defer cancel()
	// exec.Command, not CommandContext: the end of ctx kills the group
	// through context.AfterFunc, without a goroutine per process watching ctx.
	cmd := exec.Command(a.program, a.cfg.Command[1:]...)
	cmd.Dir = a.cfg.Dir
	cmd.Env = append(append(append(make([]string, 0, len(a.env)+8), a.env...), caseEnv(ctx)...), traceEnv(ctx)...)
	tag := a.Procs.Prepare(cmd)
	stdout := newAnswerBuffer(a.cfg.MaxAnswerBytes, maxStdout)
	stderr := &tailBuffer{max: MaxStderr}
	var streams *pipedStreams
	err := ctx.Err() // what CommandContext's Start returns when ctx has ended (after a lookup error)
	if cmd.Err != nil || err == nil {
		streams, err = startPiped(cmd, append(in, '\n'), stdout, stderr, &a.buffers) // one line, as for workers: `read` needs the newline
	}
	start := time.Now()
	if err != nil {
		return nil, nil, &Error{Kind: "start", Message: err.Error(), Details: map[string]any{"command": a.cfg.Command}}
	}
	a.Procs.Started(cmd)
	stop := context.AfterFunc(ctx, func() { _ = proc.KillGroup(cmd) })
	err = cmd.Wait()
	stop()
	left := a.Procs.Cleanup(cmd, tag)
	streams.finish(pipeDrain)
	details := map[string]any{"stderr": stderr.String(), "command": a.cfg.Command}
	switch {
	case ctx.Err() != nil:
		details["elapsed_ms"] = float64(time.Since(start).Microseconds()) / 1000
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return nil, nil, &Error{Kind: "timeout", Message: fmt.Sprintf("no answer within %s", a.timeout), Details: details}
		}
		return nil, nil, &Error{Kind: "interrupted", Message: "the run was interrupted", Details: details}
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			details["exit_code"] = ee.ExitCode()
			return nil, nil, &Error{Kind: "exit_status", Message: fmt.Sprintf("%s exited with %v", a.cfg.Command[0], ee.ProcessState), Details: details}
		}
		return nil, nil, &Error{Kind: "start", Message: err.Error(), Details: details}
	case len(left) > 0:
		details["background_processes"] = left
		return nil, nil, &Error{Kind: "background_processes",
			Message: fmt.Sprintf("agent left background processes running after it exited (killed: %s); wait for children before exiting", strings.Join(left, ", ")),
			Details: details}
	case stdout.over:
		return nil, nil, &Error{Kind: "bad_response", Message: fmt.Sprintf("stdout exceeds %d bytes besides the answer", maxStdout), Details: details}
	}
	return stdout, details, nil
}

// pipedStreams are a started command's stdin, stdout and stderr pipes.
type pipedStreams struct {
	readers []*os.File
	stdinW  *os.File // nil when the input went in before the start
	left    atomic.Int32
	ended   chan struct{} // closed when the last stream has ended
}

// startPiped starts cmd with input on stdin and its stdout and stderr
// copied into the writers (with buffers from the pool), through pipes
// evalrun owns: cmd.Wait then waits
// for the process alone, never for a child still holding a pipe. An input
// of at most PIPE_BUF bytes (a question, as a rule) is in the stdin pipe
// before the start (proc.FilledPipe); a longer one is written by a
// goroutine while the agent reads it.
func startPiped(cmd *exec.Cmd, input []byte, stdout, stderr io.Writer, buffers *sync.Pool) (*pipedStreams, error) {
	inR, filled, err := proc.FilledPipe(input)
	if err != nil {
		return nil, err
	}
	var inW *os.File
	if !filled {
		if inW, inR, err = proc.Pipe(false); err != nil { // only evalrun's ends are polled
			return nil, err
		}
	}
	outR, outW, err := proc.Pipe(true)
	if err != nil {
		proc.CloseAll(inR, inW) // CloseAll skips a nil inW
		return nil, err
	}
	errR, errW, err := proc.Pipe(true)
	if err != nil {
		proc.CloseAll(inR, inW, outR, outW)
		return nil, err
	}
	cmd.Stdin, cmd.Stdout, cmd.Stderr = inR, outW, errW
	err = cmd.Start()
	proc.CloseAll(inR, outW, errW) // the child has its copies
	if err != nil {
		proc.CloseAll(inW, outR, errR)
		return nil, err
	}
	s := &pipedStreams{readers: []*os.File{outR, errR}, stdinW: inW, ended: make(chan struct{})}
	s.left.Store(2)
	if inW != nil {
		s.left.Add(1)
		go func() {
			defer s.done()
			_, _ = inW.Write(input) // EPIPE when the agent does not read: fine
			_ = inW.Close()
		}()
	}
	for i, w := range []io.Writer{stdout, stderr} {
		r := s.readers[i]
		go func() {
			defer s.done()
			buf := buffers.Get().(*[]byte)
			defer buffers.Put(buf)
			_, _ = io.CopyBuffer(onlyWriter{w}, onlyReader{r}, *buf)
		}()
	}
	return s, nil
}

// done marks one stream ended; the last one closes ended.
func (s *pipedStreams) done() {
	if s.left.Add(-1) == 0 {
		close(s.ended)
	}
}

// finish waits up to drain for the copies to reach end of file, then
// closes the pipes (ending copies that a stray process keeps open).
func (s *pipedStreams) finish(drain time.Duration) {
	select {
	case <-s.ended:
	default:
		t := time.NewTimer(drain)
		select {
		case <-s.ended:
		case <-t.C:
			proc.CloseAll(s.stdinW)
			proc.CloseAll(s.readers...)
			<-s.ended
		}
		t.Stop()
	}
	proc.CloseAll(s.readers...)
}

// onlyReader and onlyWriter hide ReadFrom/WriteTo, so that io.CopyBuffer
// uses the pooled buffer.
type (
	onlyReader struct{ io.Reader }
	onlyWriter struct{ io.Writer }
)

// excerpt is the start of an untrusted reply kept as evidence.
func excerpt(b []byte) string {
	const n = 2048
	if len(b) > n {
		b = b[:n]
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}
