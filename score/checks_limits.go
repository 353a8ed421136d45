package score

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"strconv"
	"strings"
	"unicode/utf8"
)

// MinLength ("min_length") passes when the answer text (read as for
// ExactMatch, so trimmed) has at least limit characters (Unicode code
// points, so "é" counts 1 and an emoji may count more than 1).
//
// Params: "limit" (non-negative integer, required).
type MinLength struct {
	// Limit is the minimum number of characters.
	Limit int
}

var _ Scorer = (*MinLength)(nil)

func newMinLength(raw json.RawMessage) (*MinLength, error) {
	n, err := limitParam(raw)
	if err != nil {
		return nil, err
	}
	return &MinLength{Limit: n}, nil
}

// Score compares the answer's length with the minimum.
func (c *MinLength) Score(_ context.Context, s Sample) (Assessment, error) {
	n := utf8.RuneCountInString(answerText(s.Output))
	return bounded(n >= c.Limit, fmt.Sprintf("output has %d characters", n), "at least", c.Limit), nil
}

// MaxLength ("max_length") passes when the answer text (read as for
// ExactMatch, so trimmed) has at most limit characters (code points, as
// for min_length).
//
// Params: "limit" (non-negative integer, required).
type MaxLength struct {
	// Limit is the maximum number of characters.
	Limit int
}

var _ Scorer = (*MaxLength)(nil)

func newMaxLength(raw json.RawMessage) (*MaxLength, error) {
	n, err := limitParam(raw)
	if err != nil {
		return nil, err
	}
	return &MaxLength{Limit: n}, nil
}

// Score compares the answer's length with the maximum.
func (c *MaxLength) Score(_ context.Context, s Sample) (Assessment, error) {
	n := utf8.RuneCountInString(answerText(s.Output))
	return bounded(n <= c.Limit, fmt.Sprintf("output has %d characters", n), "at most", c.Limit), nil
}

// MaxWords ("max_words") passes when the answer text (read as for
// ExactMatch) has at most limit words. Words are runs of non-space characters separated by Unicode white
// space, so text without spaces (e.g. Chinese) counts as one word.
//
// Params: "limit" (non-negative integer, required).
type MaxWords struct {
	// Limit is the maximum number of words.
	Limit int
}

var _ Scorer = (*MaxWords)(nil)

func newMaxWords(raw json.RawMessage) (*MaxWords, error) {
	n, err := limitParam(raw)
	if err != nil {
		return nil, err
	}
	return &MaxWords{Limit: n}, nil
}

// Score counts the answer's words.
func (c *MaxWords) Score(_ context.Context, s Sample) (Assessment, error) {
	n := len(strings.Fields(answerText(s.Output)))
	return bounded(n <= c.Limit, fmt.Sprintf("output has %d words", n), "at most", c.Limit), nil
}

// limitParam reads the only param of the length and word checks: "limit",
// a non-negative integer.
func limitParam(raw json.RawMessage) (int, error) {
	p, err := parseParams(raw, "limit")
	if err != nil {
		return 0, err
	}
	return p.count("limit")
}

// amountLimitParam reads the only param of the latency and cost checks:
// "limit", a finite number >= 0.
func amountLimitParam(raw json.RawMessage) (float64, error) {
	p, err := parseParams(raw, "limit")
	if err != nil {
		return 0, err
	}
	return p.amount("limit")
}

// measurable reports whether a measured duration or cost can be compared
// with a limit: finite and not negative.
func measurable(v float64) bool {
	return v >= 0 && !math.IsNaN(v) && !math.IsInf(v, 0)
}

func bounded(ok bool, observed, bound string, limit int) Assessment {
	if ok {
		return Assessment{Score: 1, Reason: fmt.Sprintf("%s (limit: %s %d)", observed, bound, limit)}
	}
	return Assessment{Score: 0, Reason: fmt.Sprintf("%s; expected %s %d", observed, bound, limit)}
}

// MaxLatencyMS ("max_latency_ms") passes when the case's measured duration
// (Sample.DurationMS: the agent call, in milliseconds) is at most limit.
// A negative or non-finite duration makes the metric an error of kind
// "invalid_latency".
//
// Params: "limit" (finite number >= 0, milliseconds, required).
type MaxLatencyMS struct {
	// Limit is the maximum duration in milliseconds.
	Limit float64
}

var _ Scorer = (*MaxLatencyMS)(nil)

func newMaxLatencyMS(raw json.RawMessage) (*MaxLatencyMS, error) {
	limit, err := amountLimitParam(raw)
	if err != nil {
		return nil, err
	}
	return &MaxLatencyMS{Limit: limit}, nil
}

// Score compares the measured duration with the limit.
func (c *MaxLatencyMS) Score(_ context.Context, s Sample) (Assessment, error) {
	d := s.DurationMS
	if !measurable(d) {
		return Assessment{}, &Error{
			Kind:    "invalid_latency",
			Message: "max_latency_ms: the measured duration is " + formatFloat(d) + " ms",
		}
	}
	if d <= c.Limit {
		return Assessment{Score: 1, Reason: fmt.Sprintf("took %s ms, within the limit of %s ms", formatFloat(d), formatFloat(c.Limit))}, nil
	}
	return Assessment{Score: 0, Reason: fmt.Sprintf("took %s ms, over the limit of %s ms", formatFloat(d), formatFloat(c.Limit))}, nil
}

// MaxCost ("max_cost") passes when the cost the agent reported for the
// case (Sample.Cost, USD, agent usage only) is at most limit. An agent that
// reported no cost cannot pass: the metric is an error of kind
// "unknown_cost"; a negative or non-finite cost is an error of kind
// "invalid_cost".
//
// Params: "limit" (finite number >= 0, USD, required).
type MaxCost struct {
	// Limit is the maximum cost in USD.
	Limit float64
}

var _ Scorer = (*MaxCost)(nil)

func newMaxCost(raw json.RawMessage) (*MaxCost, error) {
	limit, err := amountLimitParam(raw)
	if err != nil {
		return nil, err
	}
	return &MaxCost{Limit: limit}, nil
}

// Score compares the reported cost with the limit.
func (c *MaxCost) Score(_ context.Context, s Sample) (Assessment, error) {
	if s.Cost == nil {
		return Assessment{}, &Error{
			Kind:    "unknown_cost",
			Message: "max_cost: the agent reported no cost for this case",
		}
	}
	cost := *s.Cost
	if !measurable(cost) {
		return Assessment{}, &Error{Kind: "invalid_cost", Message: "max_cost: the reported cost is " + formatFloat(cost)}
	}
	if cost <= c.Limit {
		return Assessment{Score: 1, Reason: fmt.Sprintf("cost $%s, within the limit of $%s", formatFloat(cost), formatFloat(c.Limit))}, nil
	}
	return Assessment{Score: 0, Reason: fmt.Sprintf("cost $%s, over the limit of $%s", formatFloat(cost), formatFloat(c.Limit))}, nil
}

func formatFloat(f float64) string {
	return strconv.FormatFloat(f, 'g', -1, 64)
}
