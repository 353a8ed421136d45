package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

// experimentFixture inserts an experiment of the given variants over n
// questions: variant i answers question q right unless (q+i) % 3 == 0, so
// every variant is best somewhere. It returns the experiment record.
func experimentFixture(tb testing.TB, db *models.DB, variants []string, n int) report.ExperimentInfo {
	tb.Helper()
	info := report.ExperimentInfo{ID: uuid.NewString(), Name: "Prompt <i>study</i>", Variants: variants,
		StartedAt: t0.Add(24 * time.Hour).Format(time.RFC3339Nano)}
	for i, v := range variants {
		vi := info
		vi.Variant = v
		at := t0.Add(24*time.Hour + time.Duration(i)*time.Minute)
		r := &models.Run{Suite: "Grid suite", Agent: "Bot [" + v + "]", Version: "1", SuiteDigest: "grid-digest",
			StartedAt: at, FinishedAt: at.Add(time.Second), Metadata: models.MustJSON(map[string]any{"experiment": vi}),
			Summary: models.JSON(`{"writer":"agentevals-go"}`)}
		for q := 0; q < n; q++ {
			right := (q+i)%3 != 0
			score, status, answer := 1.0, models.StatusPassed, fmt.Sprintf("Answer %d by %s", q, v)
			if !right {
				score, status, answer = 0, models.StatusFailed, fmt.Sprintf("Wrong answer %d by %s <script>alert(1)</script>", q, v)
			}
			r.Cases = append(r.Cases, &models.CaseResult{Position: q, CaseID: fmt.Sprintf("q%03d", q), Name: fmt.Sprintf("Question %d", q),
				Status: status, DurationMS: 10, Question: models.MustJSON(fmt.Sprintf("What is %d?", q)),
				ExpectedAnswer: models.MustJSON(fmt.Sprintf("Answer %d", q)), MinimumScores: models.JSON(`{"exact":1}`),
				Metadata: models.JSON(`{}`), Output: models.MustJSON(answer),
				Metrics: []*models.MetricResult{metric(0, "exact", 1, f64(score), right, "compared")}})
		}
		if err := db.InsertRun(context.Background(), r); err != nil {
			tb.Fatalf("seed experiment: %v", err)
		}
	}
	return info
}

func TestServer_ExperimentPage(t *testing.T) {
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			rw, ro := MustOpenDBs(t, backend)
			seedFixture(t, rw)
			info := experimentFixture(t, rw, []string{"short", "long", "cot"}, 6)
			ts := MustServe(t, ro, mount)
			link := ts.URL + mount + "/experiments/" + info.ID + "?from=" + url.QueryEscape(info.StartedAt)

			r := mustGet(t, link, http.StatusOK)
			if got := len(mustSelect(t, r.Doc, "table#grid tbody tr")); got != 6 {
				t.Errorf("grid rows = %d, want 6", got)
			}
			if got := len(mustSelect(t, r.Doc, "table#grid thead th")); got != 4 {
				t.Errorf("grid columns = %d, want question + 3 variants", got)
			}
			// q000: short is wrong, long and cot are right: two best cells.
			first := mustSelect(t, r.Doc, "table#grid tbody tr")[0]
			var best []string
			for _, td := range selectAll(first, "td.best") {
				l, _ := attr(td, "data-label")
				best = append(best, l)
			}
			if strings.Join(best, ",") != "long,cot" {
				t.Errorf("best of q000 = %v, want long,cot", best)
			}
			// The other variants' answers are diffed against the first's.
			cells := selectAll(first, "td")
			if len(selectAll(cells[0], "ins")) != 0 || len(selectAll(cells[1], "ins")) == 0 || len(selectAll(cells[1], "del")) == 0 {
				t.Errorf("q000: want word diffs against the first variant's answer in the other columns only")
			}
			if v := text(mustSelect(t, r.Doc, "#pair-verdict")[0]); !strings.Contains(v, "B ") {
				t.Errorf("pair verdict = %q", v)
			}
			if h := text(mustSelect(t, r.Doc, "#pair-h")[0]); h != "long against short" {
				t.Errorf("pair heading = %q, want the first two variants", h)
			}
			if strings.Contains(r.Body, "<script>alert(1)") || !strings.Contains(r.Body, "&lt;script&gt;alert(1)") {
				t.Error("an answer's markup was not escaped")
			}
			if len(selectAll(r.Doc, "table#grid td a")) != 18 {
				t.Errorf("case links = %d, want one per answer", len(selectAll(r.Doc, "table#grid td a")))
			}

			// An experiment of short and long answers q001 right in both:
			// a tie, so no answer is best.
			tieInfo := experimentFixture(t, rw, []string{"short", "long"}, 3)
			tr := mustGet(t, ts.URL+mount+"/experiments/"+tieInfo.ID+"?from="+url.QueryEscape(tieInfo.StartedAt), http.StatusOK)
			row := mustSelect(t, tr.Doc, "table#grid tbody tr")[1]
			if len(selectAll(row, "td.best")) != 0 || len(selectAll(row, "strong.tie")) != 2 {
				t.Errorf("q001, answered right by both variants: want no best answer and both marked tie")
			}

			r = mustGet(t, link+"&a=cot&b=short", http.StatusOK)
			if h := text(mustSelect(t, r.Doc, "#pair-h")[0]); h != "short against cot" {
				t.Errorf("chosen pair heading = %q", h)
			}
			// Without the start hint the page still finds the runs.
			mustGet(t, ts.URL+mount+"/experiments/"+info.ID, http.StatusOK)
			mustGet(t, link+"&a=cot&b=nope", http.StatusBadRequest)
			mustGet(t, ts.URL+mount+"/experiments/"+uuid.NewString(), http.StatusNotFound)
			mustGet(t, ts.URL+mount+"/experiments/not-a-uuid", http.StatusNotFound)
			mustGet(t, ts.URL+mount+"/experiments/"+info.ID+"?from=yesterday", http.StatusBadRequest)

			// A variant's run page links to the grid.
			runs, err := ro.ExperimentRuns(context.Background(), info.ID, time.Time{})
			if err != nil || len(runs) != 3 {
				t.Fatalf("experiment runs = %d, %v", len(runs), err)
			}
			r = mustGet(t, ts.URL+mount+"/runs/"+runs[1].ID.String(), http.StatusOK)
			a := mustSelect(t, r.Doc, "p.experiment-link a")
			if href, _ := attr(a[0], "href"); href != mount+"/experiments/"+info.ID+"?from="+url.QueryEscape(info.StartedAt) {
				t.Errorf("experiment link = %q", href)
			}
		})
	}
}

// BenchmarkExperimentPage measures the grid page's server time for an
// experiment of 2 variants × 200 questions on PostgreSQL, against the run
// page of one of its runs (200 questions) in the same loop.
func BenchmarkExperimentPage(b *testing.B) {
	rw, ro := MustOpenDBs(b, "postgres")
	info := experimentFixture(b, rw, []string{"A", "B"}, 200)
	s, err := New(Config{DB: ro})
	if err != nil {
		b.Fatal(err)
	}
	runs, err := ro.ExperimentRuns(context.Background(), info.ID, time.Time{})
	if err != nil || len(runs) != 2 {
		b.Fatalf("runs = %d, %v", len(runs), err)
	}
	pages := map[string]string{
		"grid": "/experiments/" + info.ID + "?from=" + url.QueryEscape(info.StartedAt),
		"run":  "/runs/" + runs[0].ID.String(),
	}
	for _, name := range []string{"grid", "run"} {
		b.Run(name, func(b *testing.B) {
			for b.Loop() {
				rec := httptest.NewRecorder()
				s.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, pages[name], nil))
				if rec.Code != http.StatusOK {
					b.Fatalf("%s: status %d", name, rec.Code)
				}
			}
		})
	}
}
