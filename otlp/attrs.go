package otlp

import (
	"strconv"
	"strings"

	"go.opentelemetry.io/collector/pdata/pcommon"
)

// keyID names an attribute the mapping reads (genai.go); noKey is any
// other. A kept span notes each attribute's id, so that the mapping finds
// what it reads without a map per span.
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

// idOf is the id of an attribute key.
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

// spanAttrs are a kept span's attributes, each key once: a run of an
// arena's block, with the id of each key and a bit per id the span has.
type spanAttrs struct {
	blk   *attrBlock
	lo, n int32
	has   uint32
}

// attr is a kept attribute as text.
type attr struct{ key, val string }

// attrBlock holds the attributes of a run of spans.
type attrBlock struct {
	list []attr
	ids  []keyID
}

// asMap is the attributes as the stored trace holds them.
func (a *spanAttrs) asMap() map[string]string {
	m := make(map[string]string, a.n)
	for _, kv := range a.list() {
		m[kv.key] = kv.val
	}
	return m
}

// list is the attributes, which an append cannot overwrite.
func (a *spanAttrs) list() []attr {
	if a.n == 0 {
		return nil
	}
	return a.blk.list[a.lo : a.lo+a.n : a.lo+a.n]
}

func (a *spanAttrs) ids() []keyID {
	if a.n == 0 {
		return nil
	}
	return a.blk.ids[a.lo : a.lo+a.n]
}

// get is the value of the attribute id names, "" when the span has none.
func (a *spanAttrs) get(id keyID) string {
	if a.has&(1<<id) == 0 {
		return ""
	}
	for i, x := range a.ids() {
		if x == id {
			return a.blk.list[int(a.lo)+i].val
		}
	}
	return ""
}

// attrArena holds the attributes of a case's spans in blocks, so that a
// trace's attributes cost a few allocations: blocks double up to
// attrBlockMax attributes, then stay at that, so the last one wastes
// little.
type attrArena struct {
	blk  *attrBlock
	next int // the size of the next block
}

const attrBlockMax = 1024

// start begins a span's attributes; the span before has all its own.
func (r *attrArena) start() spanAttrs {
	if r.blk == nil {
		return spanAttrs{}
	}
	return spanAttrs{blk: r.blk, lo: int32(len(r.blk.list))}
}

// set keeps key's value in the span's attributes, replacing the one an
// earlier attribute of the same key set, as a map would.
func (r *attrArena) set(a *spanAttrs, key, val string, id keyID) {
	if id == noKey || id == keyOIToolCall || a.has&(1<<id) != 0 {
		for i, x := range a.ids() {
			if x == id && a.blk.list[int(a.lo)+i].key == key {
				a.blk.list[int(a.lo)+i].val = val
				return
			}
		}
	}
	if a.blk == nil || len(a.blk.list) == cap(a.blk.list) {
		r.move(a)
	}
	a.blk.list = append(a.blk.list, attr{key: key, val: val})
	a.blk.ids = append(a.blk.ids, id)
	a.n++
	a.has |= 1 << id
}

// move copies the span's attributes to a new block with room for more,
// which the spans after it use.
func (r *attrArena) move(a *spanAttrs) {
	r.next = min(max(2*r.next, 64), attrBlockMax)
	size := max(r.next, 2*int(a.n)+2)
	blk := &attrBlock{list: make([]attr, a.n, size), ids: make([]keyID, a.n, size)}
	copy(blk.list, a.list())
	copy(blk.ids, a.ids())
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
