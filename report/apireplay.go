package report

import (
	"fmt"
	"sort"
	"strings"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/show"
)

// maxReplayRequests bounds the observed requests a report lists for one
// failing case; the rest are counted.
const maxReplayRequests = 20

// ReplayView is a case's strict API replay evidence (models.APIReplay,
// written by the replay package) as the reports and the dashboard show it: a one-line verdict, and for a failure the observed
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

// replayLabel is a request's method, URL and query (name=v&…, names
// sorted, without percent-encoding: it is for reading, not for requests).
func replayLabel(method, url string, query map[string][]string) string {
	l := strings.TrimSpace(method + " " + url)
	names := make([]string, 0, len(query))
	for n := range query {
		names = append(names, n)
	}
	sort.Strings(names)
	var parts []string
	for _, n := range names {
		for _, v := range query[n] {
			parts = append(parts, n+"="+v)
		}
	}
	if len(parts) > 0 {
		l += "?" + strings.Join(parts, "&")
	}
	return l
}

// interactionNumber is a 0-based declaration index as a 1-based number, 0
// for none.
func interactionNumber(n int) int {
	if n >= 0 {
		return n + 1
	}
	return 0
}

// compactJSON is raw without insignificant whitespace, for people (raw
// itself when it is not JSON; see show.JSON).
func compactJSON(raw []byte) string { return show.JSON(raw, "") }

// NewReplayView reads response_metadata.api_replay; nil when the case has
// none. It never fails: evidence in an unknown shape is shown as JSON.
func NewReplayView(meta models.JSON) *ReplayView {
	m, err := models.DecodeCaseMetadata(meta)
	if err != nil || m.APIReplay == nil {
		return nil
	}
	ev := m.APIReplay
	switch {
	case ev.GemEmpty:
		return &ReplayView{Verdict: "API replay: empty (no interactions declared or observed)"}
	case ev.Unknown:
		return &ReplayView{Verdict: "API replay evidence in an unknown shape", Other: compactJSON(ev.Raw)}
	}
	v := &ReplayView{}
	counts := map[string]int{}
	for i, o := range ev.Observed {
		r := ReplayRequest{Status: "unknown"}
		if o.Foreign != nil {
			r.Label = compactJSON(o.Foreign)
		} else {
			r.Status, r.Label, r.Differences, r.Error = string(o.Status), replayLabel(o.Method, o.URL, o.Query), o.Differences, o.Error
			if o.Interaction != nil {
				r.Interaction = interactionNumber(*o.Interaction)
			}
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
	for _, x := range ev.Missing {
		if x.Foreign != nil {
			v.Missing = append(v.Missing, ReplayMissing{Label: compactJSON(x.Foreign)})
			continue
		}
		v.Missing = append(v.Missing, ReplayMissing{Label: replayLabel(x.Method, x.URL, x.Query), Interaction: interactionNumber(x.Interaction)})
	}
	if ev.Dropped > 0 {
		v.More += ev.Dropped
	}
	problems := replayProblems(counts, len(v.Missing))
	passed := ev.Passed
	if ev.PassedUnknown {
		passed = len(problems) == 0
	}
	summary := fmt.Sprintf("%d declared, %d matched", len(ev.Declared), counts["matched"])
	if n := counts["allowed"]; n > 0 {
		summary += fmt.Sprintf(", %d passed through to allowed hosts", n)
	}
	if ev.Dropped > 0 {
		summary += fmt.Sprintf(", %d more requests not kept", ev.Dropped)
	}
	if passed {
		v.Verdict, v.Requests, v.Missing, v.More = "API replay: "+summary, nil, nil, 0
		return v
	}
	v.Failed = true
	switch {
	case len(problems) > 0:
		v.Verdict = "API replay failed: " + strings.Join(problems, ", ") + " (" + summary + ")"
	case ev.Error != "":
		v.Verdict = "API replay failed: " + ev.Error + " (" + summary + ")"
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
