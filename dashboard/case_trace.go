package dashboard

import (
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// traceView is a case's stored trace as a waterfall: one row per kept
// span, indented under its parent, its bar placed on the trace's time line
// (an SVG per row, so no script and no inline style is needed).
type traceView struct {
	TraceID     string
	ActionsFrom string
	Received    int
	Dropped     int
	ModelCalls  int
	Tokens      string
	TotalMS     float64
	Notes       []string
	Spans       []spanRow
}

// spanRow is one span of the waterfall.
type spanRow struct {
	Name, Kind, Status, Detail string
	Depth                      int
	Indent                     string
	StartMS, DurationMS        float64
	// X and Width place the bar on a 0..1000 scale.
	X, Width float64
}

// maxTraceRows bounds the rows one page renders (the stored cap is higher).
const maxTraceRows = 300

// newTraceView reads response_metadata's otlp_trace; nil without one.
func newTraceView(t *models.CaseTrace) *traceView {
	if t == nil {
		return nil
	}
	v := &traceView{TraceID: t.TraceID, ActionsFrom: t.ActionsFrom, Received: t.SpansReceived, Dropped: t.SpansDropped,
		ModelCalls: t.ModelCalls, Notes: t.Notes}
	if t.InputTokens != nil || t.OutputTokens != nil {
		v.Tokens = fmt.Sprintf("%s in / %s out", tokenText(t.InputTokens), tokenText(t.OutputTokens))
	}
	for _, s := range t.Spans {
		v.TotalMS = max(v.TotalMS, s.StartMS+s.DurationMS)
	}
	depth := map[string]int{}
	for i, s := range t.Spans {
		if i >= maxTraceRows {
			v.Notes = append(v.Notes, fmt.Sprintf("the first %d of %d stored spans are shown", maxTraceRows, len(t.Spans)))
			break
		}
		d := 0
		if p, ok := depth[s.ParentID]; ok {
			d = p + 1
		}
		depth[s.SpanID] = d
		row := spanRow{Name: s.Name, Kind: s.Kind, Status: s.Status, Depth: min(d, 12), StartMS: s.StartMS, DurationMS: s.DurationMS, Detail: spanDetail(s)}
		row.Indent = strings.Repeat("· ", row.Depth)
		if v.TotalMS > 0 {
			row.X = 1000 * s.StartMS / v.TotalMS
			row.Width = max(2, 1000*s.DurationMS/v.TotalMS)
		} else {
			row.Width = 2
		}
		v.Spans = append(v.Spans, row)
	}
	return v
}

func tokenText(n *int64) string {
	if n == nil {
		return "unknown"
	}
	return fmt.Sprint(*n)
}

// spanDetail is the one line of a span worth reading in the waterfall: a
// tool call's arguments, a model call's usage, an error's message.
func spanDetail(s models.TraceSpan) string {
	a := s.Attributes
	var parts []string
	for _, k := range []string{"gen_ai.tool.name", "ai.toolCall.name", "tool.name"} {
		if a.Value(k) != "" && !strings.Contains(s.Name, a.Value(k)) {
			parts = append(parts, a.Value(k))
		}
	}
	for _, k := range []string{"gen_ai.tool.call.arguments", "ai.toolCall.args", "ai.toolCall.input"} {
		if a.Value(k) != "" {
			parts = append(parts, a.Value(k))
			break
		}
	}
	if in := a.Value("gen_ai.usage.input_tokens"); in != "" {
		parts = append(parts, "tokens "+in+" in / "+a.Value("gen_ai.usage.output_tokens")+" out")
	}
	if s.StatusMessage != "" {
		parts = append(parts, s.StatusMessage)
	}
	short, _ := shortenedTo(strings.Join(parts, " · "), 200)
	return short
}
