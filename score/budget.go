package score

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
)

// ToolResultBytesKey is the response-metadata key where an agent reports
// the size of the tool results it handed to its model.
const ToolResultBytesKey = "tool_result_bytes"

// MaxToolResultBytes ("max_tool_result_bytes") passes when every tool
// result the agent put into its model's context was at most limit bytes:
// a byte budget for model-facing tool output, judged independently of
// whether the answer is right. It is not a tokenizer and says nothing about
// the whole prompt.
//
// The agent reports the sizes in its response metadata under key (default
// "tool_result_bytes"): one non-negative integer (the byte count of a
// single tool result) or a list of them (one per tool result, in call
// order). The largest single result is compared with the limit, because one
// oversized result is what floods the context; the total and the count are
// kept in the details and the reason. An empty list means no tool results
// (score 1). A missing key, or a value that is not a non-negative integer
// or a list of them, is a metric error (kinds "missing_tool_result_bytes",
// "invalid_tool_result_bytes"), never a pass.
//
// Params: "limit" (non-negative integer, bytes, required), "key" (string,
// optional).
//
//	"evaluators": {"tool_budget": {"type": "max_tool_result_bytes", "params": {"limit": 4096}}}
type MaxToolResultBytes struct {
	Limit int
	Key   string
}

var _ Scorer = (*MaxToolResultBytes)(nil)

// addToolResultBudget registers max_tool_result_bytes.
func addToolResultBudget(r Registry) {
	r["max_tool_result_bytes"] = define(newMaxToolResultBytes)
}

func newMaxToolResultBytes(raw json.RawMessage) (*MaxToolResultBytes, error) {
	p, err := parseParams(raw, "limit", "key")
	if err != nil {
		return nil, err
	}
	limit, err := p.count("limit")
	if err != nil {
		return nil, err
	}
	key, ok, err := p.text("key", true)
	if err != nil {
		return nil, err
	}
	if !ok {
		key = ToolResultBytesKey
	}
	return &MaxToolResultBytes{Limit: limit, Key: key}, nil
}

// Score compares the largest reported tool result with the limit.
func (c *MaxToolResultBytes) Score(_ context.Context, s Sample) (Assessment, error) {
	v, ok := s.ResponseMetadata[c.Key]
	if !ok || v == nil {
		return Assessment{}, &Error{
			Kind:    "missing_tool_result_bytes",
			Message: fmt.Sprintf("max_tool_result_bytes: the agent reported no %q in its response metadata", c.Key),
		}
	}
	sizes, err := byteCounts(v)
	if err != nil {
		return Assessment{}, &Error{
			Kind:    "invalid_tool_result_bytes",
			Message: fmt.Sprintf("max_tool_result_bytes: %q %v", c.Key, err),
			Details: map[string]any{"value": v},
		}
	}
	var largest, total int64
	for _, n := range sizes {
		largest = max(largest, n)
		total += n
	}
	details := map[string]any{"limit": c.Limit, "largest": largest, "total": total, "count": len(sizes)}
	switch {
	case len(sizes) == 0:
		return Assessment{Score: 1, Reason: fmt.Sprintf("no tool results reported (limit: %d bytes each)", c.Limit), Details: details}, nil
	case largest <= int64(c.Limit):
		return Assessment{Score: 1, Reason: fmt.Sprintf("largest tool result %d bytes of %d in total over %d results, within the %d-byte budget", largest, total, len(sizes), c.Limit), Details: details}, nil
	default:
		return Assessment{Score: 0, Reason: fmt.Sprintf("largest tool result %d bytes exceeds the %d-byte budget (%d bytes in total over %d results)", largest, c.Limit, total, len(sizes)), Details: details}, nil
	}
}

// byteCounts reads one count or a list of counts from decoded metadata.
func byteCounts(v any) ([]int64, error) {
	list, isList := v.([]any)
	if !isList {
		if ints, ok := v.([]int); ok {
			for _, n := range ints {
				list = append(list, n)
			}
			isList = true
		}
	}
	if !isList {
		n, err := byteCount(v)
		if err != nil {
			return nil, fmt.Errorf("is %s", err)
		}
		return []int64{n}, nil
	}
	out := make([]int64, 0, len(list))
	for i, item := range list {
		n, err := byteCount(item)
		if err != nil {
			return nil, fmt.Errorf("item %d is %s", i, err)
		}
		out = append(out, n)
	}
	return out, nil
}

// byteCount accepts the number types JSON decoding and Go agents produce.
func byteCount(v any) (int64, error) {
	var f float64
	switch n := v.(type) {
	case float64:
		f = n
	case int:
		f = float64(n)
	case int64:
		f = float64(n)
	case json.Number:
		var err error
		if f, err = strconv.ParseFloat(string(n), 64); err != nil {
			return 0, fmt.Errorf("%q, want a non-negative integer", n)
		}
	default:
		return 0, fmt.Errorf("%T, want a non-negative integer or a list of them", v)
	}
	if f < 0 || f != math.Trunc(f) || math.IsInf(f, 0) || f > math.MaxInt64/2 {
		return 0, fmt.Errorf("%s, want a non-negative integer", strconv.FormatFloat(f, 'g', -1, 64))
	}
	return int64(f), nil
}
