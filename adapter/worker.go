package adapter

import (
	"bufio"
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/internal/proc"
	"github.com/agentevals-go/agentevals/suite"
)

// Worker is the worker agent: N long-lived processes that read one JSON
// question per line on stdin and write one JSON Response per line on
// stdout. A worker that times out, crashes or answers garbage is killed
// and replaced. Plain text is refused, unlike command and http agents: a stray line (a
// boot banner, a log line) would otherwise be taken as the answer to the
// current question and shift every later answer by one.
type Worker struct {
	cfg     suite.AgentConfig
	env     []string
	timeout time.Duration
	EnvFor  func(int) []string
	slots   chan *workerSlot
	procs   *proc.Processes

	mu     sync.Mutex
	all    []*workerSlot
	closed bool
}

var (
	_ agent.Agent = (*Worker)(nil)
	_ io.Closer   = (*Worker)(nil)
)

type workerSlot struct {
	n    int
	proc *workerProc // nil until started, or after a failure
}

type workerProc struct {
	cmd    *exec.Cmd
	stdin  *os.File      // written under a write deadline
	stdout *os.File      // read by ask itself, under a read deadline
	r      *bufio.Reader // buffers stdout across replies
	stderr *lockedTail
	done   chan struct{} // closed when the process has exited
	err    error         // exit error, valid after done
	// question holds the line ask writes, encoded by enc: one buffer for
	// every question rather than json.Marshal's and a copy with the newline.
	question bytes.Buffer
	enc      *json.Encoder
}

type lockedTail struct {
	mu sync.Mutex
	t  tailBuffer
}

// Write keeps the tail of p.
func (l *lockedTail) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.t.Write(p)
}

// String returns the kept tail.
func (l *lockedTail) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.t.String()
}

func newWorkerAgent(cfg suite.AgentConfig, env []string, timeout time.Duration, opts Options) *Worker {
	a := &Worker{cfg: cfg, env: env, timeout: timeout, EnvFor: opts.WorkerEnv, procs: proc.NewProcesses(opts.ProcessTag),
		slots: make(chan *workerSlot, opts.Concurrency)}
	for i := range opts.Concurrency {
		s := &workerSlot{n: i}
		a.all = append(a.all, s)
		a.slots <- s
	}
	return a
}

// Answer sends the question to a free worker, starting one if needed.
func (a *Worker) Answer(ctx context.Context, q agent.Question) (resp agent.Response, err error) {
	err = a.withWorker(ctx, func(p *workerProc) error {
		resp, err = a.ask(ctx, p, q)
		return err
	})
	return resp, err
}

// withWorker runs f with a free worker, starting one if needed; a worker
// whose f failed is killed, to be replaced on its next use.
func (a *Worker) withWorker(ctx context.Context, f func(*workerProc) error) error {
	var slot *workerSlot
	select {
	case slot = <-a.slots:
	case <-ctx.Done():
		return &Error{Kind: "interrupted", Message: "no worker became free before the run ended"}
	}
	defer func() { a.slots <- slot }()
	defer armWorker(ctx, slot.n)() // replay: this worker's proxy serves this case (runner/replay.go)
	if slot.proc == nil {
		p, err := a.start(slot.n, workerTraceEnv(ctx))
		if err != nil {
			return &Error{Kind: "start", Message: err.Error(), Details: map[string]any{"command": a.cfg.Command}}
		}
		slot.proc = p
	}
	err := f(slot.proc)
	if err != nil {
		slot.proc.kill()
		slot.proc = nil
	}
	return err
}

func (a *Worker) start(n int, extraEnv []string) (*workerProc, error) {
	a.mu.Lock()
	closed := a.closed
	a.mu.Unlock()
	if closed {
		return nil, errors.New("worker agent is closed")
	}
	cmd := exec.Command(a.cfg.Command[0], a.cfg.Command[1:]...)
	cmd.Dir = a.cfg.Dir
	cmd.Env = append([]string(nil), a.env...)
	if a.EnvFor != nil {
		cmd.Env = append(cmd.Env, a.EnvFor(n)...)
	}
	cmd.Env = append(cmd.Env, extraEnv...)
	a.procs.Prepare(cmd) // its own group, dies with evalrun, tagged for the guardian
	// A process that escaped the group with stderr open cannot hold Wait
	// (and so kill, and the case) past the drain.
	cmd.WaitDelay = pipeDrain
	w, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdin, ok := w.(*os.File)
	if !ok {
		return nil, fmt.Errorf("start worker %d: stdin is not a pipe", n)
	}
	r, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	stdout, ok := r.(*os.File)
	if !ok {
		return nil, fmt.Errorf("start worker %d: stdout is not a pipe", n)
	}
	p := &workerProc{cmd: cmd, stdin: stdin, stdout: stdout, r: bufio.NewReaderSize(stdout, 64<<10),
		stderr: &lockedTail{t: tailBuffer{max: MaxStderr}}, done: make(chan struct{})}
	p.enc = json.NewEncoder(&p.question)
	cmd.Stderr = p.stderr
	if err := cmd.Start(); err != nil {
		return nil, fmt.Errorf("start worker %d: %w", n, err)
	}
	go func() {
		p.err = cmd.Wait()
		close(p.done)
	}()
	return p, nil
}

// readLine reads one reply line through the answer cap, like a command's
// stdout. It returns the line, or nil and the read error when no line came:
// the deadline (os.ErrDeadlineExceeded) or the end of stdout. A last line
// without its newline counts as a line.
func (a *Worker) readLine(p *workerProc) (*answerBuffer, error) {
	line := newAnswerBuffer(a.cfg.MaxAnswerBytes, maxStdout)
	for {
		chunk, err := p.r.ReadSlice('\n')
		end := len(chunk) > 0 && chunk[len(chunk)-1] == '\n'
		if end {
			chunk = chunk[:len(chunk)-1]
		}
		line.Write(chunk)
		if end {
			return line, nil
		}
		if err != nil && err != bufio.ErrBufferFull {
			if line.total > 0 && !errors.Is(err, os.ErrDeadlineExceeded) {
				return line, nil
			}
			return nil, err
		}
	}
}

// ask writes the question and reads the reply on the calling goroutine
// (the executor's): the write and the read are under the pipes' deadlines,
// the agent timeout or the case deadline, which the end of ctx brings
// forward, so ask returns once ctx is done whatever the worker does, and no
// reader goroutine hands every line over.
func (a *Worker) ask(ctx context.Context, p *workerProc, q agent.Question) (agent.Response, error) {
	q.Traceparent = traceparentOf(ctx)
	p.question.Reset()
	if err := p.enc.Encode(q); err != nil { // json.Marshal's bytes and the newline, in a buffer kept across questions
		return agent.Response{}, &Error{Kind: "bad_question", Message: err.Error()}
	}
	line, details, err := a.roundTrip(ctx, p, p.question.Bytes())
	if err != nil {
		return agent.Response{}, err
	}
	resp, err := ParseReply(line.Buf, false)
	if err != nil {
		d := details()
		d["stdout"] = excerpt(line.Buf)
		err = fmt.Errorf("worker protocol: each reply must be one JSON object on one line; %w", err)
		return agent.Response{}, &Error{Kind: "bad_response", Message: err.Error(), Details: d}
	}
	return withTruncation(resp, line), nil
}

// roundTrip writes one line (in, which ends with its newline) and reads
// one reply line, under the deadlines ask describes.
func (a *Worker) roundTrip(ctx context.Context, p *workerProc, in []byte) (*answerBuffer, func() map[string]any, error) {
	details := func() map[string]any {
		return map[string]any{"stderr": p.stderr.String(), "command": a.cfg.Command}
	}
	deadline := time.Now().Add(a.timeout)
	if d, ok := ctx.Deadline(); ok && d.Before(deadline) {
		deadline = d
	}
	_ = p.stdin.SetWriteDeadline(deadline)
	_ = p.stdout.SetReadDeadline(deadline)
	stop := context.AfterFunc(ctx, func() {
		now := time.Now()
		_ = p.stdin.SetWriteDeadline(now)
		_ = p.stdout.SetReadDeadline(now)
	})
	defer stop()
	if _, err := p.stdin.Write(in); err != nil {
		if errors.Is(err, os.ErrDeadlineExceeded) {
			return nil, nil, a.noAnswer(ctx, details())
		}
		return nil, nil, &Error{Kind: "exit_status", Message: "worker stopped reading questions: " + err.Error(), Details: details()}
	}
	line, err := a.readLine(p)
	switch {
	case errors.Is(err, os.ErrDeadlineExceeded):
		return nil, nil, a.noAnswer(ctx, details())
	case err != nil: // stdout ended: the exit status says why, once the worker has exited
		wait := time.NewTimer(time.Until(deadline))
		defer wait.Stop()
		select {
		case <-p.done:
		case <-wait.C:
		case <-ctx.Done():
		}
		msg := "worker closed stdout without answering"
		if isDone(p.done) && p.err != nil {
			msg = fmt.Sprintf("worker exited without answering: %v", p.err)
		}
		return nil, nil, &Error{Kind: "exit_status", Message: msg, Details: details()}
	case line.over:
		return nil, nil, &Error{Kind: "bad_response", Message: fmt.Sprintf("reply line exceeds %d bytes besides the answer", maxStdout), Details: details()}
	}
	return line, details, nil
}

// noAnswer is the error of a question the worker did not answer in time:
// the case deadline passed, the run was interrupted or, while ctx goes on,
// the agent timeout passed.
func (a *Worker) noAnswer(ctx context.Context, details map[string]any) *Error {
	d, hasDeadline := ctx.Deadline()
	switch {
	case errors.Is(ctx.Err(), context.DeadlineExceeded) || (hasDeadline && !time.Now().Before(d)):
		return &Error{Kind: "timeout", Message: "no answer before the case deadline", Details: details}
	case ctx.Err() != nil:
		return &Error{Kind: "interrupted", Message: "the run was interrupted", Details: details}
	}
	return &Error{Kind: "timeout", Message: fmt.Sprintf("no answer within %s", a.timeout), Details: details}
}

// isDone reports whether ch is closed.
func isDone(ch <-chan struct{}) bool {
	select {
	case <-ch:
		return true
	default:
		return false
	}
}

func (p *workerProc) kill() {
	_ = proc.KillGroup(p.cmd)
	_ = p.stdin.Close()
	<-p.done
}

// Close stops every worker: stdin is closed and a worker still running
// after two seconds is killed. Every worker's stdin is closed before any is
// waited for, so the interpreters shut down side by side, not one after
// the other.
func (a *Worker) Close() error {
	a.mu.Lock()
	a.closed = true
	a.mu.Unlock()
	var running []*workerProc
	for range a.all {
		s := <-a.slots
		if s.proc != nil {
			_ = s.proc.stdin.Close()
			running = append(running, s.proc)
			s.proc = nil
		}
	}
	expired := make(chan struct{}) // closed: ready for every worker after it
	t := time.AfterFunc(2*time.Second, func() { close(expired) })
	defer t.Stop()
	for _, p := range running {
		select {
		case <-p.done:
		case <-expired:
			p.kill()
		}
	}
	return nil
}
