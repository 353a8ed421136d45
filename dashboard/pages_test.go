package dashboard

import (
	"encoding/json"
	"net/http"
	"strings"
	"testing"

	"golang.org/x/net/html"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/report"
)

const mount = "/evaluations"

func TestServer_Pages(t *testing.T) {
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			rw, ro := MustOpenDBs(t, backend)
			f := seedFixture(t, rw)
			ts := MustServe(t, ro, mount)
			base := ts.URL + mount

			t.Run("history", func(t *testing.T) {
				r := mustGet(t, base+"/", http.StatusOK)
				rows := mustSelect(t, r.Doc, "table.runs tbody tr")
				if got, want := len(rows), 4; got != want {
					t.Fatalf("rows = %d, want %d", got, want)
				}
				// Newest first: the no-judge run, then the candidate.
				first := text(rows[0])
				if !strings.Contains(first, "2026-11-20 12:00:00 UTC") || !strings.Contains(first, "not evaluated") {
					t.Errorf("first row = %q, want the no-judge run marked not evaluated", first)
				}
				for _, a := range selectAll(r.Doc, "a") {
					if href, _ := attr(a, "href"); !strings.HasPrefix(href, mount+"/") && !strings.HasPrefix(href, "#") {
						t.Errorf("link %q leaves the mount path", href)
					}
				}
				for _, sel := range []string{"link[rel=stylesheet]", "form.filters"} {
					n := mustSelect(t, r.Doc, sel)[0]
					v, _ := attr(n, "href")
					if sel == "form.filters" {
						v, _ = attr(n, "action")
					}
					if !strings.HasPrefix(v, mount+"/") {
						t.Errorf("%s points at %q, outside %s", sel, v, mount)
					}
				}
				// The Ruby-style baseline (empty summary) is recomputed from rows.
				if got := text(rows[3]); !strings.Contains(got, "0.99") || !strings.Contains(got, "100%") {
					t.Errorf("baseline row = %q, want quality 0.99 (mean of 0.98, 1, 1) and pass rate 100%%", got)
				}
			})

			t.Run("chart draws null quality as a gap", func(t *testing.T) {
				r := mustGet(t, base+"/?suite=Customer+support", http.StatusOK)
				charts := mustSelect(t, r.Doc, "figure.chart")
				if len(charts) != 1 {
					t.Fatalf("charts = %d, want 1", len(charts))
				}
				svg := mustSelect(t, charts[0], "svg[role=img]")[0]
				if l, _ := attr(svg, "aria-labelledby"); l == "" {
					t.Error("chart has no accessible label")
				}
				if got, want := len(selectAll(charts[0], "g.quality circle")), 2; got != want {
					t.Errorf("quality points = %d, want %d (the no-judge run must not be a point)", got, want)
				}
				if got, want := len(selectAll(charts[0], "g.quality line.gap")), 1; got != want {
					t.Errorf("quality gaps = %d, want %d", got, want)
				}
				for _, c := range selectAll(charts[0], "circle") {
					if cy, _ := attr(c, "cy"); cy == "156" {
						t.Error("a point sits on the zero line")
					}
				}
			})

			t.Run("filters and keyset pages", func(t *testing.T) {
				r := mustGet(t, base+"/?limit=2", http.StatusOK)
				if got := len(selectAll(r.Doc, "table.runs tbody tr")); got != 2 {
					t.Fatalf("page 1 rows = %d, want 2", got)
				}
				next, _ := attr(mustSelect(t, r.Doc, "a[rel=next]")[0], "href")
				if !strings.HasPrefix(next, mount+"/?") || !strings.Contains(next, "cursor=") {
					t.Fatalf("next link = %q", next)
				}
				r2 := mustGet(t, ts.URL+next, http.StatusOK)
				rows := selectAll(r2.Doc, "table.runs tbody tr")
				if len(rows) != 2 || len(selectAll(r2.Doc, "a[rel=next]")) != 0 {
					t.Fatalf("page 2 rows = %d, want 2 and no next link", len(rows))
				}
				if !strings.Contains(text(rows[1]), "2026-11-20 09:00:00") {
					t.Errorf("last row = %q, want the oldest run", text(rows[1]))
				}
				for _, tc := range []struct {
					query string
					want  int
				}{
					{"status=error", 1},
					{"status=passed", 1},
					{"status=not_evaluated", 1},
					{"status=failed", 2},
					{"suite=Customer+support&from=2026-11-20&to=2026-11-20", 3},
					{"from=2026-11-21", 0},
					{"agent=SupportAgent&status=failed&limit=1", 1},
				} {
					r := mustGet(t, base+"/?"+tc.query, http.StatusOK)
					if got := len(selectAll(r.Doc, "table.runs tbody tr")); got != tc.want {
						t.Errorf("?%s: rows = %d, want %d", tc.query, got, tc.want)
					}
				}
			})

			t.Run("run", func(t *testing.T) {
				id := f.Candidate.ID.String()
				r := mustGet(t, base+"/runs/"+id, http.StatusOK)
				// On a narrow screen the heading may wrap before the "·", never after it.
				if got := text(mustSelect(t, r.Doc, "h1 span.counts")[0]); got != "·\u00a0SupportAgent ·\u00a0version\u00a01" {
					t.Errorf("heading detail = %q, want no break after a separator", got)
				}
				if href, _ := attr(mustSelect(t, r.Doc, "a.baseline-link")[0], "href"); href != mount+"/runs/"+f.Baseline.ID.String() {
					t.Errorf("baseline link = %q", href)
				}
				regs := text(mustSelect(t, r.Doc, "ul.findings")[0])
				for _, want := range []string{"score drop", "new failure", "new agent error"} {
					if !strings.Contains(regs, want) {
						t.Errorf("regressions %q lack %s", regs, want)
					}
				}
				cases := mustSelect(t, r.Doc, "table.cases tbody tr")
				if len(cases) != 3 {
					t.Fatalf("cases = %d", len(cases))
				}
				for _, row := range cases {
					if !strings.Contains(text(row), "regressed") {
						t.Errorf("case %q: every case regressed, want it marked", text(row))
					}
				}
				dims := text(mustSelect(t, r.Doc, "table.stack tbody")[0])
				if !strings.Contains(dims, "semantic_accuracy") || !strings.Contains(dims, "0.92") {
					t.Errorf("dimension scores = %q", dims)
				}
				slices := text(mustSelect(t, r.Doc, "table.slices")[0])
				if !strings.Contains(slices, "failure_mode: policy") || !strings.Contains(slices, "failure_mode: tools") {
					t.Errorf("slices = %q", slices)
				}
				if href, _ := attr(mustSelect(t, r.Doc, "a.download")[0], "href"); href != mount+"/runs/"+id+"/report.json" {
					t.Errorf("download link = %q", href)
				}
			})

			t.Run("json download is the report document", func(t *testing.T) {
				r := mustGet(t, base+"/runs/"+f.Candidate.ID.String()+"/report.json", http.StatusOK)
				if cd := r.Header.Get("Content-Disposition"); !strings.HasPrefix(cd, "attachment") {
					t.Errorf("Content-Disposition = %q", cd)
				}
				run, err := rw.GetRun(t.Context(), f.Candidate.ID)
				if err != nil {
					t.Fatal(err)
				}
				base, err := rw.GetRun(t.Context(), f.Baseline.ID)
				if err != nil {
					t.Fatal(err)
				}
				rend, err := report.NewRenderer()
				if err != nil {
					t.Fatal(err)
				}
				want, err := rend.Bytes(report.FormatJSON, compare.Compare(run, base, compare.Options{}))
				if err != nil {
					t.Fatal(err)
				}
				if r.Body != string(want) {
					t.Errorf("download differs from reports' JSON:\n%s\nwant\n%s", r.Body, want)
				}
				var doc map[string]any
				if err := json.Unmarshal([]byte(r.Body), &doc); err != nil || doc["comparison"] == nil || doc["cases"] == nil {
					t.Errorf("document lacks snapshot or comparison: %v", err)
				}
			})

			t.Run("case", func(t *testing.T) {
				r := mustGet(t, base+"/runs/"+f.Candidate.ID.String()+"/cases/1", http.StatusOK)
				if got := text(mustSelect(t, r.Doc, "pre.question")[0]); !strings.Contains(got, "Where is order 42?") {
					t.Errorf("question = %q", got)
				}
				acts := mustSelect(t, r.Doc, "table.actions tbody tr")
				if len(acts) != 1 || !strings.Contains(text(acts[0]), `{"id":42}`) || !strings.Contains(text(acts[0]), `{"id":41}`) ||
					!strings.Contains(text(acts[0]), "differs") {
					t.Errorf("actions = %q", text(acts[0]))
				}
				if got := text(mustSelect(t, r.Doc, "pre.replay")[0]); !strings.Contains(got, "api.example.test/orders/42") {
					t.Errorf("replay evidence = %q", got)
				}
				if got := strings.Join(strings.Fields(text(mustSelect(t, r.Doc, "p.replay-verdict")[0])), " "); got != "passed API replay: 1 declared, 1 matched" {
					t.Errorf("replay verdict = %q", got)
				}
				if got := text(mustSelect(t, r.Doc, "table.metrics")[0]); !strings.Contains(got, "lookup_order arguments differ") {
					t.Errorf("metrics = %q", got)
				}
				r = mustGet(t, base+"/runs/"+f.Candidate.ID.String()+"/cases/2", http.StatusOK)
				if got := text(mustSelect(t, r.Doc, "pre.agent-error")[0]); !strings.Contains(got, "agent timed out") {
					t.Errorf("agent error = %q", got)
				}
				r = mustGet(t, base+"/runs/"+f.NoJudge.ID.String()+"/cases/0", http.StatusOK)
				if got := text(mustSelect(t, r.Doc, "table.metrics tbody tr")[0]); !strings.Contains(got, "not calculated") || !strings.Contains(got, "—") {
					t.Errorf("not calculated metric = %q", got)
				}
			})

			t.Run("case usage", func(t *testing.T) {
				// Agent usage as stored; a case without usage shows dashes, never 0.
				for _, tc := range []struct{ path, tokens, cost string }{
					{"/runs/" + f.Candidate.ID.String() + "/cases/0", "120 / 30", "$0.0012"},
					{"/runs/" + f.NoJudge.ID.String() + "/cases/0", "— / —", "—"},
				} {
					r := mustGet(t, base+tc.path, http.StatusOK)
					facts := map[string]string{}
					for _, d := range selectAll(r.Doc, "dl.facts div") {
						facts[strings.TrimSpace(text(mustSelect(t, d, "dt")[0]))] = strings.TrimSpace(text(mustSelect(t, d, "dd")[0]))
					}
					if got := facts["Tokens in / out"]; got != tc.tokens {
						t.Errorf("%s: tokens = %q, want %q", tc.path, got, tc.tokens)
					}
					if got := facts["Agent cost"]; got != tc.cost {
						t.Errorf("%s: agent cost = %q, want %q", tc.path, got, tc.cost)
					}
				}
			})

			t.Run("compare", func(t *testing.T) {
				mustGet(t, base+"/compare", http.StatusOK)
				r := mustGet(t, base+"/compare?a="+f.Baseline.ID.String()+"&b="+f.Candidate.ID.String(), http.StatusOK)
				if got := len(mustSelect(t, r.Doc, "table.compare tbody tr")); got != 3 {
					t.Errorf("compared cases = %d, want 3", got)
				}
				if got := text(mustSelect(t, r.Doc, "ul.findings")[0]); !strings.Contains(got, "new agent error") {
					t.Errorf("findings = %q", got)
				}
				if got := text(mustSelect(t, r.Doc, "#verdict")[0]); !strings.Contains(got, "B − A -0.") {
					t.Errorf("verdict = %q, want a negative quality difference", got)
				}
				if got := text(mustSelect(t, r.Doc, "#verdict")[0]); strings.Contains(got, "no significant difference") ||
					!strings.Contains(got, "1 question newly fails, 1 question newly ends in an error") {
					t.Errorf("verdict = %q, want it to name the new failure and the new error", got)
				}
				// Runs of different suites are refused like `evalrun compare` does:
				// in user words, without findings or internal error text.
				r = mustGet(t, base+"/compare?a="+f.Baseline.ID.String()+"&b="+f.XSS.ID.String(), http.StatusUnprocessableEntity)
				if len(selectAll(r.Doc, "p.error-message")) != 1 || len(selectAll(r.Doc, "p.verdict")) != 0 {
					t.Error("incompatible runs are not flagged, or get a verdict")
				}
				body := text(r.Doc)
				for _, want := range []string{"cannot be compared", "different definitions", `Run A evaluates the suite "Customer support" and run B the suite "Billing`} {
					if !strings.Contains(body, want) {
						t.Errorf("incompatible compare page lacks %q:\n%s", want, body)
					}
				}
				for _, bad := range []string{"No regressions", "incompatible baseline", "Regressions ("} {
					if strings.Contains(body, bad) {
						t.Errorf("incompatible compare page shows %q", bad)
					}
				}
			})

			t.Run("navigation marks the current page", func(t *testing.T) {
				// aria-current="page" only where the link leads; inside
				// the history (a run, a case) the entry is "true".
				for _, tc := range []struct{ path, want string }{
					{"/", "page"}, {"/?suite=Customer+support", "page"}, {"/compare", "page"}, {"/search", "page"},
					{"/runs/" + f.Candidate.ID.String(), "true"}, {"/runs/" + f.Candidate.ID.String() + "/cases/0", "true"},
				} {
					r := mustGet(t, base+tc.path, http.StatusOK)
					cur := selectAll(r.Doc, "a[aria-current]")
					if len(cur) != 1 {
						t.Fatalf("%s: %d navigation entries marked current, want 1", tc.path, len(cur))
					}
					if got, _ := attr(cur[0], "aria-current"); got != tc.want {
						t.Errorf("%s: aria-current=%q, want %q", tc.path, got, tc.want)
					}
				}
			})

			t.Run("untrusted text is escaped", func(t *testing.T) {
				for _, p := range []string{"/", "/runs/" + f.XSS.ID.String(), "/runs/" + f.XSS.ID.String() + "/cases/0",
					"/compare?a=" + f.XSS.ID.String() + "&b=" + f.XSS.ID.String()} {
					r := mustGet(t, base+p, http.StatusOK)
					if n := len(selectAll(r.Doc, "script")) + len(selectAll(r.Doc, "img")) + len(selectAll(r.Doc, "iframe")) +
						len(selectAll(r.Doc, "b")); n != 0 {
						t.Errorf("%s: %d injected elements", p, n)
					}
					walk(r.Doc, func(n *html.Node) {
						for _, a := range n.Attr {
							if strings.HasPrefix(a.Key, "on") {
								t.Errorf("%s: event handler attribute %s=%q", p, a.Key, a.Val)
							}
						}
					})
					if !strings.Contains(text(r.Doc), "<script>") {
						t.Errorf("%s: payload text not shown literally", p)
					}
				}
			})
		})
	}
}
