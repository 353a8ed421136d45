package compare

import (
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

// TestPairwiseOf: errors count apart, ties include disagreements, and
// consistency is over judged pairs only.
func TestPairwiseOf(t *testing.T) {
	rec := models.PairwiseRecord{Verdicts: []models.PairVerdict{
		{CaseID: "a", AFirst: "B", BFirst: "B", Winner: "B"},
		{CaseID: "b", AFirst: "A", BFirst: "B", Winner: "tie"},
		{CaseID: "c", AFirst: "tie", BFirst: "tie", Winner: "tie"},
		{CaseID: "d", AFirst: "A", BFirst: "A", Winner: "A"},
		{CaseID: "e", Error: "server_error: 503"},
	}}
	st := PairwiseOf(rec, 0)
	if st.Pairs != 5 || st.Wins != 1 || st.Losses != 1 || st.Ties != 2 || st.Errors != 1 {
		t.Fatalf("stats = %+v", st)
	}
	if st.Consistency == nil || *st.Consistency != 0.75 || st.SignTestP == nil || *st.SignTestP != 1 || st.Verdict != PairwiseNoPref {
		t.Errorf("consistency %v, p %v, verdict %q; want 0.75, 1, %q", st.Consistency, st.SignTestP, st.Verdict, PairwiseNoPref)
	}
	if none := PairwiseOf(models.PairwiseRecord{}, 0); none.Consistency != nil || none.SignTestP != nil || none.Verdict != PairwiseNoData {
		t.Errorf("empty record: %+v", none)
	}
}
