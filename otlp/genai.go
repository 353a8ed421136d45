package otlp

import (
	"encoding/hex"
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/score"
)

// How spans become evidence. Each span is read by the first dialect that
// recognises it (docs/traces.md has the table):
//
//   - OpenTelemetry GenAI conventions: gen_ai.operation.name
//     "execute_tool" is a tool call (gen_ai.tool.name, or the span name
//     after "execute_tool "; gen_ai.tool.call.arguments;
//     gen_ai.tool.call.result); "chat", "text_completion",
//     "generate_content" and "embeddings" are model calls with
//     gen_ai.usage.input_tokens and gen_ai.usage.output_tokens.
//   - Vercel AI SDK: a span with ai.toolCall.name is a tool call
//     (ai.toolCall.args or ai.toolCall.input; ai.toolCall.result or
//     ai.toolCall.output); ai.operationId ending in ".doGenerate" or
//     ".doStream" is a model call (gen_ai.usage.*, else ai.usage.inputTokens
//     / promptTokens and outputTokens / completionTokens). The outer
//     ai.generateText span is structure, so usage is not counted twice.
//   - OpenInference: openinference.span.kind "TOOL" is a tool call
//     (tool.name, input.value, output.value; arguments that are not an
//     object come from the model span's tool call of that name, and a
//     serialized ToolMessage result is its content, see openinference.go);
//     "LLM" a model call (llm.token_count.prompt and
//     llm.token_count.completion).
//   - Mastra writes GenAI spans; a "chat" span that is a whole generation
//     counts one model call per model_step child (mastra.go).
//
// A tool call's status is "error" when its span's status is error or it
// has error.type, else "ok"; its group is agentevals.tool.group when the
// agent sets it, else unknown (empty). Arguments are a JSON object as the
// gem stores them: an object's text is kept, anything else becomes {} and
// its text is kept beside the call in the trace record (actions.go).
// Results that are JSON text are kept as JSON, any other text as a JSON
// string.
const (
	attrOperation   = "gen_ai.operation.name"
	attrToolName    = "gen_ai.tool.name"
	attrToolCallID  = "gen_ai.tool.call.id"
	attrToolArgs    = "gen_ai.tool.call.arguments"
	attrToolResult  = "gen_ai.tool.call.result"
	attrInputTok    = "gen_ai.usage.input_tokens"
	attrOutputTok   = "gen_ai.usage.output_tokens"
	attrErrorType   = "error.type"
	attrGroup       = "agentevals.tool.group"
	attrAIOperation = "ai.operationId"
	attrAIToolName  = "ai.toolCall.name"
	attrOIKind      = "openinference.span.kind"
)

// Evidence is what one case's spans say.
type Evidence struct {
	// Record is the case's stored trace (models.CaseMetadata.Trace).
	Record *models.CaseTrace
	// Actions are the tool calls in start order; nil when no span came
	// (nothing observed), [] when spans came without a tool call.
	Actions []score.Action
	// Trace is what the trace checks see.
	Trace *score.Trace
	// InputTokens and OutputTokens sum the model calls' usage; nil when no
	// span reported it.
	InputTokens, OutputTokens *int64
}

// EachSpan calls f with every span of td and the service.name of its
// resource ("" when none).
func EachSpan(td ptrace.Traces, f func(sp ptrace.Span, service string)) {
	rss := td.ResourceSpans()
	for i := range rss.Len() {
		rs := rss.At(i)
		service := ""
		if v, ok := rs.Resource().Attributes().Get("service.name"); ok {
			service = v.AsString()
		}
		sss := rs.ScopeSpans()
		for j := range sss.Len() {
			spans := sss.At(j).Spans()
			for k := range spans.Len() {
				f(spans.At(k), service)
			}
		}
	}
}

// Spans keeps one trace's spans that were read rather than received (an
// exported file), cut and repaired within the same limits as the run's
// receiver, so that Evidence maps them exactly as it maps a run's.
type Spans struct{ c Case }

// NewSpans starts an empty trace; zero limits take the receiver's
// defaults.
func NewSpans(traceID pcommon.TraceID, l Limits) *Spans {
	return &Spans{c: Case{r: &Receiver{limits: l.withDefaults()}, traceID: traceID}}
}

// Add keeps sp, whose resource names service, while the trace has room.
func (s *Spans) Add(sp ptrace.Span, service string) { s.c.add(sp, service, time.Time{}) }

// Received counts the spans added, kept or not.
func (s *Spans) Received() int { return s.c.received }

// Bytes is about how much memory the kept spans hold.
func (s *Spans) Bytes() int { return s.c.kept[0] + s.c.kept[1] + len(s.c.spans)*spanOverhead }

// spanOverhead is a kept span's size besides its attribute text.
const spanOverhead = 256

// Collected is what the trace kept, with the notes Case.End writes for
// spans and attributes left out, its spans in start order.
func (s *Spans) Collected() Collected {
	out := s.c.collected()
	sort.SliceStable(out.spans, func(i, j int) bool { return out.spans[i].start < out.spans[j].start })
	return out
}

// collected is what the case kept, with the notes for spans and
// attributes the limits left out; its spans in arrival order.
func (c *Case) collected() Collected {
	l := c.r.limits
	out := Collected{TraceID: c.TraceID(), Received: c.received, Dropped: c.received - len(c.spans), spans: c.spans, text: c.text}
	if out.Dropped > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("kept the first %d of %d spans (the span cap)", len(c.spans), c.received))
	}
	attrsDropped := 0
	for _, sp := range c.spans {
		attrsDropped += int(sp.droppedAttrs)
	}
	if attrsDropped > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%d span attributes left out (at most %d per span)", attrsDropped, l.MaxAttributes))
	}
	if c.overBudget > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("%d span attributes left out: the case's attribute text reached %d bytes", c.overBudget, l.MaxTraceBytes))
	}
	return out
}

// Evidence maps the collected spans.
func (c Collected) Evidence() Evidence {
	rec := &models.CaseTrace{TraceID: c.TraceID, ParentSpanID: c.ParentID, SpansReceived: c.Received, SpansDropped: c.Dropped, Notes: c.Notes, Spans: make([]models.TraceSpan, 0, len(c.spans))}
	ev := Evidence{Record: rec, Trace: &score.Trace{Dropped: c.Dropped, Spans: make([]score.Span, 0, len(c.spans))}}
	tools := 0
	for i := range c.spans {
		if k := c.kept(i); toolDialect(&k) != notTool {
			tools++
		}
	}
	if len(c.spans) > 0 {
		ev.Actions = make([]score.Action, 0, tools)
	}
	var first uint64
	if len(c.spans) > 0 {
		first = c.spans[0].start
	}
	ids := idText(c.spans)
	var parent pcommon.SpanID // the last parent written, siblings share its text
	var parentText string
	var in, out tokenSum
	var args argText
	raw := make([]*string, 0, tools)  // each call's argument text when not an object
	durs := make([]float64, 0, tools) // the calls' durations, one allocation
	var oiCalls []oiCall              // tool calls OpenInference model spans asked for
	var mastra mastraSteps
	for i := range c.spans {
		k := c.kept(i)
		s := &k
		if !s.parent.IsEmpty() && (s.parent != parent || parentText == "") {
			parent, parentText = s.parent, hex.EncodeToString(s.parent[:])
		}
		ts := models.TraceSpan{SpanID: ids[16*i : 16*i+16], Name: s.name, Kind: kindName(s.kind), StartMS: durationMS(first, s.start),
			DurationMS: durationMS(s.start, s.end), Status: statusName(s.status), StatusMessage: s.statusMessage, Attributes: s.attrs.list}
		if !s.parent.IsEmpty() {
			ts.ParentID = parentText
		}
		rec.Spans = append(rec.Spans, ts)
		ev.Trace.Spans = append(ev.Trace.Spans, score.Span{Name: s.name, DurationMS: ts.DurationMS, Error: s.status == ptrace.StatusCodeError})
		if strings.EqualFold(s.attrs.get(keyOIKind), "LLM") {
			oiCalls = append(oiCalls, oiModelCalls(s.attrs.list)...)
		}
		if a, rawArgs, ok := toolCall(s, &args); ok {
			if strings.EqualFold(s.attrs.get(keyOIKind), "TOOL") {
				// input.value was not an arguments object (stored as {}):
				// the model span's tool call holds the arguments.
				oiRepair(&a, rawArgs != nil || string(a.Arguments) == "{}", oiCalls)
			}
			durs = append(durs, ts.DurationMS)
			a.DurationMS = &durs[len(durs)-1]
			ev.Actions = append(ev.Actions, a)
			raw = append(raw, rawArgs)
			continue
		}
		callIn, callOut, ok := modelCall(s)
		if ok {
			rec.ModelCalls++
			in.add(callIn)
			out.add(callOut)
		}
		if s.attrs.get(keyMastraType) != "" {
			mastra.see(s, ok)
		}
	}
	rec.ModelCalls += mastra.extraCalls()
	ev.InputTokens, ev.OutputTokens = in.total(), out.total()
	rec.InputTokens, rec.OutputTokens = ev.InputTokens, ev.OutputTokens
	if len(ev.Actions) > 0 {
		rec.SpanActions = storedActions(ev.Actions, raw, true)
	}
	return ev
}

// keptSpan is a kept span with its text, as the mapping reads it.
type keptSpan struct {
	*span
	name, statusMessage string
	attrs               spanAttrs
}

// kept is span i with its text.
func (c *Collected) kept(i int) keptSpan {
	k := keptSpan{span: &c.spans[i]}
	k.name, k.statusMessage, k.attrs = c.text.run(k.span)
	return k
}

// idText is the spans' ids in hex, 16 digits each, as one string.
func idText(spans []span) string {
	var b strings.Builder
	b.Grow(16 * len(spans))
	var digits [16]byte
	for i := range spans {
		b.Write(hex.AppendEncode(digits[:0], spans[i].id[:]))
	}
	return b.String()
}

func durationMS(from, to uint64) float64 {
	if to <= from {
		return 0
	}
	return float64((to-from)/1000) / 1000
}

// The dialects that read a span as a tool call, in the order they are
// tried.
const (
	notTool = iota
	genAITool
	vercelTool
	openInferenceTool
)

// toolDialect is the first dialect that reads s as a tool call.
func toolDialect(s *keptSpan) int {
	a := &s.attrs
	switch {
	case a.get(keyOperation) == "execute_tool":
		return genAITool
	case a.get(keyAIToolName) != "":
		return vercelTool
	case strings.EqualFold(a.get(keyOIKind), "TOOL"):
		return openInferenceTool
	}
	return notTool
}

// toolCall reads a tool-call span in the first dialect that knows it;
// rawArgs is its argument text when that was not a JSON object.
func toolCall(s *keptSpan, buf *argText) (act score.Action, rawArgs *string, ok bool) {
	a := &s.attrs
	var name, args, result string
	switch toolDialect(s) {
	case genAITool:
		name = a.get(keyToolName)
		if name == "" {
			name = strings.TrimSpace(strings.TrimPrefix(s.name, "execute_tool"))
		}
		args, result = a.get(keyToolArgs), a.get(keyToolResult)
	case vercelTool:
		name = a.get(keyAIToolName)
		args, result = first(a.get(keyAIToolArgs), a.get(keyAIToolInput)), first(a.get(keyAIToolResult), a.get(keyAIToolOutput))
	case openInferenceTool:
		name = first(a.get(keyOIToolName), s.name)
		args, result = a.get(keyOIInput), a.get(keyOIOutput)
	default:
		return score.Action{}, nil, false
	}
	act = score.Action{Group: repaired(a.get(keyGroup)), Name: repaired(name), Result: buf.result(repaired(result)), Status: score.StatusOK}
	act.Arguments, rawArgs = buf.arguments(repaired(args))
	if s.status == ptrace.StatusCodeError || a.get(keyErrorType) != "" {
		act.Status = score.StatusError
	}
	return act, rawArgs, true
}

// repaired is s with NUL and invalid UTF-8 replaced, as an action holds
// text.
func repaired(s string) string {
	out, _ := sanitize.Repair(s)
	return out
}

// modelCall reads a model-call span's usage (-1: not reported).
func modelCall(s *keptSpan) (in, out int64, ok bool) {
	a := &s.attrs
	switch op := a.get(keyOperation); {
	case op == "chat" || op == "text_completion" || op == "generate_content" || op == "embeddings":
		return tokens(a.get(keyInputTok)), tokens(a.get(keyOutputTok)), true
	case strings.HasSuffix(a.get(keyAIOperation), ".doGenerate") || strings.HasSuffix(a.get(keyAIOperation), ".doStream"):
		in := tokens(first(a.get(keyInputTok), a.get(keyAIInputTok), a.get(keyAIPromptTok)))
		out := tokens(first(a.get(keyOutputTok), a.get(keyAIOutputTok), a.get(keyAICompletionTok)))
		return in, out, true
	case strings.EqualFold(a.get(keyOIKind), "LLM"):
		return tokens(a.get(keyOIPromptTok)), tokens(a.get(keyOICompletionTok)), true
	}
	return 0, 0, false
}

func tokens(s string) int64 {
	n, err := strconv.ParseInt(s, 10, 64)
	if err != nil || n < 0 {
		return -1
	}
	return n
}

// tokenSum sums the usage the model calls reported.
type tokenSum struct {
	n    int64
	seen bool
}

// add counts n, unless it is -1 (not reported).
func (t *tokenSum) add(n int64) {
	if n >= 0 {
		t.n += n
		t.seen = true
	}
}

// total is the sum, nil when no call reported any.
func (t tokenSum) total() *int64 {
	if !t.seen {
		return nil
	}
	return &t.n
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
