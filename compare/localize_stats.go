package compare

import (
	"hash/fnv"
	"math"
	"math/rand/v2"

	"github.com/agentevals-go/agentevals/stats"
)

// riseSpread is √(2/n·Σ r²) over the n pairs that keep, r being each
// difference's rise above their median (only rises count), and the number
// of rises.
func riseSpread(ps []pair, keep func(pair) bool) (float64, int) {
	var diffs []float64
	for _, p := range ps {
		if keep(p) {
			diffs = append(diffs, p.diff)
		}
	}
	if len(diffs) == 0 {
		return 0, 0
	}
	med := stats.Median(diffs)
	var ss float64
	rises := 0
	for _, d := range diffs {
		if r := d - med; r > ScoreEpsilon {
			ss += r * r
			rises++
		}
	}
	return math.Sqrt(2 * ss / float64(len(diffs))), rises
}

// sliceFlips is the number of random sign assignments of a slice's test
// among m slices at family level alpha: four times what resolves the
// strictest Holm threshold alpha/m, from 2,000 to 20,000. The count is
// fixed before any flip, so (1 + #{sum ≤ observed}) / (flips + 1) stays a
// valid p-value.
func sliceFlips(m int, alpha float64) int {
	return int(min(20000, max(2000, math.Ceil(4*float64(m)/alpha))))
}

func moderated(s repeatSide, s0 float64) float64 {
	return (priorDF*s0 + s.ss) / float64(priorDF+s.df)
}

// welchLowerP is the one-sided Welch t-test p-value of "the slice's mean
// change is not below the rest's": in holds the slice's differences, all
// every pair's.
func welchLowerP(in, all []float64, meanIn, meanRest float64) float64 {
	var ssIn, ssAll float64
	for _, d := range in {
		ssIn += (d - meanIn) * (d - meanIn)
	}
	// The rest's sum of squares around its mean, from all's.
	n, k := float64(len(all)), float64(len(in))
	var sumAll, sqAll float64
	for _, d := range all {
		sumAll += d
		sqAll += d * d
	}
	var sqIn float64
	for _, d := range in {
		sqIn += d * d
	}
	restN := n - k
	ssAll = (sqAll - sqIn) - restN*meanRest*meanRest
	vIn, vRest := ssIn/(k-1)/k, math.Max(ssAll, 0)/(restN-1)/restN
	se := math.Sqrt(vIn + vRest)
	if se < 1e-12 {
		if meanIn < meanRest-ScoreEpsilon {
			return 0
		}
		return 1
	}
	df := (vIn + vRest) * (vIn + vRest) / (vIn*vIn/(k-1) + vRest*vRest/(restN-1))
	return stats.StudentTCDF((meanIn-meanRest)/se, df)
}

// splitP is the one-sided random-split p-value of a slice of k questions
// whose differences sum to observed: (1 + #{splits whose k drawn
// differences sum to at most observed}) / (splits + 1), the splits drawn
// on a stream fixed by seed and label.
func splitP(all []float64, k int, observed float64, splits int, seed uint64, label string) float64 {
	h := fnv.New64a()
	h.Write([]byte(label))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	idx := make([]int, len(all))
	for i := range idx {
		idx[i] = i
	}
	atMost := 0
	for range splits {
		var s float64
		for j := range k { // a partial Fisher-Yates shuffle draws k of them
			r := j + rng.IntN(len(idx)-j)
			idx[j], idx[r] = idx[r], idx[j]
			s += all[idx[j]]
		}
		if s <= observed+1e-9 {
			atMost++
		}
	}
	return float64(1+atMost) / float64(splits+1)
}

// signFlipMC is the one-sided sign-flip p-value of the sum of d from
// flips random sign assignments, (1 + #{sum ≤ observed}) / (flips + 1), on
// a stream fixed by seed and label.
func signFlipMC(d []float64, flips int, seed uint64, label string) float64 {
	var observed float64
	abs := make([]float64, len(d))
	for i, v := range d {
		observed += v
		abs[i] = math.Abs(v)
	}
	atMost := 0
	flipSums(abs, flips, seed, label, func(neg, pos float64) {
		if pos-neg <= observed+1e-12 {
			atMost++
		}
	})
	return float64(1+atMost) / float64(flips+1)
}

// flipSums draws flips random sign assignments of the sizes w, on a
// stream fixed by seed and label, and calls f with the sum of the sizes
// drawn negative and the sum of those drawn positive.
func flipSums(w []float64, flips int, seed uint64, label string, f func(neg, pos float64)) {
	h := fnv.New64a()
	h.Write([]byte(label))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	for range flips {
		var neg, pos float64
		bits, left := uint64(0), 0
		for _, a := range w {
			if left == 0 {
				bits, left = rng.Uint64(), 64
			}
			if bits&1 == 1 {
				neg += a
			} else {
				pos += a
			}
			bits >>= 1
			left--
		}
		f(neg, pos)
	}
}

// hasRepeats reports whether any pair has repeats in either run.
func hasRepeats(ps []pair) bool {
	for _, p := range ps {
		if p.cur.df > 0 || p.base.df > 0 {
			return true
		}
	}
	return false
}
