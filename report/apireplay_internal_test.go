package report

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

// TestNewReplayView_Shapes reads evidence that the replay package did not
// write (another implementation, a hand-edited row): it never panics, skips
// what it cannot read and shows unknown shapes as compact JSON.
func TestNewReplayView_Shapes(t *testing.T) {
	tests := []struct {
		name, meta  string
		nilView     bool
		failed      bool
		verdict     string
		other       string
		requests    int
		missing     int
		firstLabel  string
		firstStatus string
	}{
		{name: "sql null", meta: ``, nilView: true},
		{name: "not an object", meta: `[1,2]`, nilView: true},
		{name: "no evidence", meta: `{"latency_ms": 3}`, nilView: true},
		{name: "json null", meta: `{"api_replay": null}`, nilView: true},
		{name: "list", meta: `{"api_replay": [1, 2]}`, verdict: "API replay evidence in an unknown shape", other: `[1,2]`},
		{name: "string", meta: `{"api_replay": "ok"}`, other: `"ok"`},
		{name: "ruby keys", meta: `{"api_replay": {"interactions": [], "requests": [ {"a": 1} ]}}`,
			other: `{"interactions":[],"requests":[{"a":1}]}`},
		{name: "ruby empty replay", meta: `{"api_replay": {"interactions": []}}`,
			verdict: "API replay: empty (no interactions declared or observed)"},
		{name: "empty passing", meta: `{"api_replay": {"passed": true, "declared": [], "observed": [], "missing": []}}`,
			verdict: "API replay: 0 declared, 0 matched"},
		{name: "wrong types", meta: `{"api_replay": {"passed": "no", "declared": 3, "observed": [7, {"status": 5, "differences": "x", "method": ["GET"], "interaction": "1"}], "missing": [{"method": "GET", "url": "https://a/b", "interaction": 0}, "z"]}}`,
			failed: true, requests: 2, missing: 2, firstLabel: "7", firstStatus: "unknown",
			verdict: "API replay failed: 2 requests with an unknown status, 2 declared requests never made (0 declared, 0 matched)"},
		{name: "failed without counts", meta: `{"api_replay": {"passed": false, "error": "boom", "declared": [{}], "observed": []}}`,
			failed: true, verdict: "API replay failed: boom (1 declared, 0 matched)"},
		{name: "query forms", meta: `{"api_replay": {"passed": false, "observed": [{"status": "unexpected", "method": "GET", "url": "https://x/y", "query": {"b": ["2", "1"], "a": "z", "c": 3}}]}}`,
			failed: true, requests: 1, firstLabel: "GET https://x/y?a=z&b=2&b=1&c=3", firstStatus: "unexpected",
			verdict: "API replay failed: 1 unexpected request (0 declared, 0 matched)"},
		{name: "dropped", meta: `{"api_replay": {"passed": false, "observed": [{"status": "exhausted"}], "dropped": 4}}`,
			failed: true, requests: 1, firstStatus: "exhausted",
			verdict: "API replay failed: 1 request after the fixtures were used up (0 declared, 0 matched, 4 more requests not kept)"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var meta models.JSON
			if tt.meta != "" {
				meta = models.JSON(tt.meta)
			}
			v := NewReplayView(meta)
			if tt.nilView {
				if v != nil {
					t.Fatalf("view = %+v, want none", v)
				}
				return
			}
			if v == nil {
				t.Fatal("no view")
			}
			if got, want := v.Failed, tt.failed; got != want {
				t.Errorf("failed = %v, want %v", got, want)
			}
			if tt.verdict != "" && v.Verdict != tt.verdict {
				t.Errorf("verdict = %q, want %q", v.Verdict, tt.verdict)
			}
			if got, want := v.Other, tt.other; got != want {
				t.Errorf("other = %q, want %q", got, want)
			}
			if got, want := len(v.Requests), tt.requests; got != want {
				t.Fatalf("requests = %d, want %d", got, want)
			}
			if got, want := len(v.Missing), tt.missing; got != want {
				t.Errorf("missing = %d, want %d", got, want)
			}
			if tt.requests > 0 {
				if got, want := v.Requests[0].Label, tt.firstLabel; got != want {
					t.Errorf("first label = %q, want %q", got, want)
				}
				if got, want := v.Requests[0].Status, tt.firstStatus; got != want {
					t.Errorf("first status = %q, want %q", got, want)
				}
			}
		})
	}
}

// TestNewReplayView_ManyRequests lists at most maxReplayRequests requests
// and counts the rest.
func TestNewReplayView_ManyRequests(t *testing.T) {
	obs := strings.TrimSuffix(strings.Repeat(`{"status":"unexpected","method":"GET","url":"https://x/"},`, 25), ",")
	v := NewReplayView(models.JSON(`{"api_replay": {"passed": false, "observed": [` + obs + `], "dropped": 2}}`))
	if got, want := len(v.Requests), maxReplayRequests; got != want {
		t.Errorf("requests = %d, want %d", got, want)
	}
	if got, want := v.More, 25-maxReplayRequests+2; got != want {
		t.Errorf("more = %d, want %d", got, want)
	}
}
