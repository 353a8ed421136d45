package compare

import (
	"math"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

// TestSignTest compares the exact sign test with hand computations:
// p = 2 * sum_{i <= min(w,l)} C(n,i) / 2^n, at most 1.
func TestSignTest(t *testing.T) {
	tests := []struct {
		w, l int
		want float64
	}{
		{0, 0, 1},
		{1, 0, 1},                // 2 * 1/2
		{5, 0, 2.0 / 32},         // 2 * 1/32
		{8, 2, 112.0 / 1024},     // 2 * (1+10+45)/1024
		{2, 8, 112.0 / 1024},     // symmetric
		{5, 5, 1},                // capped
		{9, 3, 2 * 299.0 / 4096}, // 2 * (1+12+66+220)/4096
		{20, 0, 2 / math.Pow(2, 20)},
	}
	for _, tt := range tests {
		if got := SignTest(tt.w, tt.l); math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("SignTest(%d, %d) = %v, want %v", tt.w, tt.l, got, tt.want)
		}
	}
	// Thousands of pairs stay finite and exact enough: 1000 vs 1000 is 1.
	if got := SignTest(1000, 1000); got != 1 {
		t.Errorf("SignTest(1000, 1000) = %v, want 1", got)
	}
	if got := SignTest(1100, 900); got <= 0 || got >= 0.0001 {
		t.Errorf("SignTest(1100, 900) = %v, want a small positive p", got)
	}
}

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
