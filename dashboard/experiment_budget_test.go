package dashboard

import (
	"context"
	"fmt"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

// TestServer_ExperimentPageReadsShortAnswers: an experiment whose answers
// are 200 KiB each (3 variants × 10 questions, 6 MB of answers, every pair
// different word by word) is shown from the first characters of each
// answer, on both databases: the page stays under 1 MB and each cell still
// links to the whole answer.
func TestServer_ExperimentPageReadsShortAnswers(t *testing.T) {
	for _, backend := range backends {
		t.Run(backend, func(t *testing.T) {
			rw, ro := MustOpenDBs(t, backend)
			info := report.ExperimentInfo{ID: uuid.NewString(), Name: "Long", Variants: []string{"a", "b", "c"},
				StartedAt: t0.Add(24 * time.Hour).Format(time.RFC3339Nano)}
			for i, v := range info.Variants {
				vi := info
				vi.Variant = v
				at := t0.Add(24*time.Hour + time.Duration(i)*time.Minute)
				r := &models.Run{Suite: "Long suite", Agent: "Bot " + v, Version: "1", SuiteDigest: "long-digest",
					StartedAt: at, FinishedAt: at.Add(time.Second), Metadata: models.MustJSON(map[string]any{"experiment": vi}),
					Summary: models.JSON(`{"writer":"agentevals-go"}`)}
				word := strings.Repeat(v, 3) + " "
				for q := 0; q < 10; q++ {
					r.Cases = append(r.Cases, &models.CaseResult{Position: q, CaseID: fmt.Sprintf("q%d", q), Name: "Q",
						Status: models.StatusPassed, Question: models.MustJSON("?"), Metadata: models.JSON(`{}`),
						MinimumScores: models.JSON(`{"exact":1}`),
						Output:        models.MustJSON(strings.Repeat(word, 200<<10/len(word))),
						Metrics:       []*models.MetricResult{metric(0, "exact", 1, f64(1), true, "")}})
				}
				if err := rw.InsertRun(context.Background(), r); err != nil {
					t.Fatal(err)
				}
			}
			ts := MustServe(t, ro, mount)
			page := mustGet(t, ts.URL+mount+"/experiments/"+info.ID+"?from="+url.QueryEscape(info.StartedAt), 200)
			if n := len(page.Body); n >= 1<<20 {
				t.Errorf("the grid page is %d bytes for 6 MB of answers, want under 1 MB", n)
			}
			if !strings.Contains(page.Body, mount+"/runs/") {
				t.Error("the cells do not link to the whole answers")
			}
		})
	}
}
