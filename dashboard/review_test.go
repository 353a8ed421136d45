package dashboard

import (
	"net/http"
	"strings"
	"testing"
)

// TestServer_LeadsWithTheDecision: the history marks the regressed run and
// shows revisions, the run page leads with one verdict (and says why a run
// was not evaluated), and an empty database explains how to make a first run.
func TestServer_LeadsWithTheDecision(t *testing.T) {
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			rw, ro := MustOpenDBs(t, backend)
			f := seedFixture(t, rw)
			ts := MustServe(t, ro, mount)
			base := ts.URL + mount

			r := mustGet(t, base+"/", http.StatusOK)
			rows := mustSelect(t, r.Doc, "table.runs tbody tr")
			byStart := map[string]string{}
			for _, row := range rows {
				byStart[text(mustSelect(t, row, "a.run-link")[0])] = text(row)
			}
			cand := byStart["2026-11-20 11:00:00 UTC"]
			for _, want := range []string{"abc123", "1/3 passed", "1 failed, 1 error", "−0.687", "regressed", "quality fell by 0.687"} {
				if !strings.Contains(cand, want) {
					t.Errorf("candidate row %q lacks %q", cand, want)
				}
			}
			if got := selectAll(r.Doc, "table.runs tbody tr.regressed"); len(got) != 1 {
				t.Errorf("%d rows marked regressed, want 1 (the candidate)", len(got))
			}
			if b := byStart["2026-11-20 09:00:00 UTC"]; !strings.Contains(b, "first run") || strings.Contains(b, "regressed") {
				t.Errorf("baseline row %q: want \"first run\" and no marker", b)
			}
			if nj := byStart["2026-11-20 12:00:00 UTC"]; !strings.Contains(nj, "first run") || !strings.Contains(nj, "not evaluated") || strings.Contains(nj, "not_evaluated") {
				t.Errorf("no-judge row %q: a new definition, not evaluated in words", nj)
			}
			for _, opt := range selectAll(r.Doc, "#f-status option") {
				if strings.Contains(text(opt), "_") {
					t.Errorf("status option %q shows a raw value", text(opt))
				}
			}

			for _, tc := range []struct {
				id, title, detail string
				absent            []string
			}{
				{f.Candidate.ID.String(), "Regressed", "regressions against the baseline", nil},
				{f.NoJudge.ID.String(), "Not evaluated", "judge disabled for this run", []string{"Errored", "Tokens"}},
				{f.Baseline.ID.String(), "No baseline", "only the thresholds were checked", []string{"Errored", "Not evaluated"}},
			} {
				r := mustGet(t, base+"/runs/"+tc.id, http.StatusOK)
				main := mustSelect(t, r.Doc, "main")[0]
				first := main.FirstChild
				for first != nil && (first.Type != 3 || first.Data == "nav" || first.Data == "h1") {
					first = first.NextSibling
				}
				if first == nil || first.Data != "div" {
					t.Fatalf("run %s: the verdict is not the first thing after the heading", tc.id)
				}
				v := text(mustSelect(t, r.Doc, "#verdict")[0])
				if !strings.Contains(v, tc.title) || !strings.Contains(v, tc.detail) {
					t.Errorf("run %s verdict = %q, want %q and %q", tc.id, v, tc.title, tc.detail)
				}
				if rev := text(mustSelect(t, r.Doc, "dl.key-facts dd.revision")[0]); tc.id != f.NoJudge.ID.String() && rev != "abc123" {
					t.Errorf("run %s revision = %q", tc.id, rev)
				}
				summary := text(mustSelect(t, r.Doc, "section[aria-labelledby=summary-h] dl.facts")[0])
				for _, a := range tc.absent {
					if strings.Contains(summary, a) {
						t.Errorf("run %s summary shows an empty %q card: %q", tc.id, a, summary)
					}
				}
			}

			_, emptyRO := MustOpenDBs(t, backend)
			r = mustGet(t, MustServe(t, emptyRO, mount).URL+mount+"/", http.StatusOK)
			guide := text(mustSelect(t, r.Doc, "section.first-run")[0])
			for _, want := range []string{"No runs yet", "go run ./cmd/evalrun run examples/support/suite.json", "evalrun db:migrate"} {
				if !strings.Contains(guide, want) {
					t.Errorf("first-run guidance %q lacks %q", guide, want)
				}
			}
		})
	}
}
