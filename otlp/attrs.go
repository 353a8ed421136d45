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
// reads without comparing keys; each a run of one of the arena's blocks.
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

// attrArena holds the attributes of a case's spans in blocks, a few
// allocations for a whole trace: blocks double up to attrBlockMax
// attributes, then stay at that, so the last one wastes little.
type attrArena struct {
	pairs []models.SpanAttr
	ids   []keyID
	next  int // the size of the next block
}

const attrBlockMax = 1024

// start begins a span's attributes with room for n of them (more are
// kept apart).
func (r *attrArena) start(n int) spanAttrs {
	if cap(r.pairs)-len(r.pairs) < n {
		r.next = min(max(2*r.next, 64), attrBlockMax)
		size := max(n, r.next)
		r.pairs, r.ids = make([]models.SpanAttr, 0, size), make([]keyID, 0, size)
	}
	l := len(r.pairs)
	r.pairs, r.ids = r.pairs[:l+n], r.ids[:l+n]
	return spanAttrs{list: r.pairs[l : l : l+n], ids: r.ids[l : l : l+n]}
}

// set keeps an attribute; a later one of the same key replaces it, as
// get and the stored record read them.
func (a *spanAttrs) set(key, val string, id keyID) {
	a.list = append(a.list, models.SpanAttr{Key: key, Value: val})
	a.ids = append(a.ids, id)
	a.has |= 1 << id
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
