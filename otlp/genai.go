package otlp

import (
	"fmt"
	"sort"
	"strconv"
	"strings"
	"time"

	"go.opentelemetry.io/collector/pdata/pcommon"
	"go.opentelemetry.io/collector/pdata/ptrace"

	"github.com/agentevals-go/agentevals/models"
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

// mappedKeys are the attributes the mapping reads: a span keeps them even
// past the attribute cap.
var mappedKeys = map[string]bool{
	attrOperation: true, attrToolName: true, attrToolCallID: true, attrToolArgs: true, attrToolResult: true,
	attrInputTok: true, attrOutputTok: true, attrErrorType: true, attrGroup: true, attrAIOperation: true,
	attrAIToolName: true, "ai.toolCall.args": true, "ai.toolCall.input": true, "ai.toolCall.result": true,
	"ai.toolCall.output": true, "ai.usage.inputTokens": true, "ai.usage.outputTokens": true,
	"ai.usage.promptTokens": true, "ai.usage.completionTokens": true, attrOIKind: true, "tool.name": true,
	"input.value": true, "output.value": true, "llm.token_count.prompt": true, "llm.token_count.completion": true,
	attrMastraType: true,
}

func mapped(key string) bool { return mappedKeys[key] || oiMapped(key) }

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
	out := Collected{TraceID: c.TraceID(), Received: c.received, Dropped: c.received - len(c.spans), spans: c.spans}
	if out.Dropped > 0 {
		out.Notes = append(out.Notes, fmt.Sprintf("kept the first %d of %d spans (the span cap)", len(c.spans), c.received))
	}
	attrsDropped := 0
	for _, sp := range c.spans {
		attrsDropped += sp.droppedAttrs
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
	if len(c.spans) > 0 {
		ev.Actions = []score.Action{}
	}
	var first uint64
	if len(c.spans) > 0 {
		first = c.spans[0].start
	}
	var raw []*string    // each call's argument text when not an object
	var oiCalls []oiCall // tool calls OpenInference model spans asked for
	var mastra mastraSteps
	for _, s := range c.spans {
		dur := durationMS(s.start, s.end)
		rec.Spans = append(rec.Spans, models.TraceSpan{SpanID: s.id, ParentID: s.parent, Name: s.name, Kind: s.kind,
			StartMS: durationMS(first, s.start), DurationMS: dur, Status: s.status, StatusMessage: s.statusMessage, Attributes: s.attrs})
		ev.Trace.Spans = append(ev.Trace.Spans, score.Span{Name: s.name, DurationMS: dur, Error: s.status == "error"})
		if strings.EqualFold(s.attrs[attrOIKind], "LLM") {
			oiCalls = append(oiCalls, oiModelCalls(s.attrs)...)
		}
		if a, rawArgs, ok := toolCall(s); ok {
			if strings.EqualFold(s.attrs[attrOIKind], "TOOL") {
				// input.value was not an arguments object (stored as {}):
				// the model span's tool call holds the arguments.
				oiRepair(&a, rawArgs != nil || string(a.Arguments) == "{}", oiCalls)
			}
			a.DurationMS = &dur
			ev.Actions = append(ev.Actions, a)
			raw = append(raw, rawArgs)
			continue
		}
		in, out, ok := modelCall(s)
		if ok {
			rec.ModelCalls++
			ev.InputTokens = addTokens(ev.InputTokens, in)
			ev.OutputTokens = addTokens(ev.OutputTokens, out)
		}
		if s.attrs[attrMastraType] != "" {
			mastra.see(s, ok)
		}
	}
	rec.ModelCalls += mastra.extraCalls()
	rec.InputTokens, rec.OutputTokens = ev.InputTokens, ev.OutputTokens
	if len(ev.Actions) > 0 {
		rec.SpanActions = storedActions(ev.Actions, raw)
	}
	return ev
}

func durationMS(from, to uint64) float64 {
	if to <= from {
		return 0
	}
	return float64((to-from)/1000) / 1000
}

// toolCall reads a tool-call span in the first dialect that knows it;
// rawArgs is its argument text when that was not a JSON object.
func toolCall(s span) (act score.Action, rawArgs *string, ok bool) {
	a := s.attrs
	var name, args, result string
	switch {
	case a[attrOperation] == "execute_tool":
		name = first(a[attrToolName], strings.TrimSpace(strings.TrimPrefix(s.name, "execute_tool")))
		args, result = a[attrToolArgs], a[attrToolResult]
	case a[attrAIToolName] != "":
		name = a[attrAIToolName]
		args, result = first(a["ai.toolCall.args"], a["ai.toolCall.input"]), first(a["ai.toolCall.result"], a["ai.toolCall.output"])
	case strings.EqualFold(a[attrOIKind], "TOOL"):
		name = first(a["tool.name"], s.name)
		args, result = a["input.value"], a["output.value"]
	default:
		return score.Action{}, nil, false
	}
	act = score.Action{Group: a[attrGroup], Name: name, Result: score.ActionJSON(result), Status: score.StatusOK}
	act.Arguments, rawArgs = argumentsOf(args)
	if s.status == "error" || a[attrErrorType] != "" {
		act.Status = score.StatusError
	}
	return act, rawArgs, true
}

// modelCall reads a model-call span's usage (-1: not reported).
func modelCall(s span) (in, out int64, ok bool) {
	a := s.attrs
	switch op := a[attrOperation]; {
	case op == "chat" || op == "text_completion" || op == "generate_content" || op == "embeddings":
		return tokens(a[attrInputTok]), tokens(a[attrOutputTok]), true
	case strings.HasSuffix(a[attrAIOperation], ".doGenerate") || strings.HasSuffix(a[attrAIOperation], ".doStream"):
		in := tokens(first(a[attrInputTok], a["ai.usage.inputTokens"], a["ai.usage.promptTokens"]))
		out := tokens(first(a[attrOutputTok], a["ai.usage.outputTokens"], a["ai.usage.completionTokens"]))
		return in, out, true
	case strings.EqualFold(a[attrOIKind], "LLM"):
		return tokens(a["llm.token_count.prompt"]), tokens(a["llm.token_count.completion"]), true
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

func addTokens(sum *int64, n int64) *int64 {
	if n < 0 {
		return sum
	}
	v := n
	if sum != nil {
		v += *sum
	}
	return &v
}

func first(vals ...string) string {
	for _, v := range vals {
		if v != "" {
			return v
		}
	}
	return ""
}
