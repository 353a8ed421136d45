package otlp

import (
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"

	"github.com/agentevals-go/agentevals/models"
)

// keyID names an attribute the mapping reads (genai.go); noKey is any
// other.
type keyID uint8

const (
	noKey keyID = iota
	keyOperation
	keyToolName
	keyToolCallID
	keyToolArgs
	keyToolResult
	keyInputTok
	keyOutputTok
	keyErrorType
	keyGroup
	keyAIOperation
	keyAIToolName
	keyAIToolArgs
	keyAIToolInput
	keyAIToolResult
	keyAIToolOutput
	keyAIInputTok
	keyAIOutputTok
	keyAIPromptTok
	keyAICompletionTok
	keyOIKind
	keyOIToolName
	keyOIInput
	keyOIOutput
	keyOIPromptTok
	keyOICompletionTok
	keyMastraType
	keyOIToolCall // any of a model span's tool calls (oiMapped)
)

// idOf is the id of an attribute key. A span keeps the keys the mapping
// reads (any id but noKey) even past the attribute cap.
func idOf(key string) keyID {
	switch key {
	case attrOperation:
		return keyOperation
	case attrToolName:
		return keyToolName
	case attrToolCallID:
		return keyToolCallID
	case attrToolArgs:
		return keyToolArgs
	case attrToolResult:
		return keyToolResult
	case attrInputTok:
		return keyInputTok
	case attrOutputTok:
		return keyOutputTok
	case attrErrorType:
		return keyErrorType
	case attrGroup:
		return keyGroup
	case attrAIOperation:
		return keyAIOperation
	case attrAIToolName:
		return keyAIToolName
	case "ai.toolCall.args":
		return keyAIToolArgs
	case "ai.toolCall.input":
		return keyAIToolInput
	case "ai.toolCall.result":
		return keyAIToolResult
	case "ai.toolCall.output":
		return keyAIToolOutput
	case "ai.usage.inputTokens":
		return keyAIInputTok
	case "ai.usage.outputTokens":
		return keyAIOutputTok
	case "ai.usage.promptTokens":
		return keyAIPromptTok
	case "ai.usage.completionTokens":
		return keyAICompletionTok
	case attrOIKind:
		return keyOIKind
	case "tool.name":
		return keyOIToolName
	case "input.value":
		return keyOIInput
	case "output.value":
		return keyOIOutput
	case "llm.token_count.prompt":
		return keyOIPromptTok
	case "llm.token_count.completion":
		return keyOICompletionTok
	case attrMastraType:
		return keyMastraType
	}
	if oiMapped(key) {
		return keyOIToolCall
	}
	return noKey
}

// spanAttrs are a kept span's attributes as the stored trace holds them,
// with the id of each key beside it, so that the mapping finds what it
// reads without comparing keys.
type spanAttrs struct {
	list models.SpanAttrs
	ids  []keyID
	has  uint32 // a bit per id the span has
}

// get is the value of the attribute id names (the last one of that key),
// "" when the span has none.
func (a *spanAttrs) get(id keyID) string {
	if a.has&(1<<id) == 0 {
		return ""
	}
	for i := len(a.ids) - 1; i >= 0; i-- {
		if a.ids[i] == id {
			return a.list[i].Value
		}
	}
	return ""
}

// textArena holds the text of a case's spans in blocks, a few
// allocations for a whole trace: each span's run is its name, its status
// message, then its attributes. Blocks double up to textBlockMax
// entries, then stay at that, so the last one wastes little; a span
// keeps no pointer, so the case's span list grows without the garbage
// collector reading it.
type textArena struct {
	pairs [][]models.SpanAttr
	ids   [][]keyID
	next  int // the size of the next block
}

// textRef is where a span's run is: block blk, from lo, n entries of
// room made for size.
type textRef struct{ blk, lo, n, size uint32 }

const textBlockMax = 1024

// runHead is how many entries of a run precede its attributes: the name
// and the status message.
const runHead = 2

// start makes room for a span's run of n entries (more are moved to a
// bigger room).
func (r *textArena) start(n int) textRef {
	last := len(r.pairs) - 1
	if last < 0 || cap(r.pairs[last])-len(r.pairs[last]) < n {
		r.next = min(max(2*r.next, 64), textBlockMax)
		size := max(n, r.next)
		r.pairs = append(r.pairs, make([]models.SpanAttr, 0, size))
		r.ids = append(r.ids, make([]keyID, 0, size))
		last++
	}
	l := len(r.pairs[last])
	r.pairs[last], r.ids[last] = r.pairs[last][:l+n], r.ids[last][:l+n]
	return textRef{blk: uint32(last), lo: uint32(l), size: uint32(n)}
}

// set adds an entry to the run at t; *has gets id's bit.
func (r *textArena) set(t *textRef, has *uint32, key, val string, id keyID) {
	if t.n == t.size {
		r.move(t)
	}
	at := t.lo + t.n
	r.pairs[t.blk][at], r.ids[t.blk][at] = models.SpanAttr{Key: key, Value: val}, id
	t.n++
	*has |= 1 << id
}

// move copies the run at t to a room twice its size.
func (r *textArena) move(t *textRef) {
	to := r.start(2 * int(t.size))
	copy(r.pairs[to.blk][to.lo:], r.pairs[t.blk][t.lo:t.lo+t.n])
	copy(r.ids[to.blk][to.lo:], r.ids[t.blk][t.lo:t.lo+t.n])
	to.n = t.n
	*t = to
}

// run is the span's text: its name, status message and attributes.
func (r *textArena) run(s *span) (name, statusMessage string, attrs spanAttrs) {
	t := s.text
	pairs := r.pairs[t.blk][t.lo : t.lo+t.n : t.lo+t.n]
	ids := r.ids[t.blk][t.lo : t.lo+t.n : t.lo+t.n]
	return pairs[0].Value, pairs[1].Value, spanAttrs{list: pairs[runHead:], ids: ids[runHead:], has: s.has}
}

// numbers holds the text of a case's numeric attributes: one buffer, not
// a string each.
type numbers struct{ b strings.Builder }

// text is v as text as pcommon.Value.AsString writes it.
func (n *numbers) text(v pcommon.Value) string {
	var tmp [24]byte
	var num []byte
	switch v.Type() {
	case pcommon.ValueTypeInt:
		num = strconv.AppendInt(tmp[:0], v.Int(), 10)
	default:
		return v.AsString()
	}
	if n.b.Cap()-n.b.Len() < len(num) {
		n.b = strings.Builder{}
		n.b.Grow(512)
	}
	l := n.b.Len()
	n.b.Write(num)
	return n.b.String()[l:]
}
