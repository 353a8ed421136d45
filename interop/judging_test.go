package interop_test

import (
	"context"
	"encoding/json"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

// TestRubyReadsJudgingEvidence: a run carrying pairwise verdicts in its
// summary, and a case carrying a decision path and retrieved contexts in
// its response metadata, is read by the gem's models like any other, the
// new keys intact inside the JSON columns.
func TestRubyReadsJudgingEvidence(t *testing.T) {
	ctx := context.Background()
	f := loadFixture(t)
	e := newEnv(t)
	e.mustEvalrun(t, "db:migrate")
	r := f.goRun(t, 0)
	rec := models.PairwiseRecord{RunA: "11111111-1111-4111-8111-111111111111", VariantA: "reference", VariantB: "candidate",
		Verdicts: []models.PairVerdict{{CaseID: r.Cases[0].CaseID, AFirst: "B", BFirst: "B", Winner: "B", ReasonAFirst: "Better.", ReasonBFirst: "Still better."}}}
	r.Summary = models.MustJSON(map[string]any{"writer": "agentevals-go", models.PairwiseKey: rec})
	r.Cases[0].ResponseMetadata = models.JSON(`{"contexts":[{"id":"doc-1","text":"Thirty days."}],` +
		`"metric_details":{"rules":{"metric_type":"dag","dag_path":[{"node":"deadline","kind":"check","check":"contains","score":1,"verdict":"yes","reason":"found"}]}}}`)
	if err := e.db.InsertRun(ctx, r); err != nil {
		t.Fatal(err)
	}
	d := parseDump(t, e.ruby(t, "dump"))
	if len(d.Runs) != 1 {
		t.Fatalf("Ruby reads %d runs, want 1", len(d.Runs))
	}
	enc, _ := json.Marshal(d.Runs[0]["summary"])
	var summary struct {
		Pairwise models.PairwiseRecord `json:"pairwise"`
	}
	if err := json.Unmarshal(enc, &summary); err != nil || len(summary.Pairwise.Verdicts) != 1 || summary.Pairwise.Verdicts[0].Winner != "B" {
		t.Errorf("Ruby's summary = %s (%v), want the pairwise verdicts", enc, err)
	}
	cases, _ := d.Runs[0]["cases"].([]any)
	if len(cases) == 0 {
		t.Fatalf("Ruby reads no case: %v", d.Runs[0])
	}
	meta, _ := json.Marshal(cases[0].(map[string]any)["response_metadata"])
	var rm struct {
		Contexts      []map[string]string                   `json:"contexts"`
		MetricDetails map[string]map[string]json.RawMessage `json:"metric_details"`
	}
	if err := json.Unmarshal(meta, &rm); err != nil || len(rm.Contexts) != 1 || rm.MetricDetails["rules"]["dag_path"] == nil {
		t.Errorf("Ruby's response_metadata = %s (%v), want the contexts and the decision path", meta, err)
	}
}
