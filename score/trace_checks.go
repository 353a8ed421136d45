package score

import (
	"context"
	"encoding/json"
	"fmt"
	"math"
	"regexp"
	"sort"
	"strings"
)

// Trace is what the trace checks see of the agent's spans for one case.
type Trace struct {
	Spans []Span
	// Dropped counts spans received for the case but not kept (caps).
	Dropped int
}

// Span is one span of the agent's trace.
type Span struct {
	Name       string
	DurationMS float64
	Error      bool // the span's status is error
}

// The trace checks read the agent's spans (Sample.Trace, present when the
// run has tracing on). A run without tracing makes them an error of kind
// "not_traced", never a pass. Span names are matched by "pattern", a glob
// where * is any run of characters and ? one character (default "*").
//
//	span_count     SpanCount     between min and max spans match
//	span_duration  SpanDuration  the matching spans' duration percentile is at most max_ms
//	error_spans    ErrorSpans    at most max_count (or max_share) matching spans failed
func addTraceChecks(r Registry) {
	r["span_count"] = define(newSpanCount)
	r["span_duration"] = define(newSpanDuration)
	r["error_spans"] = define(newErrorSpans)
}

// globPattern compiles a span-name glob.
func globPattern(p params) (*regexp.Regexp, string, error) {
	glob, ok, err := p.text("pattern", true)
	if err != nil {
		return nil, "", err
	}
	if !ok {
		glob = "*"
	}
	var b strings.Builder
	b.WriteString("^")
	for _, r := range glob {
		switch r {
		case '*':
			b.WriteString(".*")
		case '?':
			b.WriteString(".")
		default:
			b.WriteString(regexp.QuoteMeta(string(r)))
		}
	}
	b.WriteString("$")
	re, err := regexp.Compile(b.String())
	if err != nil {
		return nil, "", fmt.Errorf("%w: param \"pattern\": %v", ErrInvalidParams, err)
	}
	return re, glob, nil
}

// matchingSpans returns the spans whose name matches, or the not_traced
// error naming the check.
func matchingSpans(check string, s Sample, re *regexp.Regexp) ([]Span, error) {
	if s.Trace == nil {
		return nil, &Error{Kind: "not_traced", Message: check + ": the run has no trace for this case: run with --traces (or the suite key traces: true)"}
	}
	var out []Span
	for _, sp := range s.Trace.Spans {
		if re.MatchString(sp.Name) {
			out = append(out, sp)
		}
	}
	return out, nil
}

// SpanCount ("span_count") passes when the number of spans whose name
// matches "pattern" is at least "min" (default 1) and at most "max"
// (default: no limit). 1 or 0.
type SpanCount struct {
	re       *regexp.Regexp
	glob     string
	min, max int
	hasMax   bool
}

func newSpanCount(raw json.RawMessage) (*SpanCount, error) {
	p, err := parseParams(raw, "pattern", "min", "max")
	if err != nil {
		return nil, err
	}
	c := &SpanCount{}
	if c.re, c.glob, err = globPattern(p); err != nil {
		return nil, err
	}
	if c.min, c.max, c.hasMax, err = p.countRange(); err != nil {
		return nil, err
	}
	return c, nil
}

// Score counts the matching spans.
func (c *SpanCount) Score(_ context.Context, s Sample) (Assessment, error) {
	spans, err := matchingSpans("span_count", s, c.re)
	if err != nil {
		return Assessment{}, err
	}
	n := len(spans)
	want := fmt.Sprintf("at least %d", c.min)
	if c.hasMax {
		want = fmt.Sprintf("%d to %d", c.min, c.max)
	}
	a := Assessment{Score: 1, Details: map[string]any{"matching": n, "spans": len(s.Trace.Spans)}}
	if n < c.min || (c.hasMax && n > c.max) {
		a.Score = 0
	}
	a.Reason = fmt.Sprintf("%d spans match %s (want %s)", n, quote(c.glob), want)
	return a, nil
}

// SpanDuration ("span_duration") passes when the "percentile" (default
// 100, the slowest) of the durations of the spans matching "pattern" is
// at most "max_ms". No matching span is an error of kind "missing_input":
// there is no duration to judge. 1 or 0.
type SpanDuration struct {
	re         *regexp.Regexp
	glob       string
	maxMS      float64
	percentile float64
}

func newSpanDuration(raw json.RawMessage) (*SpanDuration, error) {
	p, err := parseParams(raw, "pattern", "max_ms", "percentile")
	if err != nil {
		return nil, err
	}
	d := &SpanDuration{percentile: 100}
	if d.re, d.glob, err = globPattern(p); err != nil {
		return nil, err
	}
	if d.maxMS, err = p.amount("max_ms"); err != nil {
		return nil, err
	}
	if p.has("percentile") {
		if d.percentile, err = p.amount("percentile"); err != nil || d.percentile == 0 || d.percentile > 100 {
			return nil, paramError("percentile", "a number in (0, 100]", p["percentile"])
		}
	}
	return d, nil
}

// percentileOf is the nearest-rank percentile of sorted values.
func percentileOf(sorted []float64, pct float64) float64 {
	rank := int(math.Ceil(pct / 100 * float64(len(sorted))))
	return sorted[max(rank, 1)-1]
}

// Score compares the percentile with the limit.
func (d *SpanDuration) Score(_ context.Context, s Sample) (Assessment, error) {
	spans, err := matchingSpans("span_duration", s, d.re)
	if err != nil {
		return Assessment{}, err
	}
	if len(spans) == 0 {
		return Assessment{}, &Error{Kind: KindMissingInput, Message: fmt.Sprintf("span_duration: no span matches %s", quote(d.glob))}
	}
	ms := make([]float64, len(spans))
	for i, sp := range spans {
		ms[i] = sp.DurationMS
	}
	sort.Float64s(ms)
	got := percentileOf(ms, d.percentile)
	a := Assessment{Score: 1, Details: map[string]any{"matching": len(spans), "percentile": d.percentile, "duration_ms": got}}
	verdict := "within"
	if got > d.maxMS {
		a.Score, verdict = 0, "over"
	}
	a.Reason = fmt.Sprintf("p%g of %d spans matching %s is %.1f ms, %s the limit of %g ms", d.percentile, len(spans), quote(d.glob), got, verdict, d.maxMS)
	return a, nil
}

// ErrorSpans ("error_spans") passes when at most "max_count" (default 0)
// of the spans matching "pattern" have an error status, or, with
// "max_share" (0 to 1), at most that share of them. 1 or 0.
type ErrorSpans struct {
	re       *regexp.Regexp
	glob     string
	maxCount int
	maxShare float64
	byShare  bool
}

func newErrorSpans(raw json.RawMessage) (*ErrorSpans, error) {
	p, err := parseParams(raw, "pattern", "max_count", "max_share")
	if err != nil {
		return nil, err
	}
	e := &ErrorSpans{}
	if e.re, e.glob, err = globPattern(p); err != nil {
		return nil, err
	}
	if p.has("max_count") && p.has("max_share") {
		return nil, fmt.Errorf("%w: give \"max_count\" or \"max_share\", not both", ErrInvalidParams)
	}
	if n, ok, err := p.optionalCount("max_count"); err != nil {
		return nil, err
	} else if ok {
		e.maxCount = n
	}
	if p.has("max_share") {
		e.byShare = true
		if e.maxShare, err = p.amount("max_share"); err != nil || e.maxShare > 1 {
			return nil, paramError("max_share", "a number from 0 to 1", p["max_share"])
		}
	}
	return e, nil
}

// Score counts error spans.
func (e *ErrorSpans) Score(_ context.Context, s Sample) (Assessment, error) {
	spans, err := matchingSpans("error_spans", s, e.re)
	if err != nil {
		return Assessment{}, err
	}
	bad := 0
	for _, sp := range spans {
		if sp.Error {
			bad++
		}
	}
	a := Assessment{Score: 1, Details: map[string]any{"matching": len(spans), "errors": bad}}
	if e.byShare {
		share := 0.0
		if len(spans) > 0 {
			share = float64(bad) / float64(len(spans))
		}
		if share > e.maxShare {
			a.Score = 0
		}
		a.Reason = fmt.Sprintf("%d of %d spans matching %s failed (share %.3g, at most %g allowed)", bad, len(spans), quote(e.glob), share, e.maxShare)
		return a, nil
	}
	if bad > e.maxCount {
		a.Score = 0
	}
	a.Reason = fmt.Sprintf("%d of %d spans matching %s failed (at most %d allowed)", bad, len(spans), quote(e.glob), e.maxCount)
	return a, nil
}
