package runner

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"os/exec"
	"syscall"
	"time"
	"unicode/utf8"
)

// AgentError is a failed agent call. It becomes the case's error_details
// ({"kind", "message", "details"}); the other cases go on.
type AgentError struct {
	Kind    string         // exit_status, timeout, bad_response, start, agent_error, panic, interrupted
	Message string         // human-readable
	Details map[string]any // stderr tail, exit code, …
}

// Error formats the failure as "agent KIND: message".
func (e *AgentError) Error() string { return "agent " + e.Kind + ": " + e.Message }

// Limits on what evalrun keeps of an agent's streams.
const (
	maxStdout = 32 << 20 // a reply larger than this is an error
	maxStderr = 8 << 10  // the tail of stderr kept as evidence
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

// limitBuffer keeps up to max bytes and notes whether more came.
type limitBuffer struct {
	max  int
	buf  bytes.Buffer
	over bool
}

// Write keeps p up to the limit and never fails.
func (l *limitBuffer) Write(p []byte) (int, error) {
	if room := l.max - l.buf.Len(); room < len(p) {
		l.over = true
		if room > 0 {
			l.buf.Write(p[:room])
		}
		return len(p), nil
	}
	return l.buf.Write(p)
}

// commandAgent runs one process per case.
type commandAgent struct {
	cfg     AgentConfig
	env     []string
	timeout time.Duration
}

var _ Agent = (*commandAgent)(nil)

// Answer runs the command with the question JSON on stdin.
func (a *commandAgent) Answer(ctx context.Context, q Question) (Response, error) {
	in, err := json.Marshal(q)
	if err != nil {
		return Response{}, &AgentError{Kind: "bad_question", Message: err.Error()}
	}
	ctx, cancel := context.WithTimeout(ctx, a.timeout)
	defer cancel()
	cmd := exec.CommandContext(ctx, a.cfg.Command[0], a.cfg.Command[1:]...)
	cmd.Dir = a.cfg.Dir
	cmd.Env = append(append([]string(nil), a.env...), caseEnv(ctx)...)
	cmd.Stdin = bytes.NewReader(append(in, '\n')) // one line, as for workers: `read` needs the newline
	stdout := &limitBuffer{max: maxStdout}
	stderr := &tailBuffer{max: maxStderr}
	cmd.Stdout, cmd.Stderr = stdout, stderr
	setProcessGroup(cmd)
	cmd.WaitDelay = 2 * time.Second
	start := time.Now()
	err = cmd.Run()
	details := map[string]any{"stderr": stderr.String(), "command": a.cfg.Command}
	switch {
	case ctx.Err() != nil:
		details["elapsed_ms"] = float64(time.Since(start).Microseconds()) / 1000
		if errors.Is(ctx.Err(), context.DeadlineExceeded) {
			return Response{}, &AgentError{Kind: "timeout", Message: fmt.Sprintf("no answer within %s", a.timeout), Details: details}
		}
		return Response{}, &AgentError{Kind: "interrupted", Message: "the run was interrupted", Details: details}
	case err != nil:
		var ee *exec.ExitError
		if errors.As(err, &ee) {
			details["exit_code"] = ee.ExitCode()
			return Response{}, &AgentError{Kind: "exit_status", Message: fmt.Sprintf("%s exited with %v", a.cfg.Command[0], ee.ProcessState), Details: details}
		}
		return Response{}, &AgentError{Kind: "start", Message: err.Error(), Details: details}
	case stdout.over:
		return Response{}, &AgentError{Kind: "bad_response", Message: fmt.Sprintf("stdout exceeds %d bytes", maxStdout), Details: details}
	}
	resp, err := parseReply(stdout.buf.Bytes(), true)
	if err != nil {
		details["stdout"] = excerpt(stdout.buf.Bytes())
		return Response{}, &AgentError{Kind: "bad_response", Message: err.Error(), Details: details}
	}
	return resp, nil
}

// setProcessGroup starts the command in its own process group so that a
// timeout kills the whole group: shells leave children holding our pipes.
func setProcessGroup(cmd *exec.Cmd) {
	cmd.SysProcAttr = &syscall.SysProcAttr{Setpgid: true}
	if cmd.Cancel != nil { // made by CommandContext
		cmd.Cancel = func() error { return killGroup(cmd) }
	}
}

// killGroup kills the command's process group.
func killGroup(cmd *exec.Cmd) error {
	if cmd.Process == nil {
		return nil
	}
	return syscall.Kill(-cmd.Process.Pid, syscall.SIGKILL)
}

// excerpt is the start of an untrusted reply kept as evidence.
func excerpt(b []byte) string {
	const n = 2048
	if len(b) > n {
		b = b[:n]
	}
	return string(bytes.ToValidUTF8(b, []byte("\uFFFD")))
}
