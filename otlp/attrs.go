package otlp

import (
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// keyID names an attribute the mapping reads (genai.go); noKey is any
// other. A kept span keeps these values by id beside its map, so that the
// mapping finds what it reads without hashing a key.
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

// spanAttrs are a kept span's attributes: the map the stored trace holds,
// and the values of the keys the mapping reads, by id (except
// keyOIToolCall, read from the map), a run of an arena's block.
type spanAttrs struct {
	m     map[string]string
	blk   *mappedBlock
	lo, n int32
	has   uint32 // a bit per id the span has
}

// mappedVal is the value of a key the mapping reads.
type mappedVal struct {
	id  keyID
	val string
}

// mappedBlock holds the mapped values of a run of spans.
type mappedBlock struct{ vals []mappedVal }

func (a *spanAttrs) vals() []mappedVal {
	if a.n == 0 {
		return nil
	}
	return a.blk.vals[a.lo : a.lo+a.n : a.lo+a.n]
}

// get is the value of the attribute id names, "" when the span has none.
func (a *spanAttrs) get(id keyID) string {
	if a.has&(1<<id) == 0 {
		return ""
	}
	for _, v := range a.vals() {
		if v.id == id {
			return v.val
		}
	}
	return ""
}

// mappedArena holds the mapped values of a case's spans in blocks, a few
// allocations for a whole trace: blocks double up to mappedBlockMax
// values, then stay at that, so the last one wastes little.
type mappedArena struct {
	blk  *mappedBlock
	next int // the size of the next block
}

const mappedBlockMax = 1024

// start begins a span's attributes, at most n of them; the span before
// has all its own.
func (r *mappedArena) start(n int) spanAttrs {
	a := spanAttrs{m: make(map[string]string, n)}
	if r.blk != nil {
		a.blk, a.lo = r.blk, int32(len(r.blk.vals))
	}
	return a
}

// set keeps key's value, replacing the one an earlier attribute of the
// same key set, as the map does.
func (r *mappedArena) set(a *spanAttrs, key, val string, id keyID) {
	a.m[key] = val
	if id == noKey || id == keyOIToolCall {
		return
	}
	if a.has&(1<<id) != 0 {
		vals := a.vals()
		for i := range vals {
			if vals[i].id == id {
				vals[i].val = val
				return
			}
		}
	}
	if a.blk == nil || len(a.blk.vals) == cap(a.blk.vals) {
		r.move(a)
	}
	a.blk.vals = append(a.blk.vals, mappedVal{id: id, val: val})
	a.n++
	a.has |= 1 << id
}

// move copies the span's values to a new block with room for more,
// which the spans after it use.
func (r *mappedArena) move(a *spanAttrs) {
	r.next = min(max(2*r.next, 64), mappedBlockMax)
	blk := &mappedBlock{vals: make([]mappedVal, a.n, max(r.next, 2*int(a.n)+2))}
	copy(blk.vals, a.vals())
	r.blk, a.blk, a.lo = blk, blk, 0
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
