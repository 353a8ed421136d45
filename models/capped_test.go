package models_test

import (
	"context"
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// TestWithValueCaps_CutsInTheDatabase stores long values of every shape and
// reads them through a capped handle on both dialects: short values come
// back whole, a long string as its first characters, an object member by
// member (its short members whole, at most MaxCutMembers of them), anything
// else as a string of its first characters, and every cut is recorded.
func TestWithValueCaps_CutsInTheDatabase(t *testing.T) {
	dialects(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		long := strings.Repeat("é", 5000) // 10,000 bytes
		many := map[string]int{}
		for i := range 400 {
			many[fmt.Sprintf("k%03d", i)] = i
		}
		r := &models.Run{Suite: "caps", Agent: "a", Version: "1", SuiteDigest: "d", StartedAt: time.Now(), FinishedAt: time.Now(),
			Metadata: models.MustJSON(many), Summary: models.MustJSON(map[string]any{"writer": "w", "note": long}),
			Cases: []*models.CaseResult{{Position: 0, CaseID: "q", Name: "q", Status: models.StatusPassed,
				Question: models.MustJSON("short question"), Output: models.MustJSON(long),
				Actions:          models.MustJSON([]string{long}),
				ResponseMetadata: models.MustJSON(map[string]any{"transcript": map[string]any{"turns": []string{long, long}}, "judge_usage": []int{1, 2}, "flag": true, "n": 1.25, "none": nil}),
				Metrics: []*models.MetricResult{{Name: "m", Threshold: 1, Passed: false, Reason: &long,
					ErrorDetails: models.MustJSON(map[string]string{"message": long})}}}}}
		if err := db.InsertRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		got, err := db.WithValueCaps(models.ValueCaps{Value: 100, Definition: 100}).GetRun(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		c := got.Cases[0]
		var out string
		if err := json.Unmarshal(c.Output, &out); err != nil || out != strings.Repeat("é", 100) {
			t.Errorf("output = %.40s… (%v), want the first 100 characters", c.Output, err)
		}
		if string(c.Question) != `"short question"` {
			t.Errorf("question = %s, want it whole", c.Question)
		}
		var meta map[string]json.RawMessage
		if err := json.Unmarshal(c.ResponseMetadata, &meta); err != nil {
			t.Fatalf("response_metadata is not an object: %v: %.200s", err, c.ResponseMetadata)
		}
		for k, want := range map[string]string{"judge_usage": "[1,2]", "flag": "true", "n": "1.25", "none": "null"} {
			if strings.ReplaceAll(string(meta[k]), " ", "") != want {
				t.Errorf("response_metadata.%s = %s, want %s whole", k, meta[k], want)
			}
		}
		var tr string
		if err := json.Unmarshal(meta["transcript"], &tr); err != nil || len([]rune(tr)) != 100 {
			t.Errorf("response_metadata.transcript = %.60s…, want a string of its first 100 characters", meta["transcript"])
		}
		var rmeta map[string]int
		if err := json.Unmarshal(got.Metadata, &rmeta); err != nil || len(rmeta) == 0 || len(rmeta) > models.MaxCutMembers {
			t.Errorf("run metadata kept %d of 400 members (%v), want 1..%d", len(rmeta), err, models.MaxCutMembers)
		}
		m := c.Metrics[0]
		if !strings.HasSuffix(*m.Reason, " […]") || len(*m.Reason) > 400 {
			t.Errorf("reason = %.40s… (%d bytes), want its first 100 characters and a mark", *m.Reason, len(*m.Reason))
		}
		for _, want := range []struct {
			cuts   []models.Cut
			column string
		}{{c.Cuts, "output"}, {c.Cuts, "actions"}, {c.Cuts, "response_metadata.transcript"}, {got.Cuts, "metadata.*"},
			{got.Cuts, "summary.note"}, {m.Cuts, "error_details.message"}, {m.Cuts, "reason"}} {
			if models.CutOf(want.cuts, want.column) == nil {
				t.Errorf("no cut recorded for %s in %+v", want.column, want.cuts)
			}
		}
		if cut := models.CutOf(c.Cuts, "output"); cut != nil && cut.Bytes < 10000 {
			t.Errorf("output cut records %d stored bytes, want at least 10,000", cut.Bytes)
		}
		if models.CutOf(c.Cuts, "question") != nil || models.CutOf(c.Cuts, "response_metadata.judge_usage") != nil {
			t.Errorf("short values recorded as cut: %+v", c.Cuts)
		}
		whole, err := db.GetRun(ctx, r.ID)
		if err != nil || len(whole.Cases[0].Cuts) != 0 || !json.Valid(whole.Cases[0].Output) || len(whole.Cases[0].Output) < 10000 {
			t.Errorf("an uncapped read cut the output (%v, %+v)", err, whole.Cases[0].Cuts)
		}
	})
}
