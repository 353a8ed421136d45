package report

import (
	"bytes"
	"encoding/json"
	"fmt"
	"sort"
	"strings"

	"agentevals/compare"
	"agentevals/models"
)

// maxReplayRequests bounds the observed requests a report lists for one
// failing case; the rest are counted.
const maxReplayRequests = 20

// ReplayView is a case's strict API replay evidence
// (response_metadata.api_replay, written by the replay package) as the
// reports and the dashboard show it: a one-line verdict, and for a failure the observed
// requests with their match status and differences, and the declared
// requests never made. Every string is raw, untrusted evidence: the
// templates escape it. Interaction numbers count from 1 (the evidence
// counts from 0).
type ReplayView struct {
	Failed   bool
	Verdict  string
	Requests []ReplayRequest
	Missing  []ReplayMissing
	// More counts observed requests not listed (beyond the shown maximum,
	// or dropped by the writer).
	More int
	// Other is evidence in a shape this package does not know (for example
	// written by another implementation), as compact JSON.
	Other string
}

// ReplayRequest is one observed request.
type ReplayRequest struct {
	OK          bool   // matched, or passed through to an allowed host
	Status      string // matched, mismatched, unexpected, exhausted, allowed, rejected
	Label       string // method, URL and query
	Interaction int    // the declaration it was compared with, from 1; 0 for none
	Differences []string
	Error       string
}

// ReplayMissing is a declared request the agent never made.
type ReplayMissing struct {
	Label       string
	Interaction int
}

// fields is a JSON object read one key at a time, so that a field of an
// unexpected type is skipped instead of failing the whole object.
type fields map[string]json.RawMessage

func (f fields) str(k string) string {
	var s string
	if json.Unmarshal(f[k], &s) != nil {
		return ""
	}
	return s
}

func (f fields) num(k string) (int, bool) {
	var n float64
	if json.Unmarshal(f[k], &n) != nil {
		return 0, false
	}
	return int(n), true
}

func (f fields) list(k string) []json.RawMessage {
	var l []json.RawMessage
	if json.Unmarshal(f[k], &l) != nil {
		return nil
	}
	return l
}

// texts reads a list of strings; other elements are shown as JSON.
func (f fields) texts(k string) []string {
	var out []string
	for _, raw := range f.list(k) {
		var s string
		if json.Unmarshal(raw, &s) != nil {
			s = compactJSON(raw)
		}
		out = append(out, s)
	}
	return out
}

// query shows a query object ({"name": "v" or ["v", …]}) as name=v&…,
// sorted, without percent-encoding (it is for reading, not for requests).
func (f fields) query(k string) string {
	var q map[string]json.RawMessage
	if json.Unmarshal(f[k], &q) != nil || len(q) == 0 {
		return ""
	}
	names := make([]string, 0, len(q))
	for n := range q {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		vs := fields{"v": q[n]}.texts("v")
		if vs == nil {
			vs = []string{strings.Trim(compactJSON(q[n]), `"`)}
		}
		for _, v := range vs {
			parts = append(parts, n+"="+v)
		}
	}
	return strings.Join(parts, "&")
}

func (f fields) label() string {
	l := strings.TrimSpace(f.str("method") + " " + f.str("url"))
	if q := f.query("query"); q != "" {
		l += "?" + q
	}
	return l
}

// interaction reads a 0-based declaration index as a 1-based number.
func (f fields) interaction() int {
	if n, ok := f.num("interaction"); ok && n >= 0 {
		return n + 1
	}
	return 0
}

// compactJSON is raw without insignificant whitespace, for people (raw
// itself when it is not JSON; see ReadableJSON).
func compactJSON(raw []byte) string { return compare.ReadableJSON(raw, "") }

// isEmptyList reports whether raw is the JSON array [].
func isEmptyList(raw json.RawMessage) bool {
	var list []json.RawMessage
	return raw != nil && raw[0] == '[' && json.Unmarshal(raw, &list) == nil && len(list) == 0
}

// NewReplayView reads response_metadata.api_replay; nil when the case has
// none. It never fails: evidence in an unknown shape is shown as JSON.
func NewReplayView(meta models.JSON) *ReplayView {
	if meta.IsNull() {
		return nil
	}
	var m fields
	if json.Unmarshal(meta, &m) != nil {
		return nil
	}
	raw, ok := m["api_replay"]
	if !ok || string(bytes.TrimSpace(raw)) == "null" {
		return nil
	}
	var ev fields
	if json.Unmarshal(raw, &ev) == nil && len(ev) == 1 && isEmptyList(ev["interactions"]) {
		// The Ruby gem's evidence of a replay that declared and saw nothing.
		return &ReplayView{Verdict: "API replay: empty (no interactions declared or observed)"}
	}
	if json.Unmarshal(raw, &ev) != nil || (ev["declared"] == nil && ev["observed"] == nil && ev["missing"] == nil) {
		return &ReplayView{Verdict: "API replay evidence in an unknown shape", Other: compactJSON(raw)}
	}
	v := &ReplayView{}
	counts := map[string]int{}
	for i, o := range ev.list("observed") {
		var of fields
		r := ReplayRequest{Status: "unknown"}
		if json.Unmarshal(o, &of) != nil {
			r.Label = compactJSON(o)
		} else {
			r.Status, r.Label, r.Interaction = of.str("status"), of.label(), of.interaction()
			r.Differences, r.Error = of.texts("differences"), of.str("error")
			if r.Status == "" {
				r.Status = "unknown"
			}
			if r.Status == "mismatched" && len(r.Differences) > 0 {
				r.Error = "" // restates the status; the differences say more
			}
		}
		r.OK = r.Status == "matched" || r.Status == "allowed"
		counts[r.Status]++
		if i < maxReplayRequests {
			v.Requests = append(v.Requests, r)
		} else {
			v.More++
		}
	}
	for _, x := range ev.list("missing") {
		var xf fields
		if json.Unmarshal(x, &xf) != nil {
			v.Missing = append(v.Missing, ReplayMissing{Label: compactJSON(x)})
			continue
		}
		v.Missing = append(v.Missing, ReplayMissing{Label: xf.label(), Interaction: xf.interaction()})
	}
	dropped, _ := ev.num("dropped")
	if dropped > 0 {
		v.More += dropped
	}
	problems := replayProblems(counts, len(v.Missing))
	var passed bool
	if json.Unmarshal(ev["passed"], &passed) != nil {
		passed = len(problems) == 0
	}
	summary := fmt.Sprintf("%d declared, %d matched", len(ev.list("declared")), counts["matched"])
	if n := counts["allowed"]; n > 0 {
		summary += fmt.Sprintf(", %d passed through to allowed hosts", n)
	}
	if dropped > 0 {
		summary += fmt.Sprintf(", %d more requests not kept", dropped)
	}
	if passed {
		v.Verdict, v.Requests, v.Missing, v.More = "API replay: "+summary, nil, nil, 0
		return v
	}
	v.Failed = true
	switch {
	case len(problems) > 0:
		v.Verdict = "API replay failed: " + strings.Join(problems, ", ") + " (" + summary + ")"
	case ev.str("error") != "":
		v.Verdict = "API replay failed: " + ev.str("error") + " (" + summary + ")"
	default:
		v.Verdict = "API replay failed (" + summary + ")"
	}
	return v
}

// replayProblems counts what went wrong, worded like the replay package's
// failure ("1 mismatched request, 1 declared request never made").
func replayProblems(counts map[string]int, missing int) []string {
	var parts []string
	add := func(n int, one, many string) {
		if n == 1 {
			parts = append(parts, "1 "+one)
		} else if n > 1 {
			parts = append(parts, fmt.Sprintf("%d %s", n, many))
		}
	}
	add(counts["unexpected"], "unexpected request", "unexpected requests")
	add(counts["mismatched"], "mismatched request", "mismatched requests")
	add(counts["exhausted"], "request after the fixtures were used up", "requests after the fixtures were used up")
	add(counts["rejected"], "rejected request", "rejected requests")
	other := 0
	for s, n := range counts {
		switch s {
		case "matched", "allowed", "unexpected", "mismatched", "exhausted", "rejected":
		default:
			other += n
		}
	}
	add(other, "request with an unknown status", "requests with an unknown status")
	add(missing, "declared request never made", "declared requests never made")
	return parts
}
