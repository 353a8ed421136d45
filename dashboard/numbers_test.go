package dashboard

import (
	"net/http"
	"strings"
	"testing"
)

// TestServer_NumbersAndGatesLegend: scores and minimums have three
// decimals like the CLI, counts agree with their nouns, and "(gates)" is
// explained where it appears.
func TestServer_NumbersAndGatesLegend(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	f := seedFixture(t, rw)
	ts := MustServe(t, ro, mount)
	base := ts.URL + mount
	cand, bl := f.Candidate.ID.String(), f.Baseline.ID.String()
	for _, tc := range []struct {
		path, selector string
		want           []string
	}{
		{"/runs/" + cand + "/cases/0", "table.metrics", []string{"0.920", "0.900"}},
		{"/runs/" + cand, "p.gates-legend", []string{"(gates)", "--fail-on-regression"}},
		{"/compare?a=" + bl + "&b=" + cand, "p.gates-legend", []string{"(gates)", "--fail-on-regression"}},
		{"/runs/" + cand, "section dl.facts", []string{"0.307"}},
		{"/", "table.runs", []string{"1 failed, 1 error", "3/3 passed", "−0.687"}},
	} {
		r := mustGet(t, base+tc.path, http.StatusOK)
		got := text(mustSelect(t, r.Doc, tc.selector)[0])
		for _, w := range tc.want {
			if !strings.Contains(got, w) {
				t.Errorf("%s %s: %q lacks %q", tc.path, tc.selector, got, w)
			}
		}
	}
	if r := mustGet(t, base+"/", http.StatusOK); strings.Contains(text(r.Doc), "1 errors") {
		t.Error(`history says "1 errors"`)
	}
}
