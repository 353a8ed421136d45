package runner

import (
	"context"
	"sync"
)

// slots bound how many cases run at once (ExecOptions.Concurrency): a
// worker holds a slot while it asks the agent and scores. A case whose
// trace is still incomplete when the agent answers gives its slot up for
// the wait for late spans (a new worker takes the slot and the next case)
// and takes a slot again to score, so a wait never idles a slot.
type slots struct {
	ch   chan struct{}
	wg   sync.WaitGroup
	work func(w *worker) // takes jobs until there are none
}

// worker is one goroutine taking cases; it is found in the context of
// every call it makes (workerOf).
type worker struct {
	s *slots
	// held says the worker holds a slot; replaced that another worker
	// took its place when it gave its slot up, so it stops after its case.
	held, replaced bool
}

type workerKey struct{}

// start runs n workers, each in its own goroutine with ctx carrying it.
func (s *slots) start(ctx context.Context, n int, run func(ctx context.Context, w *worker)) {
	s.work = func(w *worker) {
		defer s.wg.Done()
		run(context.WithValue(ctx, workerKey{}, w), w)
	}
	for range n {
		s.spawn()
	}
}

func (s *slots) spawn() {
	s.wg.Add(1)
	go s.work(&worker{s: s})
}

// wait waits for every worker, those that gave their slots up included.
func (s *slots) wait() { s.wg.Wait() }

// workerOf is the worker making the call in ctx; nil outside Execute.
func workerOf(ctx context.Context) *worker {
	w, _ := ctx.Value(workerKey{}).(*worker)
	return w
}

// acquire takes a slot; false when ctx ended first.
func (w *worker) acquire(ctx context.Context) bool {
	if w.held {
		return true
	}
	select {
	case w.s.ch <- struct{}{}:
		w.held = true
		return true
	case <-ctx.Done():
		return false
	}
}

// release gives the slot back.
func (w *worker) release() {
	if w.held {
		<-w.s.ch
		w.held = false
	}
}

// yield gives the slot up for a wait, starting a worker in this one's
// place the first time; the returned function ends the wait, taking a
// slot again (at once if ctx has ended: the case is then discarded).
func (w *worker) yield() (resume func(ctx context.Context)) {
	if w == nil || !w.held {
		return func(context.Context) {}
	}
	w.release()
	if !w.replaced {
		w.replaced = true
		w.s.spawn()
	}
	return func(ctx context.Context) { w.acquire(ctx) }
}
