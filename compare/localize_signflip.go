package compare

import (
	"fmt"
	"github.com/agentevals-go/agentevals/stats"
	"math"
	"sort"
)

// Settings of the tail test of a judged metric without repeats.
const (
	// tailQuantile places the cut: the pairs whose change is larger in
	// size than this quantile of every change's size form the tail...
	tailQuantile = 0.9
	// ...but at least minTail pairs, so that a small suite's tail can
	// reach a small p-value (all of 12 dropping has p = 2⁻¹²).
	minTail = 12
	// tailFlips is the number of random sign assignments the tail test
	// draws; the count is fixed before any draw, so (1 + #{at least as
	// extreme}) / (tailFlips + 1) is a valid p-value.
	tailFlips = 10000
)

// MethodTailSignFlip names the tail test in findings and reports.
const MethodTailSignFlip = "sign-flip test of the largest changes"

// TailTest is the sign-flip test of one judged metric's largest changes,
// run when no question has repeats. With a fresh baseline and unchanged
// code a question's change (candidate minus baseline verdict) is as likely
// to be a rise as a drop of the same size, whatever the judge's errors
// look like (heavy tails, coarse levels, clipping at 0 and 1): given the
// sizes, the signs are fair coins. The statistic is the drops' excess over
// the cut, Σ max(0, −d − cut); its p-value comes from random sign flips of
// the tail, so one rare large judge error is read against its own mirror
// image and raises a false alarm no more often than the test's α.
type TailTest struct {
	// Cut is the size above which a change is in the tail.
	Cut float64 `json:"cut"`
	// Tail counts the changes beyond the cut; Drops those of them that
	// are drops.
	Tail  int `json:"tail"`
	Drops int `json:"drops"`
	// Excess is the statistic: the drops' summed excess over the cut.
	Excess float64 `json:"excess"`
	Flips  int     `json:"flips"`
	P      float64 `json:"p"`
}

// Text is the test's clause in a finding: "sign-flip test of the largest
// changes: 14 of 20 beyond ±0.265 dropped, p = 0.004".
func (t TailTest) Text() string {
	return fmt.Sprintf("%s: %d of %d beyond ±%.3f dropped, %s", MethodTailSignFlip, t.Drops, t.Tail, t.Cut, fmtP(t.P))
}

// tailSignFlip runs the tail test on a metric's changes, the flips drawn
// on a stream fixed by seed and label, so the same runs always give the
// same p-value.
func tailSignFlip(diffs []float64, seed uint64, label string) TailTest {
	sizes := make([]float64, len(diffs))
	for i, d := range diffs {
		sizes[i] = math.Abs(d)
	}
	sort.Float64s(sizes)
	t := TailTest{Flips: tailFlips, P: 1}
	if len(sizes) == 0 {
		return t
	}
	t.Cut = sizes[max(0, min(len(sizes)-minTail-1, int(tailQuantile*float64(len(sizes)))))]
	var excess []float64
	for _, d := range diffs {
		if e := math.Abs(d) - t.Cut; e > ScoreEpsilon {
			excess = append(excess, e)
			if d < 0 {
				t.Drops++
				t.Excess += e
			}
		}
	}
	t.Tail = len(excess)
	if t.Drops == 0 {
		return t
	}
	atLeast := 0
	flipSums(excess, tailFlips, seed, label, func(drops, _ float64) {
		if drops >= t.Excess-1e-12 {
			atLeast++
		}
	})
	t.P = float64(1+atLeast) / float64(tailFlips+1)
	return t
}

// tailSuspects are the pairs a rejected tail test names: those whose drop,
// measured from the median change, is larger than every rise measured the
// same way. A uniform shift of every question moves the median with it,
// so it names none (the aggregate tests find it).
func tailSuspects(ps []pair) []int {
	diffs := make([]float64, len(ps))
	for i, p := range ps {
		diffs[i] = p.diff
	}
	med := stats.Median(diffs)
	maxRise := 0.0
	for _, d := range diffs {
		maxRise = math.Max(maxRise, d-med)
	}
	var out []int
	for i, d := range diffs {
		if med-d > maxRise+ScoreEpsilon {
			out = append(out, i)
		}
	}
	return out
}
