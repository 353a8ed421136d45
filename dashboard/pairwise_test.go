package dashboard

import (
	"context"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
)

// TestServer_ExperimentPairwise: the experiment page shows the pairwise
// verdicts the later variant's run carries in its summary, with the
// variant names escaped, and no section when no run carries any.
func TestServer_ExperimentPairwise(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	info := report.ExperimentInfo{ID: uuid.NewString(), Name: "Pairwise study", Variants: []string{"ref", "<b>new</b>"},
		StartedAt: t0.Format(time.RFC3339Nano)}
	var refID string
	for i, v := range info.Variants {
		vi := info
		vi.Variant = v
		summary := `{"writer":"agentevals-go"}`
		if i == 1 {
			rec := models.PairwiseRecord{RunA: refID, VariantA: "ref", Verdicts: []models.PairVerdict{
				{CaseID: "q0", AFirst: "B", BFirst: "B", Winner: "B"},
				{CaseID: "q1", AFirst: "A", BFirst: "B", Winner: "tie"},
				{CaseID: "q2", AFirst: "B", BFirst: "B", Winner: "B"},
			}}
			summary = string(models.MustJSON(map[string]any{"writer": "agentevals-go", models.PairwiseKey: rec}))
		}
		at := t0.Add(time.Duration(i) * time.Minute)
		r := &models.Run{Suite: "Grid suite", Agent: "Bot [" + v + "]", Version: "1", SuiteDigest: "grid-digest",
			StartedAt: at, FinishedAt: at.Add(time.Second), Metadata: models.MustJSON(map[string]any{"experiment": vi}),
			Summary: models.JSON(summary)}
		for q := 0; q < 3; q++ {
			r.Cases = append(r.Cases, &models.CaseResult{Position: q, CaseID: fmt.Sprintf("q%d", q), Name: fmt.Sprintf("Question %d", q),
				Status: models.StatusPassed, DurationMS: 10, Question: models.MustJSON("What?"),
				ExpectedAnswer: models.MustJSON("This."), MinimumScores: models.JSON(`{"exact":1}`),
				Metadata: models.JSON(`{}`), Output: models.MustJSON(fmt.Sprintf("Answer %d by %s", q, v)),
				Metrics: []*models.MetricResult{metric(0, "exact", 1, f64(1), true, "compared")}})
		}
		if err := rw.InsertRun(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		refID = r.ID.String()
	}
	ts := MustServe(t, ro, mount)
	r := mustGet(t, ts.URL+mount+"/experiments/"+info.ID+"?from="+url.QueryEscape(info.StartedAt), http.StatusOK)
	rows := mustSelect(t, r.Doc, "table#pairwise tbody tr")
	if len(rows) != 1 {
		t.Fatalf("pairwise rows = %d, want 1", len(rows))
	}
	cells := []string{text(mustSelect(t, rows[0], "th")[0])}
	for _, td := range selectAll(rows[0], "td") {
		cells = append(cells, text(td))
	}
	// 2 wins, 0 losses: p = 2 * 1/4 = 0.5; 2 of 3 pairs consistent.
	want := "<b>new</b> against ref|2|0|1|0|0.500|0.667|no significant preference"
	if got := strings.Join(cells, "|"); got != want {
		t.Errorf("pairwise row = %q, want %q", got, want)
	}
	if strings.Contains(r.Body, "<b>new</b>") {
		t.Error("a variant name's markup was not escaped")
	}

	other := experimentFixture(t, rw, []string{"short", "long"}, 2)
	r = mustGet(t, ts.URL+mount+"/experiments/"+other.ID+"?from="+url.QueryEscape(other.StartedAt), http.StatusOK)
	if len(selectAll(r.Doc, "table#pairwise")) != 0 {
		t.Error("an experiment without pairwise verdicts shows a pairwise table")
	}
}
