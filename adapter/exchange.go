package adapter

import (
	"context"
	"fmt"
	"io"
	"os"
	"time"

	"github.com/agentevals-go/agentevals/suite"
)

// ProgramConfig is a program evalrun runs for itself rather than as the
// agent (a verifier, a setup step), under the rules of command and worker
// agents: the same minimal environment, process groups, tags, timeouts and
// bounded streams.
type ProgramConfig struct {
	// Command is the program and its arguments; Dir its working directory.
	Command []string
	Dir     string
	// Env names the variables passed through from evalrun's environment
	// besides the base ones (PATH, HOME, …).
	Env []string
	// Timeout bounds one exchange (default suite.DefaultAgentTimeout).
	Timeout time.Duration
	// Worker keeps Concurrency processes running, one document per line
	// each way; otherwise one process per exchange.
	Worker      bool
	Concurrency int
	// ProcessTag prefixes the processes' tag (see Options.ProcessTag).
	ProcessTag string
	// LookupEnv reads evalrun's environment (default os.LookupEnv).
	LookupEnv func(string) (string, bool)
}

// MaxProgramReply bounds what a program may print in reply to one
// document: a longer reply is an error, not a verdict.
const MaxProgramReply = 1 << 20

// Program sends a program one document and reads its reply: a process per
// call, or a line per call to a long-lived worker.
type Program struct {
	command *Command
	worker  *Worker
}

var _ io.Closer = (*Program)(nil)

// NewProgram builds the program; it starts no process yet.
func NewProgram(cfg ProgramConfig) *Program {
	lookup := cfg.LookupEnv
	if lookup == nil {
		lookup = os.LookupEnv
	}
	timeout := cfg.Timeout
	if timeout <= 0 {
		timeout = suite.DefaultAgentTimeout
	}
	ac := suite.AgentConfig{Command: cfg.Command, Dir: cfg.Dir, Env: cfg.Env, MaxAnswerBytes: MaxProgramReply}
	env := baseEnv(cfg.Env, lookup)
	if cfg.Worker {
		ac.Type = suite.AgentWorker
		return &Program{worker: newWorkerAgent(ac, env, timeout, Options{Concurrency: max(1, cfg.Concurrency), ProcessTag: cfg.ProcessTag})}
	}
	ac.Type = suite.AgentCommand
	return &Program{command: newCommandAgent(ac, env, timeout, cfg.ProcessTag)}
}

// Exchange sends in (one line) and returns the program's reply: all of its
// stdout, or a worker's next line, at most MaxProgramReply bytes. A
// failure is an *Error (start, timeout, exit_status, background_processes,
// bad_response, interrupted).
func (p *Program) Exchange(ctx context.Context, in []byte) ([]byte, error) {
	if p.command != nil {
		out, details, err := p.command.run(ctx, in)
		if err != nil {
			return nil, err
		}
		return out.Buf, overReply(out, details)
	}
	var reply []byte
	err := p.worker.withWorker(ctx, func(w *workerProc) error {
		line, details, err := p.worker.roundTrip(ctx, w, append(in[:len(in):len(in)], '\n'))
		if err == nil {
			reply = line.Buf
			err = overReply(line, details())
		}
		return err
	})
	return reply, err
}

// overReply refuses a reply longer than MaxProgramReply.
func overReply(out *answerBuffer, details map[string]any) error {
	if out.cut || out.over || out.total > MaxProgramReply {
		return &Error{Kind: "bad_response", Message: fmt.Sprintf("the reply exceeds %d bytes", MaxProgramReply), Details: details}
	}
	return nil
}

// Close stops a worker's processes; nothing for a process per call.
func (p *Program) Close() error {
	if p.worker != nil {
		return p.worker.Close()
	}
	return nil
}
