package main

import (
	"context"
	"encoding/binary"
	"math/rand/v2"
	"sync"

	"go.opentelemetry.io/otel/trace"
)

// seededIDs draws trace and span ids from a seeded generator, so a
// simulated window is the same traffic every time it is written (the
// sample a monitor takes depends on the trace ids).
type seededIDs struct {
	mu  sync.Mutex
	rng *rand.Rand
}

func newSeededIDs(seed uint64) *seededIDs { return &seededIDs{rng: rand.New(rand.NewPCG(seed, 99))} }

func (g *seededIDs) NewIDs(context.Context) (trace.TraceID, trace.SpanID) {
	g.mu.Lock()
	defer g.mu.Unlock()
	var tid trace.TraceID
	binary.BigEndian.PutUint64(tid[:8], g.rng.Uint64())
	binary.BigEndian.PutUint64(tid[8:], g.rng.Uint64())
	return tid, g.span()
}

func (g *seededIDs) NewSpanID(context.Context, trace.TraceID) trace.SpanID {
	g.mu.Lock()
	defer g.mu.Unlock()
	return g.span()
}

func (g *seededIDs) span() trace.SpanID {
	var sid trace.SpanID
	binary.BigEndian.PutUint64(sid[:], g.rng.Uint64()|1)
	return sid
}
