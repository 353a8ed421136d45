package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"golang.org/x/term"
)

// releaseGrace is how long, once evalrun is interrupted, a write to its
// standard output or error may still take before it is given up.
const releaseGrace = 2 * time.Second

// releasable is an output stream whose writes are abandoned once ctx ends
// and the stream has not taken a write within releaseGrace: a pipe that
// nobody reads blocks a write for ever, and would keep evalrun from
// ending on SIGTERM. Writes are made one at a time by one goroutine, in
// order; an abandoned write is left to that goroutine, which the exit
// ends.
type releasable struct {
	mu   sync.Mutex // one write at a time, each answered by its own result
	ctx  context.Context
	reqs chan []byte
	done chan writeResult
	busy bool // a write was abandoned and is still pending
}

type writeResult struct {
	n   int
	err error
}

// releaseOnCancel wraps w when it is a pipe or a file; a terminal (whose
// *os.File the output styles look for) and other writers (tests'
// buffers) are returned as they are.
func releaseOnCancel(ctx context.Context, w io.Writer) io.Writer {
	f, ok := w.(*os.File)
	if !ok || term.IsTerminal(int(f.Fd())) {
		return w
	}
	r := &releasable{ctx: ctx, reqs: make(chan []byte), done: make(chan writeResult, 1)}
	go func() {
		for p := range r.reqs {
			n, err := f.Write(p)
			r.done <- writeResult{n, err}
		}
	}()
	return r
}

func (r *releasable) Write(p []byte) (int, error) {
	r.mu.Lock()
	defer r.mu.Unlock()
	if r.busy {
		select {
		case <-r.done: // the abandoned write went through after all
			r.busy = false
		default:
			return 0, fmt.Errorf("write: the stream has not taken output since evalrun was interrupted: %w", r.ctx.Err())
		}
	}
	r.reqs <- p
	select {
	case res := <-r.done:
		return res.n, res.err
	case <-r.ctx.Done():
	}
	select {
	case res := <-r.done:
		return res.n, res.err
	case <-time.After(releaseGrace):
		r.busy = true
		return 0, fmt.Errorf("write: the stream has not taken output since evalrun was interrupted: %w", r.ctx.Err())
	}
}
