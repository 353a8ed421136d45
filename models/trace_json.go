package models

import (
	"encoding/json"
	"fmt"
	"strconv"
)

// appendJSON writes the record as json.Marshal does, without reflection:
// a traced case's record holds every kept span (TestCaseTrace_AsMarshal).
func (t *CaseTrace) appendJSON(b []byte) ([]byte, error) {
	var err error
	b = append(b, '{')
	comma := false
	key := func(name string) {
		if comma {
			b = append(b, ',')
		}
		comma = true
		b = append(append(append(b, '"'), name...), `":`...)
	}
	if t.ActionsFrom != "" {
		key("actions_from")
		b = AppendJSONString(b, t.ActionsFrom)
	}
	if t.InputTokens != nil {
		key("input_tokens")
		b = strconv.AppendInt(b, *t.InputTokens, 10)
	}
	key("model_calls")
	b = strconv.AppendInt(b, int64(t.ModelCalls), 10)
	if len(t.Notes) > 0 {
		key("notes")
		b = append(b, '[')
		for i, n := range t.Notes {
			if i > 0 {
				b = append(b, ',')
			}
			b = AppendJSONString(b, n)
		}
		b = append(b, ']')
	}
	if t.OutputTokens != nil {
		key("output_tokens")
		b = strconv.AppendInt(b, *t.OutputTokens, 10)
	}
	if t.ParentSpanID != "" {
		key("parent_span_id")
		b = AppendJSONString(b, t.ParentSpanID)
	}
	if len(t.SpanActions) > 0 {
		key("span_actions")
		if !ValidJSONBytes(t.SpanActions) {
			_, err = json.Marshal(t.SpanActions) // encoding/json's own error
			return nil, fmt.Errorf("encode trace span_actions: %w", err)
		}
		b = AppendJSONRaw(b, json.RawMessage(t.SpanActions))
	}
	key("spans")
	if t.Spans == nil {
		b = append(b, "null"...)
	} else {
		b = append(b, '[')
		var scratch SpanAttrs // a span's attributes in key order
		for i := range t.Spans {
			if i > 0 {
				b = append(b, ',')
			}
			if b, err = t.Spans[i].appendJSON(b, &scratch); err != nil {
				return nil, fmt.Errorf("encode trace span %d: %w", i, err)
			}
		}
		b = append(b, ']')
	}
	if t.SpansDropped != 0 {
		key("spans_dropped")
		b = strconv.AppendInt(b, int64(t.SpansDropped), 10)
	}
	key("spans_received")
	b = strconv.AppendInt(b, int64(t.SpansReceived), 10)
	key("trace_id")
	b = AppendJSONString(b, t.TraceID)
	return append(b, '}'), nil
}

// appendJSON writes the span as json.Marshal does.
func (s *TraceSpan) appendJSON(b []byte, scratch *SpanAttrs) ([]byte, error) {
	var err error
	b = append(b, '{')
	if len(s.Attributes) > 0 {
		b = append(b, `"attributes":`...)
		b = s.Attributes.appendJSON(b, scratch)
		b = append(b, ',')
	}
	b = append(b, `"duration_ms":`...)
	if b, err = AppendJSONFloat(b, s.DurationMS); err != nil {
		return nil, err
	}
	if s.Kind != "" {
		b = AppendJSONString(append(b, `,"kind":`...), s.Kind)
	}
	b = AppendJSONString(append(b, `,"name":`...), s.Name)
	if s.ParentID != "" {
		b = AppendJSONString(append(b, `,"parent_id":`...), s.ParentID)
	}
	b = AppendJSONString(append(b, `,"span_id":`...), s.SpanID)
	if b, err = AppendJSONFloat(append(b, `,"start_ms":`...), s.StartMS); err != nil {
		return nil, err
	}
	b = AppendJSONString(append(b, `,"status":`...), s.Status)
	if s.StatusMessage != "" {
		b = AppendJSONString(append(b, `,"status_message":`...), s.StatusMessage)
	}
	return append(b, '}'), nil
}

// size is about how many bytes appendJSON writes, to allocate once.
func (t *CaseTrace) size() int {
	n := 256 + len(t.SpanActions)
	for _, note := range t.Notes {
		n += len(note) + 3
	}
	for i := range t.Spans {
		s := &t.Spans[i]
		n += 150 + len(s.Name) + len(s.ParentID) + len(s.SpanID) + len(s.Kind) + len(s.StatusMessage)
		for _, a := range s.Attributes {
			n += len(a.Key) + len(a.Value) + 6
		}
	}
	return n
}
