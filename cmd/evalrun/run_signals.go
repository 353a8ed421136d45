package main

import (
	"context"
	"fmt"
	"io"
	"os"
	"os/signal"
	"sync"
	"syscall"
	"time"
)

// signals turns SIGINT and SIGTERM into the command's context. By default
// the first signal cancels it. A command that asks for a grace period
// (run, through graceful) gets a stop channel instead: the first signal
// closes it, so no new question starts, and the context is cancelled by a
// second signal or when the grace period ends.
type signals struct {
	mu     sync.Mutex
	grace  time.Duration // 0: the first signal cancels
	then   string        // what the first signal does, said on stderr; "" for run's
	stop   chan struct{}
	reason string
	stderr io.Writer
}

// watchSignals starts watching; the returned func stops it.
func watchSignals(stderr io.Writer) (*signals, context.Context, func()) {
	ctx, cancel := context.WithCancelCause(context.Background())
	s := &signals{stop: make(chan struct{}), stderr: stderr}
	ch := make(chan os.Signal, 2)
	signal.Notify(ch, os.Interrupt, syscall.SIGTERM)
	done := make(chan struct{})
	go s.loop(ch, cancel, done)
	return s, ctx, func() {
		signal.Stop(ch)
		close(done)
		cancel(nil)
	}
}

// loop handles the signals until done is closed.
func (s *signals) loop(ch <-chan os.Signal, cancel context.CancelCauseFunc, done <-chan struct{}) {
	var timeout <-chan time.Time
	for {
		select {
		case <-done:
			return
		case <-timeout:
			cancel(fmt.Errorf("the grace period of %s ended", s.grace))
		case sig := <-ch:
			name := "interrupt"
			if sig == syscall.SIGTERM {
				name = "terminated"
			}
			s.mu.Lock()
			first := s.reason == ""
			if first {
				s.reason = name
			}
			grace, then := s.grace, s.then
			s.mu.Unlock()
			if !first || grace <= 0 {
				cancel(fmt.Errorf("%s", name))
				continue
			}
			close(s.stop)
			timeout = time.After(grace)
			if then == "" {
				then = fmt.Sprintf("no new questions; the running ones have %s to finish, then the finished cases are kept", grace)
			}
			fmt.Fprintf(s.stderr, "evalrun: %s: %s (a second signal stops at once)\n", name, then)
		}
	}
}

// graceful asks for a grace period: the stop channel the first signal
// closes, and what closed it.
func (s *signals) graceful(grace time.Duration) (<-chan struct{}, func() string) {
	return s.gracefulThen(grace, "")
}

// gracefulThen is graceful for a command whose first signal does what
// then says.
func (s *signals) gracefulThen(grace time.Duration, then string) (<-chan struct{}, func() string) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.grace, s.then = grace, then
	return s.stop, func() string {
		s.mu.Lock()
		defer s.mu.Unlock()
		return s.reason
	}
}
