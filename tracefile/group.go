package tracefile

import (
	"fmt"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/otlp"
)

// grouper gathers spans into traces and traces into conversations, and
// closes them into cases when the stream's clock has passed them or
// memory asks for it.
type grouper struct {
	l     Limits
	stats *Stats
	emit  func(*Case)

	open  map[pcommon.TraceID]*openTrace
	order []orderEntry // open traces in the order first seen; stale entries skipped
	seq   uint64
	bytes int    // held by open traces
	now   uint64 // the stream's clock: the latest span end read (unix ns)

	convs     map[string]*openConv
	convOrder []string
	convBytes int            // held by open conversations
	convParts map[string]int // parts already closed, by conversation id (bounded by MaxOpenTraces)

	closed recent // trace ids closed lately, so their stragglers count as late
	// clean says the record being taken holds no text to repair, so its
	// spans need no check of their own.
	clean bool
}

type orderEntry struct {
	id  pcommon.TraceID
	seq uint64
}

// openTrace is a trace whose spans are still arriving.
type openTrace struct {
	seq        uint64
	spans      *otlp.Spans
	service    string
	start, end uint64 // unix ns: first start, last end
	hasRoot    bool
	ids        []pcommon.SpanID
	parents    []pcommon.SpanID
	checked    int  // len(ids) when complete was last worked out
	wasDone    bool // what it said then
	conv       string
	in, out    candidate
	rootIn     payload
	rootOut    payload
	bytes      int
}

// candidate is the best non-root payload so far, and when its span ran.
type candidate struct {
	p   payload
	at  uint64
	set bool
}

// openConv is a conversation whose turns are still arriving.
type openConv struct {
	turns []Turn
	last  uint64 // end of its latest turn
	bytes int
	notes []string
}

func newGrouper(l Limits, stats *Stats, emit func(*Case)) *grouper {
	return &grouper{l: l, stats: stats, emit: emit, open: map[pcommon.TraceID]*openTrace{},
		convs: map[string]*openConv{}, convParts: map[string]int{}, closed: newRecent(l.RememberClosed)}
}

// take files every span of one export request under its trace.
func (g *grouper) take(td ptrace.Traces) { otlp.EachSpan(td, g.add) }

func (g *grouper) add(sp ptrace.Span, service string) {
	g.stats.Spans++
	id := sp.TraceID()
	if id.IsEmpty() {
		g.stats.NoTraceID++
		return
	}
	t := g.open[id]
	if t == nil {
		if g.closed.has(id) {
			g.stats.Late++
			return
		}
		g.seq++
		t = &openTrace{seq: g.seq, spans: otlp.NewSpans(id, g.l.Spans), checked: -1}
		g.open[id] = t
		g.order = append(g.order, orderEntry{id: id, seq: g.seq})
	}
	before := t.bytes
	t.add(sp, service, g.stats, g.clean)
	g.bytes += t.bytes - before
	if end := uint64(sp.EndTimestamp()); end > g.now {
		g.now = end
	}
}

// add keeps one span and what it says was asked and answered.
func (t *openTrace) add(sp ptrace.Span, service string, stats *Stats, clean bool) {
	if t.service == "" {
		t.service = service
	}
	start, end := uint64(sp.StartTimestamp()), uint64(sp.EndTimestamp())
	if t.start == 0 || start < t.start {
		t.start = start
	}
	t.end = max(t.end, end)
	t.ids = append(t.ids, sp.SpanID())
	root := sp.ParentSpanID().IsEmpty()
	if root {
		t.hasRoot = true
	} else {
		t.parents = append(t.parents, sp.ParentSpanID())
	}
	in, out, conv, bad := spanText(sp.Attributes(), clean)
	if bad || (!clean && (badText(sp.Name()) || badText(sp.Status().Message()))) {
		stats.Repaired++
	}
	if t.conv == "" && conv != "" {
		t.conv = conv
	}
	extra := 0
	switch {
	case root:
		if !in.empty() {
			t.rootIn, extra = in, extra+in.size()
		}
		if !out.empty() {
			t.rootOut, extra = out, extra+out.size()
		}
	default:
		if !in.empty() && (!t.in.set || start < t.in.at) {
			t.in, extra = candidate{p: in, at: start, set: true}, extra+in.size()
		}
		if !out.empty() && (!t.out.set || end >= t.out.at) {
			t.out, extra = candidate{p: out, at: end, set: true}, extra+out.size()
		}
	}
	t.spans.Add(sp, service)
	t.bytes = t.spans.Bytes() + len(t.ids)*48 + extra + t.rootIn.size() + t.rootOut.size()
}

func (p payload) size() int {
	n := len(p.raw)
	for _, m := range p.indexed {
		n += len(m.role) + len(m.text) + 32
	}
	return n
}

// complete reports whether the root span arrived and every span's parent
// did too; worked out again only when spans have arrived since.
func (t *openTrace) complete() bool {
	if !t.hasRoot {
		return false
	}
	if t.checked == len(t.ids) {
		return t.wasDone
	}
	t.checked, t.wasDone = len(t.ids), true
	known := func(p pcommon.SpanID) bool {
		for _, id := range t.ids {
			if id == p {
				return true
			}
		}
		return false
	}
	if len(t.ids) > 16 { // a large trace: a set, not a scan per parent
		set := make(map[pcommon.SpanID]struct{}, len(t.ids))
		for _, id := range t.ids {
			set[id] = struct{}{}
		}
		known = func(p pcommon.SpanID) bool { _, ok := set[p]; return ok }
	}
	for _, p := range t.parents {
		if !known(p) {
			t.wasDone = false
			break
		}
	}
	return t.wasDone
}

// settle closes what the stream's clock has passed, then the oldest open
// traces and conversations while over the limits.
func (g *grouper) settle() {
	linger, timeout, gap := uint64(g.l.Linger), uint64(g.l.Timeout), uint64(g.l.ConversationGap)
	for _, e := range g.order {
		t := g.open[e.id]
		if t == nil || t.seq != e.seq {
			continue
		}
		wait := timeout
		if t.complete() {
			wait = linger
		}
		if g.now >= t.end+wait {
			g.closeTrace(e.id, t, "")
		}
	}
	for _, id := range g.convOrder {
		if c := g.convs[id]; c != nil && g.now >= c.last+gap {
			g.closeConv(id)
		}
	}
	for g.shed() {
	}
	g.compact()
}

// shed closes the oldest open trace, or when conversations hold more of
// the bytes the oldest conversation, if over a limit; false when not.
func (g *grouper) shed() bool {
	over := g.bytes+g.convBytes > g.l.MaxOpenBytes
	if len(g.open) > g.l.MaxOpenTraces || (over && g.bytes >= g.convBytes) {
		id, t := g.oldestTrace()
		if t == nil {
			return false
		}
		g.stats.EarlyTraces++
		g.closeTrace(id, t, fmt.Sprintf("closed before it was complete to stay within %d open traces and %d bytes", g.l.MaxOpenTraces, g.l.MaxOpenBytes))
		return true
	}
	for over && len(g.convOrder) > 0 {
		id := g.convOrder[0]
		g.convOrder = g.convOrder[1:]
		if c := g.convs[id]; c != nil {
			c.notes = append(c.notes, fmt.Sprintf("closed before its gap to stay within %d bytes; later turns form another case", g.l.MaxOpenBytes))
			g.closeConv(id)
			return true
		}
	}
	return false
}

// flush closes everything still open: the stream has ended.
func (g *grouper) flush() {
	for {
		id, t := g.oldestTrace()
		if t == nil {
			break
		}
		g.closeTrace(id, t, "")
	}
	for _, id := range g.convOrder {
		if g.convs[id] != nil {
			g.closeConv(id)
		}
	}
	g.convOrder = nil
}

// oldestTrace is the open trace first seen longest ago.
func (g *grouper) oldestTrace() (pcommon.TraceID, *openTrace) {
	for len(g.order) > 0 {
		e := g.order[0]
		g.order = g.order[1:]
		if t := g.open[e.id]; t != nil && t.seq == e.seq {
			return e.id, t
		}
	}
	return pcommon.TraceID{}, nil
}

// compact drops the order entries of closed traces once they are most of
// the queue, so it stays within twice the open traces.
func (g *grouper) compact() {
	if len(g.order) < 1024 || len(g.order) < 2*len(g.open) {
		g.compactConvs()
		return
	}
	kept := make([]orderEntry, 0, len(g.open))
	for _, e := range g.order {
		if t := g.open[e.id]; t != nil && t.seq == e.seq {
			kept = append(kept, e)
		}
	}
	g.order = kept
	g.compactConvs()
}

// compactConvs does the same for the conversations' order.
func (g *grouper) compactConvs() {
	if len(g.convOrder) >= 1024 && len(g.convOrder) >= 2*len(g.convs) {
		seen := map[string]bool{}
		ids := make([]string, 0, len(g.convs))
		for _, id := range g.convOrder {
			if g.convs[id] != nil && !seen[id] {
				seen[id] = true
				ids = append(ids, id)
			}
		}
		g.convOrder = ids
	}
}

// closeTrace turns an open trace into a turn, then a case or part of a
// conversation, and releases its spans.
func (g *grouper) closeTrace(id pcommon.TraceID, t *openTrace, note string) {
	delete(g.open, id)
	g.closed.add(id)
	g.bytes -= t.bytes
	g.stats.Traces++
	turn := t.turn(g.l, note)
	if t.conv == "" {
		g.emit(singleCase(turn))
		return
	}
	c := g.convs[t.conv]
	if c == nil {
		c = &openConv{}
		g.convs[t.conv] = c
		g.convOrder = append(g.convOrder, t.conv)
	}
	c.turns = append(c.turns, turn)
	c.last = max(c.last, t.end)
	c.bytes += t.bytes
	g.convBytes += t.bytes
	if len(c.turns) >= g.l.MaxTurns {
		c.notes = append(c.notes, fmt.Sprintf("the conversation reached %d turns (MaxTurns); later turns form another case", g.l.MaxTurns))
		g.closeConv(t.conv)
	}
}

// closeConv emits a conversation case.
func (g *grouper) closeConv(id string) {
	c := g.convs[id]
	delete(g.convs, id)
	g.convBytes -= c.bytes
	if len(g.convParts) >= g.l.MaxOpenTraces {
		clear(g.convParts)
	}
	g.convParts[id]++
	g.emit(conversationCase(id, g.convParts[id], c.turns, c.notes))
}

// recent remembers the last max trace ids added.
type recent struct {
	ring []pcommon.TraceID
	set  map[pcommon.TraceID]struct{}
	next int
	max  int
}

func newRecent(n int) recent { return recent{set: map[pcommon.TraceID]struct{}{}, max: n} }

func (r *recent) has(id pcommon.TraceID) bool { _, ok := r.set[id]; return ok }

func (r *recent) add(id pcommon.TraceID) {
	if len(r.ring) < r.max {
		r.ring = append(r.ring, id)
	} else {
		delete(r.set, r.ring[r.next])
		r.ring[r.next] = id
		r.next = (r.next + 1) % len(r.ring)
	}
	r.set[id] = struct{}{}
}
