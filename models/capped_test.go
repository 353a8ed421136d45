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
				Actions:          models.MustJSON([]string{long[:1000]}),
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
		if err := json.Unmarshal(meta["transcript"], &tr); err != nil || tr != "" {
			t.Errorf("response_metadata.transcript = %.60s…, want an empty string: it is structured and over 16 times the cap", meta["transcript"])
		}
		var acts string
		if err := json.Unmarshal(c.Actions, &acts); err != nil || !strings.HasPrefix(acts, `["éé`) || len([]rune(acts)) != 100 {
			t.Errorf("actions = %.60s…, want a string of the first 100 characters of its JSON", c.Actions)
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

// TestTranscriptHead_FirstTurnsOnly stores a 30-turn conversation whose
// turns hold 2,000-character messages and reads its first 5 turns with a
// 100-character cap on both dialects: 5 turns, each message its first 100
// characters, the count of all turns, and nothing for a case without one.
func TestTranscriptHead_FirstTurnsOnly(t *testing.T) {
	dialects(t, func(t *testing.T, db *models.DB) {
		ctx := context.Background()
		long := strings.Repeat("w", 2000)
		tr := models.Transcript{Kind: "scripted", StopReason: models.StopScriptEnd}
		for i := 1; i <= 30; i++ {
			tr.Turns = append(tr.Turns, models.TranscriptTurn{Turn: i, User: fmt.Sprintf("%d %s", i, long),
				Output: models.MustJSON(long), Actions: models.JSON(`[]`), DurationMS: 1})
		}
		r := &models.Run{Suite: "talk", Agent: "a", Version: "1", SuiteDigest: "d", StartedAt: time.Now(), FinishedAt: time.Now(),
			Metadata: models.JSON(`{}`), Summary: models.JSON(`{}`), Cases: []*models.CaseResult{
				{Position: 0, CaseID: "talk", Name: "talk", Status: models.StatusPassed,
					ResponseMetadata: models.MustJSON(map[string]any{"transcript": tr})},
				{Position: 1, CaseID: "plain", Name: "plain", Status: models.StatusPassed, ResponseMetadata: models.JSON(`{}`)}}}
		if err := db.InsertRun(ctx, r); err != nil {
			t.Fatal(err)
		}
		capped := db.WithValueCaps(models.ValueCaps{Value: 100, Definition: 100})
		got, err := capped.GetRun(ctx, r.ID)
		if err != nil {
			t.Fatal(err)
		}
		head, total, err := capped.TranscriptHead(ctx, got.Cases[0].ID, 5)
		if err != nil || head == nil {
			t.Fatalf("TranscriptHead: %v, %v", head, err)
		}
		if total != 30 || len(head.Turns) != 5 || head.Kind != "scripted" || head.StopReason != models.StopScriptEnd {
			t.Fatalf("head = %d of %d turns, kind %q, stop %q; want 5 of 30, scripted, script_end", len(head.Turns), total, head.Kind, head.StopReason)
		}
		for i, turn := range head.Turns {
			var out string
			if turn.Turn != i+1 || !strings.HasPrefix(turn.User, fmt.Sprint(i+1)+" w") || len(turn.User) != 100 ||
				json.Unmarshal(turn.Output, &out) != nil || len(out) != 100 {
				t.Errorf("turn %d = %d, user %d bytes, output %.20s…, want turn %d with both messages cut to 100", i, turn.Turn, len(turn.User), turn.Output, i+1)
			}
		}
		if head, _, err := capped.TranscriptHead(ctx, got.Cases[1].ID, 5); err != nil || head != nil {
			t.Errorf("a case without a transcript: %v, %v; want nil", head, err)
		}
	})
}
