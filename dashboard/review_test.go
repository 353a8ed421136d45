package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
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
			// A status filter hides runs between a run and its previous one.
			r2 := mustGet(t, base+"/?status=failed", http.StatusOK)
			if got := text(mustSelect(t, r2.Doc, "table.runs tbody tr")[0]); !strings.Contains(got, "−0.687") {
				t.Errorf("filtered candidate row %q: want the change against the hidden baseline", got)
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
			for _, want := range []string{"No runs yet", "go run ./cmd/evalrun run examples/support/suite.json", "evalrun db:migrate", "evalrun init evals"} {
				if !strings.Contains(guide, want) {
					t.Errorf("first-run guidance %q lacks %q", guide, want)
				}
			}
		})
	}
}

// TestCasePage_DiffsAndJudgeEvidence: the case page compares the output
// with the expected answer and with the baseline's answer word by word
// (escaped), shows a judge's model and raw reply, and the judge usage as a
// table rather than JSON.
func TestCasePage_DiffsAndJudgeEvidence(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	f := seedFixture(t, rw)
	judged := &models.Run{Suite: "Judged", Agent: "A", Version: "1", SuiteDigest: "dj",
		StartedAt: t0.Add(5 * time.Hour), FinishedAt: t0.Add(5*time.Hour + time.Second)}
	judged.Cases = []*models.CaseResult{{Position: 0, CaseID: "q", Name: "q", Status: models.StatusFailed, DurationMS: 10,
		Question: models.JSON(`"q"`), ExpectedAnswer: models.JSON(`"It ships <b>tomorrow</b>."`), Output: models.JSON(`"It ships <b>today</b>."`),
		ResponseMetadata: models.JSON(`{"judge_usage":{"semantic_accuracy":{"calls":1,"errors":0,"attempts":2,"cached":0,` +
			`"input_tokens":200,"output_tokens":12,"cost":0.0004},"safety":{"calls":1,"errors":1,"attempts":1,"cached":0,"input_tokens":90,"output_tokens":5,"cost":null}},` +
			`"metric_details":{"semantic_accuracy":{"judge":{"provider":"openai","model":"gpt-4.1-mini"},"judge_cache":"miss","prompt":"Grade <this>"}},"trace_id":"t-1"}`),
		Metrics: []*models.MetricResult{metric(0, "semantic_accuracy", 0.9, f64(0.4), false, "Different day."),
			{Position: 1, Name: "safety", Threshold: 0.5, ErrorDetails: models.JSON(`{"kind":"invalid_reply","provider":"openai","model":"gpt-4.1-mini","reply":"I think <script>alert(1)</script> 0.9"}`)}}}}
	if err := rw.InsertRun(context.Background(), judged); err != nil {
		t.Fatal(err)
	}
	base := MustServe(t, ro, mount).URL + mount

	r := mustGet(t, base+"/runs/"+judged.ID.String()+"/cases/0", http.StatusOK)
	diff := mustSelect(t, r.Doc, "p.output-diff")[0]
	if got := text(mustSelect(t, diff, "del")[0]); got != "removed: tomorrow" {
		t.Errorf("deleted words = %q", got)
	}
	if got := text(mustSelect(t, diff, "ins")[0]); got != "added: today" {
		t.Errorf("inserted words = %q", got)
	}
	if len(selectAll(diff, "b")) != 0 || !strings.Contains(text(diff), "<b>") {
		t.Error("the diff turned answer text into markup")
	}
	metrics := text(mustSelect(t, r.Doc, "table.metrics")[0])
	for _, want := range []string{"Judge: openai · gpt-4.1-mini · cache miss", "Grade <this>", "I think <script>alert(1)</script> 0.9"} {
		if !strings.Contains(metrics, want) {
			t.Errorf("metrics table lacks %q: %q", want, metrics)
		}
	}
	if len(selectAll(r.Doc, "table.metrics script")) != 0 {
		t.Error("a judge reply became markup")
	}
	usage := text(mustSelect(t, r.Doc, "table.judge-usage")[0])
	for _, want := range []string{"semantic_accuracy", "200 / 12", "$0.0004", "safety", "unknown"} {
		if !strings.Contains(usage, want) {
			t.Errorf("judge usage table lacks %q: %q", want, usage)
		}
	}
	if rest := text(mustSelect(t, r.Doc, "section[aria-labelledby=rm-h] pre")[0]); strings.Contains(rest, "judge_usage") || !strings.Contains(rest, "t-1") {
		t.Errorf("agent response metadata = %q: want the agent's keys only", rest)
	}

	cand := base + "/runs/" + f.Candidate.ID.String() + "/cases/"
	r = mustGet(t, cand+"0", http.StatusOK)
	if got := text(mustSelect(t, r.Doc, "p.output-diff")[0]); !strings.Contains(got, "removed: You can return it") || !strings.Contains(got, "added: Returns are accepted") {
		t.Errorf("output diff = %q", got)
	}
	if got := text(mustSelect(t, r.Doc, "section[aria-labelledby=b-h]")[0]); !strings.Contains(got, "same as in the baseline") {
		t.Errorf("baseline section = %q", got)
	}
	r = mustGet(t, cand+"2", http.StatusOK) // the agent failed where the baseline answered
	if got := text(mustSelect(t, r.Doc, "p.baseline-diff del")[0]); got != "removed: Hello! How can I help?" {
		t.Errorf("baseline diff = %q", got)
	}
	if href, _ := attr(mustSelect(t, r.Doc, "a.baseline-case")[0], "href"); href != mount+"/runs/"+f.Baseline.ID.String()+"/cases/2" {
		t.Errorf("baseline case link = %q", href)
	}
}

// TestComparePage_PickersTitlesAnswers: runs are picked from lists (no id
// to paste), A and B are named by revision and time, the one verdict comes
// first, and the answers are compared side by side.
func TestComparePage_PickersTitlesAnswers(t *testing.T) {
	rw, ro := MustOpenDBs(t, "postgres")
	f := seedFixture(t, rw)
	base := MustServe(t, ro, mount).URL + mount

	r := mustGet(t, base+"/compare", http.StatusOK)
	if n := len(selectAll(r.Doc, "input#c-a, input#c-b")); n != 0 {
		t.Error("the compare form still asks for typed run ids")
	}
	opts := selectAll(r.Doc, "select#c-a option")
	if len(opts) != 5 { // the placeholder and the four runs
		t.Errorf("run A offers %d options, want 5", len(opts))
	}
	if first := text(opts[1]); !strings.HasPrefix(first, "2026-11-20 12:00:00 UTC · Customer support") {
		t.Errorf("newest run option = %q", first)
	}

	a, b := f.Baseline.ID.String(), f.Candidate.ID.String()
	r = mustGet(t, base+"/compare?a="+a+"&b="+b, http.StatusOK)
	ta, tb := text(mustSelect(t, r.Doc, "h2#a-h")[0]), text(mustSelect(t, r.Doc, "h2#b-h")[0])
	if ta == tb || !strings.Contains(ta, "revision abc123 · 2026-11-20 09:00:00 UTC") || !strings.Contains(tb, "2026-11-20 11:00:00 UTC") {
		t.Errorf("titles A %q and B %q: want distinct, with revision and time", ta, tb)
	}
	if sel, _ := attr(mustSelect(t, r.Doc, "select#c-b option[selected]")[0], "value"); sel != b {
		t.Errorf("picker B selects %q, want %q", sel, b)
	}
	for _, o := range selectAll(r.Doc, "select#c-b option") {
		if v, _ := attr(o, "value"); v == f.XSS.ID.String() {
			t.Error("picker B offers a run of another suite")
		}
	}
	// The verdict is the page's first block and the only one.
	main := mustSelect(t, r.Doc, "main")[0]
	var blocks []string
	for n := main.FirstChild; n != nil; n = n.NextSibling {
		if n.Type == 3 {
			blocks = append(blocks, n.Data)
		}
	}
	if len(blocks) < 2 || blocks[1] != "div" || len(selectAll(r.Doc, "#verdict")) != 1 {
		t.Errorf("blocks %v: want the heading, then the one verdict", blocks)
	}
	rows := mustSelect(t, r.Doc, "table.compare tbody tr")
	greet := text(mustSelect(t, rows[2], "td.answers")[0])
	if !strings.Contains(greet, "removed: Hello! How can I help?") {
		t.Errorf("greeting answers = %q, want A's answer struck (B errored)", greet)
	}
	if same := text(mustSelect(t, rows[0], "td.answers")[0]); !strings.Contains(same, "same answer") {
		t.Errorf("returns answers = %q, want \"same answer\"", same)
	}
}
