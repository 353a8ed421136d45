package dashboard

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
)

func TestServer_Search(t *testing.T) {
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			rw, ro := MustOpenDBs(t, backend)
			f := seedFixture(t, rw)
			base := MustServe(t, ro, mount).URL + mount + "/search"

			r := mustGet(t, base, http.StatusOK)
			if got := text(mustSelect(t, r.Doc, "p.search-bound")[0]); !strings.Contains(got, "newest 500 runs") {
				t.Errorf("the page does not state its bound: %q", got)
			}
			for _, tc := range []struct {
				query string
				hits  int
				field string
				match string
			}{
				{"q=ACCEPTED", 2, "answer", "accepted"},               // case-insensitive, in the answer
				{"q=where+is+order", 2, "question", "Where is order"}, // in a structured question
				{"q=30+days&suite=Customer+support", 3, "answer", "30 days"},
				{"q=100%25", 0, "", ""},               // % is literal, not a wildcard
				{"q=%3Cscript%3E", 1, "", "<script>"}, // payloads are found and shown as text
			} {
				r := mustGet(t, base+"?"+tc.query, http.StatusOK)
				hits := selectAll(r.Doc, "table.hits tbody tr")
				if len(hits) != tc.hits {
					t.Errorf("?%s: %d hits, want %d", tc.query, len(hits), tc.hits)
					continue
				}
				if tc.hits == 0 {
					continue
				}
				snip := text(mustSelect(t, hits[0], "td.snippet")[0])
				if tc.field != "" && !strings.HasPrefix(snip, tc.field+":") {
					t.Errorf("?%s: snippet %q, want it to name the %s", tc.query, snip, tc.field)
				}
				if tc.match != "" && text(mustSelect(t, hits[0], "mark")[0]) != tc.match {
					t.Errorf("?%s: marked %q, want %q", tc.query, text(mustSelect(t, hits[0], "mark")[0]), tc.match)
				}
				if len(selectAll(r.Doc, "main script")) != 0 {
					t.Errorf("?%s: a payload became markup", tc.query)
				}
			}
			r = mustGet(t, base+"?q=accepted", http.StatusOK)
			href, _ := attr(mustSelect(t, r.Doc, "a.hit-link")[0], "href")
			if !strings.HasPrefix(href, mount+"/runs/") || !strings.Contains(href, "/cases/0") {
				t.Errorf("hit link = %q", href)
			}
			if strings.Contains(href, f.NoJudge.ID.String()) {
				t.Error("the newest hit is the no-judge run, whose answer does not say accepted")
			}
			short := mustGet(t, base+"?q=x&suite=Customer+support", http.StatusBadRequest)
			// The refusal keeps the form, filled in, with the reason.
			if v, _ := attr(mustSelect(t, short.Doc, "input#s-q")[0], "value"); v != "x" {
				t.Errorf("short search: the form lost the text (value %q)", v)
			}
			if v, _ := attr(mustSelect(t, short.Doc, "input#s-suite")[0], "value"); v != "Customer support" {
				t.Errorf("short search: the form lost the suite (value %q)", v)
			}
			if got := text(mustSelect(t, short.Doc, "p.error-message[role=alert]")[0]); got != "Search for at least 2 characters." {
				t.Errorf("short search message = %q", got)
			}
			mustGet(t, base+"?q="+url.QueryEscape(strings.Repeat("a", 201)), http.StatusBadRequest)
		})
	}
}
