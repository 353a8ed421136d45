package compare

import (
	"math"
	"math/big"

	"github.com/agentevals-go/agentevals/models"
)

// PairwiseStats sums the pairwise verdicts of a candidate B against a
// reference A. Wins are B's (both readings preferred B), Losses A's; every
// judged pair that is not a consistent win is a tie. Errored pairs count
// in Errors only.
type PairwiseStats struct {
	Pairs  int `json:"pairs"`
	Wins   int `json:"wins"`
	Losses int `json:"losses"`
	Ties   int `json:"ties"`
	Errors int `json:"errors"`
	// SignTestP is the exact two-sided sign test of wins against losses
	// (ties left out); nil when there is no win and no loss.
	SignTestP *float64 `json:"sign_test_p"`
	// Consistency is the share of judged pairs whose two readings agreed;
	// nil when no pair was judged.
	Consistency *float64 `json:"position_consistency"`
	// Verdict says which side is better at alpha, or neither.
	Verdict string `json:"verdict"`
}

// Pairwise verdicts (PairwiseStats.Verdict).
const (
	PairwiseBBetter = "B is preferred"
	PairwiseABetter = "A is preferred"
	PairwiseNoPref  = "no significant preference"
	PairwiseNoData  = "no pair judged"
)

// PairwiseOf sums rec's verdicts; the verdict is a side only when the sign
// test is below alpha (0 means DefaultAlpha).
func PairwiseOf(rec models.PairwiseRecord, alpha float64) PairwiseStats {
	if alpha <= 0 {
		alpha = DefaultAlpha
	}
	var st PairwiseStats
	consistent := 0
	for _, v := range rec.Verdicts {
		st.Pairs++
		if v.Error != "" {
			st.Errors++
			continue
		}
		if v.AFirst == v.BFirst {
			consistent++
		}
		switch v.Winner {
		case "B":
			st.Wins++
		case "A":
			st.Losses++
		default:
			st.Ties++
		}
	}
	if judged := st.Pairs - st.Errors; judged > 0 {
		c := float64(consistent) / float64(judged)
		st.Consistency = &c
	}
	st.Verdict = PairwiseNoData
	if st.Pairs-st.Errors > 0 {
		st.Verdict = PairwiseNoPref
	}
	if n := st.Wins + st.Losses; n > 0 {
		p := SignTest(st.Wins, st.Losses)
		st.SignTestP = &p
		switch {
		case p < alpha && st.Wins > st.Losses:
			st.Verdict = PairwiseBBetter
		case p < alpha:
			st.Verdict = PairwiseABetter
		}
	}
	return st
}

// SignTest is the exact two-sided sign test of w successes against l
// failures under p = 1/2: twice the binomial tail of the smaller count,
// at most 1. It is 1 when w + l is 0.
func SignTest(w, l int) float64 {
	n := w + l
	k := min(w, l)
	if n == 0 {
		return 1
	}
	// The tail sum(C(n,i), i <= k) over 2^(n-1), in integers: exact for
	// any n, where float binomials of a few thousand pairs overflow.
	tail, c := new(big.Int), big.NewInt(1)
	for i := 0; i <= k; i++ {
		tail.Add(tail, c)
		c.Mul(c, big.NewInt(int64(n-i))).Quo(c, big.NewInt(int64(i+1)))
	}
	p, _ := new(big.Rat).SetFrac(tail, new(big.Int).Lsh(big.NewInt(1), uint(n-1))).Float64()
	return math.Min(1, p)
}
