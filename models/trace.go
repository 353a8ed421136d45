package models

import "encoding/json"

// TraceKey is the response_metadata key of CaseMetadata.Trace.
const TraceKey = "otlp_trace"

// CaseTrace is what a case kept of the agent's OpenTelemetry spans when
// the run had tracing on: the spans (bounded), the actions, model calls
// and usage read from them, and notes on what was dropped or refused.
type CaseTrace struct {
	// ActionsFrom says which actions the case was scored on: "agent" (the
	// agent reported actions; those read from spans are kept in
	// SpanActions) or "spans" (the agent reported none).
	ActionsFrom string `json:"actions_from,omitempty"`
	// InputTokens and OutputTokens sum the model calls' usage from spans;
	// nil when no span reported any.
	InputTokens *int64 `json:"input_tokens,omitempty"`
	// ModelCalls counts the spans that were model calls.
	ModelCalls int `json:"model_calls"`
	// Notes say what was dropped, cut or refused (hostile or oversized
	// input), one line each.
	Notes        []string `json:"notes,omitempty"`
	OutputTokens *int64   `json:"output_tokens,omitempty"`
	// ParentSpanID is the span id the case's traceparent named: the
	// agent's root spans are its children, and exported scores too.
	ParentSpanID string `json:"parent_span_id,omitempty"`
	// SpanActions are the tool calls read from spans, in start order.
	SpanActions JSON `json:"span_actions,omitempty"`
	// Spans are the kept spans in start order.
	Spans []TraceSpan `json:"spans"`
	// SpansDropped counts spans received for the trace but not kept.
	SpansDropped int `json:"spans_dropped,omitempty"`
	// SpansReceived counts every span received for the trace.
	SpansReceived int `json:"spans_received"`
	// TraceID is the W3C trace id (32 hex digits) the case was given.
	TraceID string `json:"trace_id"`
}

// TraceSpan is one kept span. Times are milliseconds from the start of the
// case's first span, so a stored trace reads the same in any time zone.
type TraceSpan struct {
	// Attributes are the span's attributes as text, each value cut to the
	// attribute cap; only a bounded number are kept.
	Attributes SpanAttrs `json:"attributes,omitempty"`
	DurationMS float64   `json:"duration_ms"`
	Kind       string    `json:"kind,omitempty"`
	Name       string    `json:"name"`
	ParentID   string    `json:"parent_id,omitempty"`
	SpanID     string    `json:"span_id"`
	StartMS    float64   `json:"start_ms"`
	// Status is "ok", "error" or "unset".
	Status        string `json:"status"`
	StatusMessage string `json:"status_message,omitempty"`
}

// DecodeTrace reads a stored trace record (nil when absent).
func DecodeTrace(raw json.RawMessage) (*CaseTrace, error) {
	if len(raw) == 0 || string(raw) == "null" {
		return nil, nil
	}
	var t CaseTrace
	if err := json.Unmarshal(raw, &t); err != nil {
		return nil, err
	}
	return &t, nil
}
