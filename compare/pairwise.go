package compare

import (
	"fmt"
	"math"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/stats"
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
	// Decisive counts the readings that chose a side (not a tie), and
	// FirstSlot is the share of them that chose the answer in the first
	// slot (nil without any): 0.5 for a judge without position bias,
	// whatever the answers' real difference.
	Decisive  int      `json:"decisive_readings"`
	FirstSlot *float64 `json:"first_slot_share"`
	// FirstSlotP is the exact two-sided sign test of first-slot against
	// second-slot choices; nil without decisive readings.
	FirstSlotP *float64 `json:"first_slot_p"`
	// PositionBias is a warning when the first-slot share shows the
	// judge's position bias; "" otherwise.
	PositionBias string `json:"position_bias,omitempty"`
	// Verdict says which side is better at alpha, or neither.
	Verdict string `json:"verdict"`
}

// A judge shows position bias when its first-slot share is at least
// PositionBiasMin away from one half and the sign test of first against
// second slot is below PositionBiasAlpha.
const (
	PositionBiasAlpha = 0.01
	PositionBiasMin   = 0.15
)

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
	consistent, first := 0, 0
	for _, v := range rec.Verdicts {
		st.Pairs++
		if v.Error != "" {
			st.Errors++
			continue
		}
		if v.AFirst == v.BFirst {
			consistent++
		}
		for _, r := range [][2]string{{v.AFirst, "A"}, {v.BFirst, "B"}} {
			switch r[0] {
			case r[1]:
				first++
				st.Decisive++
			case "A", "B":
				st.Decisive++
			}
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
	if st.Decisive > 0 {
		share := float64(first) / float64(st.Decisive)
		p := stats.SignTest(first, st.Decisive-first)
		st.FirstSlot, st.FirstSlotP = &share, &p
		if p < PositionBiasAlpha && math.Abs(share-0.5) >= PositionBiasMin {
			slot := "first"
			if share < 0.5 {
				slot, share = "second", 1-share
			}
			st.PositionBias = fmt.Sprintf("position bias: the judge chose the %s slot in %.0f%% of %d decisive readings (sign test p = %.2g), "+
				"so it changes its mind when the answers swap slots and real preferences read as ties; try another judge model or prompt before trusting ties",
				slot, 100*share, st.Decisive, p)
		}
	}
	st.Verdict = PairwiseNoData
	if st.Pairs-st.Errors > 0 {
		st.Verdict = PairwiseNoPref
	}
	if n := st.Wins + st.Losses; n > 0 {
		p := stats.SignTest(st.Wins, st.Losses)
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
