package models_test

import (
	"context"
	"reflect"
	"strings"
	"testing"
	"time"

	"github.com/google/uuid"

	"github.com/agentevals-go/agentevals/models"
)

// TestCaseTotalsOf_SameTotalsAsCasesOf reads runs of every case shape
// through CaseTotalsOf and CasesOf (capped and whole): the totals are the
// same, while CaseTotalsOf leaves the long answers and metadata unread.
func TestCaseTotalsOf_SameTotalsAsCasesOf(t *testing.T) {
	dialects(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		long := models.MustJSON(strings.Repeat("x", 50000))
		metric := func(score *float64, passed bool, errDetails models.JSON) []*models.MetricResult {
			return []*models.MetricResult{{Name: "m", Threshold: 0.5, Score: score, Passed: passed, ErrorDetails: errDetails}}
		}
		r := &models.Run{Suite: "totals", Agent: "a", Version: "1", SuiteDigest: "d", StartedAt: time.Now(), FinishedAt: time.Now(),
			Cases: []*models.CaseResult{
				{Position: 0, CaseID: "pass", Name: "p", Status: models.StatusPassed, Output: long, InputTokens: ptr(int64(3)),
					ResponseMetadata: models.MustJSON(map[string]any{"transcript": map[string]any{"turns": []models.JSON{long, long}}}),
					Metrics:          metric(ptr(0.9), true, nil)},
				{Position: 1, CaseID: "fail", Name: "f", Status: models.StatusFailed, OutputTokens: ptr(int64(5)),
					Metrics: metric(ptr(0.1), false, nil)},
				{Position: 2, CaseID: "err", Name: "e", Status: models.StatusError, ErrorDetails: models.MustJSON(map[string]string{"message": "boom"})},
				{Position: 3, CaseID: "odd", Name: "o", Status: "graded", Metrics: metric(nil, false, models.MustJSON(map[string]string{"message": "judge down"}))},
				{Position: 4, CaseID: "none", Name: "n", Status: models.StatusNotEvaluated},
			}}
		if err := db.InsertRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		ids := []uuid.UUID{r.ID, uuid.New()}
		for _, read := range []*models.DB{db, db.WithValueCaps(models.ValueCaps{Value: 100, Definition: 100})} {
			whole, err := read.CasesOf(ctx, ids)
			if err != nil {
				t.Fatal(err)
			}
			slim, err := read.CaseTotalsOf(ctx, ids)
			if err != nil {
				t.Fatal(err)
			}
			if got, want := models.TotalsOf(slim[r.ID]), models.TotalsOf(whole[r.ID]); !reflect.DeepEqual(got, want) || want.Cases != 5 {
				t.Errorf("totals from CaseTotalsOf = %+v, from CasesOf = %+v", got, want)
			}
			for _, c := range slim[r.ID] {
				if c.Output != nil || c.ResponseMetadata != nil || c.Question != nil {
					t.Errorf("case %s: CaseTotalsOf read output %.20s, response_metadata %.20s, question %.20s", c.CaseID, c.Output, c.ResponseMetadata, c.Question)
				}
			}
			if len(slim) != 1 {
				t.Errorf("CaseTotalsOf returned %d runs, want 1 (the unknown id left out)", len(slim))
			}
		}
	})
}
