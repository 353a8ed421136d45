package otlp

import (
	"context"
	"encoding/hex"
	"fmt"
	"sort"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/sanitize"
)

// Case collects the spans of one agent call's trace, from Begin to End.
type Case struct {
	r        *Receiver
	traceID  pcommon.TraceID
	parentID pcommon.SpanID
	began    time.Time
	changed  chan struct{} // a span arrived (capacity 1)

	// guarded by r.mu
	spans    []span
	received int
	lastAt   time.Time
	ended    bool
	// attribute text kept: [0] mapped keys, [1] the others
	kept       [2]int
	overBudget int // attributes left out for MaxTraceBytes
	text       textArena
	numbers    numbers
	// the last service seen, as text: a resource's spans share it
	service, serviceText string
}

// span is a kept span, its text (cut to the limits) in the case's arena.
type span struct {
	id, parent   pcommon.SpanID // parent empty: none
	start, end   uint64         // unix nanoseconds
	text         textRef
	has          uint32 // a bit per keyID among its attributes
	droppedAttrs int32
	kind         ptrace.SpanKind
	status       ptrace.StatusCode
}

// add keeps sp if the case has room; r.mu is held.
func (c *Case) add(sp ptrace.Span, service string, now time.Time) {
	c.received++
	c.lastAt = now
	select {
	case c.changed <- struct{}{}:
	default:
	}
	if c.ended || len(c.spans) >= c.r.limits.MaxSpans {
		return
	}
	l := c.r.limits
	k := span{id: sp.SpanID(), parent: sp.ParentSpanID(), kind: sp.Kind(),
		start: uint64(sp.StartTimestamp()), end: uint64(sp.EndTimestamp()), status: sp.Status().Code()}
	attrs := sp.Attributes()
	t := c.text.start(runHead + min(attrs.Len()+1, l.MaxAttributes+1))
	c.text.set(&t, &k.has, "", text(sp.Name(), l.MaxValueBytes), noKey)
	c.text.set(&t, &k.has, "", text(sp.Status().Message(), l.MaxValueBytes), noKey)
	// keep keeps an attribute: the key cut, the value as text cut, unless
	// given. Values are repaired where the mapping turns them into
	// actions, and in the record when it is scrubbed (see text).
	keep := func(key string, v pcommon.Value, val string) {
		id := idOf(key)
		if id == noKey && int(t.n)-runHead >= l.MaxAttributes {
			k.droppedAttrs++
			return
		}
		budget := 1
		if id != noKey {
			budget = 0
		}
		if id == noKey || id == keyOIToolCall {
			key = clipText(key, 256)
		}
		if val == "" {
			val = clipText(c.valueString(v), l.MaxValueBytes)
		}
		if c.kept[budget]+len(key)+len(val) > l.MaxTraceBytes {
			c.overBudget++
			return
		}
		c.kept[budget] += len(key) + len(val)
		c.text.set(&t, &k.has, key, val, id)
	}
	if service != "" {
		if service != c.service {
			c.service, c.serviceText = service, text(service, l.MaxValueBytes)
		}
		keep("service.name", pcommon.Value{}, c.serviceText)
	}
	attrs.Range(func(key string, v pcommon.Value) bool {
		keep(key, v, "")
		return true
	})
	k.text = t
	if c.spans == nil {
		c.spans = make([]span, 0, 4) // an agent call's few spans in one allocation
	}
	c.spans = append(c.spans, k)
}

// statusName is how a span's status is stored.
func statusName(code ptrace.StatusCode) string {
	switch code {
	case ptrace.StatusCodeError:
		return "error"
	case ptrace.StatusCodeOk:
		return "ok"
	}
	return "unset"
}

// valueString renders an attribute value as text, cut and repaired by
// the caller. Maps and arrays are written as JSON by pdata; the request's
// own depth limit bounds them.
func (c *Case) valueString(v pcommon.Value) string {
	switch v.Type() {
	case pcommon.ValueTypeStr:
		return v.Str()
	case pcommon.ValueTypeBytes:
		return fmt.Sprintf("(%d bytes)", v.Bytes().Len())
	}
	return c.numbers.text(v)
}

// text cuts s to n bytes and repairs it (NUL, invalid UTF-8). Redaction
// of credentials, and the repair of attribute values, happen once for
// the whole case, when the runner sanitizes every column it stores
// (runner/scrub.go): the response metadata holding the spans, the
// actions and the metric reasons.
func text(s string, n int) string {
	out, _ := sanitize.Repair(clipText(s, n))
	return out
}

func kindName(k ptrace.SpanKind) string {
	switch k {
	case ptrace.SpanKindInternal:
		return "internal"
	case ptrace.SpanKindServer:
		return "server"
	case ptrace.SpanKindClient:
		return "client"
	case ptrace.SpanKindProducer:
		return "producer"
	case ptrace.SpanKindConsumer:
		return "consumer"
	}
	return ""
}

// End waits for late spans, stops collecting and returns what the case
// received. When the trace is already complete (Complete) it returns at
// once: an agent that flushed its exporter before answering has had every
// request filed, since the receiver files spans before it responds.
// Otherwise it waits Limits.Quiet after the answer and after each span
// that arrives, at most Limits.MaxWait in all, less if ctx ends; once the
// trace becomes complete it waits only settleWait more, for a request of
// the same unflushed export still in flight.
func (c *Case) End(ctx context.Context) Collected {
	if !c.Complete() {
		c.await(ctx)
	}
	r := c.r
	r.mu.Lock()
	defer r.mu.Unlock()
	c.ended = true
	delete(r.cases, c.traceID)
	out := c.collected()
	out.ParentID = hex.EncodeToString(c.parentID[:])
	refused := 0
	var first string
	for _, f := range r.refusal {
		if !f.at.Before(c.began) {
			if refused == 0 {
				first = f.note
			}
			refused++
		}
	}
	if refused > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("while this case ran the receiver refused %d OTLP requests (first: %s); their spans, whichever case they belonged to, are lost", refused, first))
	}
	if !c.lastAt.IsZero() && c.lastAt.Sub(c.began) > 0 {
		out.LastSpanMS = float64(c.lastAt.Sub(c.began).Microseconds()) / 1000
	}
	sort.SliceStable(out.spans, func(i, j int) bool { return out.spans[i].start < out.spans[j].start })
	r.pruneRefusals()
	return out
}

// await waits for late spans: Limits.Quiet after the answer and after
// each span, settleWait once the trace is complete, at most
// Limits.MaxWait in all, less if ctx ends.
func (c *Case) await(ctx context.Context) {
	l := c.r.limits
	deadline := time.NewTimer(l.MaxWait)
	defer deadline.Stop()
	wait := func() time.Duration {
		if c.Complete() {
			return min(settleWait, l.Quiet)
		}
		return l.Quiet
	}
	quiet := time.NewTimer(wait())
	defer quiet.Stop()
	for {
		select {
		case <-c.changed:
			if !quiet.Stop() {
				select {
				case <-quiet.C:
				default:
				}
			}
			quiet.Reset(wait())
		case <-quiet.C:
			return
		case <-deadline.C:
			return
		case <-ctx.Done():
			return
		}
	}
}

// settleWait is how long End still waits once a trace that was not
// complete at the answer becomes complete: a request in flight from the
// same unflushed export has time to land.
const settleWait = 5 * time.Millisecond

// Complete reports whether every kept span's parent is known and one of
// them continues the case's traceparent (as once the agent's root span has
// ended and been exported), with no span received beyond the kept ones.
func (c *Case) Complete() bool {
	c.r.mu.Lock()
	defer c.r.mu.Unlock()
	if len(c.spans) == 0 || len(c.spans) < c.received {
		return false
	}
	ids := make(map[pcommon.SpanID]bool, len(c.spans))
	for _, s := range c.spans {
		ids[s.id] = true
	}
	rooted := false
	for _, s := range c.spans {
		switch {
		case s.parent.IsEmpty():
			return false // no parent: not under the traceparent
		case s.parent == c.parentID:
			rooted = true
		case !ids[s.parent]:
			return false
		}
	}
	return rooted
}

// pruneRefusals forgets refusals older than every running case; r.mu is
// held.
func (r *Receiver) pruneRefusals() {
	oldest := time.Now()
	for _, c := range r.cases {
		if c.began.Before(oldest) {
			oldest = c.began
		}
	}
	kept := r.refusal[:0]
	for _, f := range r.refusal {
		if !f.at.Before(oldest) {
			kept = append(kept, f)
		}
	}
	r.refusal = kept
}

// Collected is what one case received.
type Collected struct {
	TraceID  string
	ParentID string // the traceparent's span id
	Received int    // spans received for the trace
	Dropped  int    // spans received but not kept
	Notes    []string
	// LastSpanMS is when the last span arrived, in ms after Begin.
	LastSpanMS float64
	spans      []span
	text       textArena // the spans' text
}
