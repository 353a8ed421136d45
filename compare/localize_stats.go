package compare

import (
	"hash/fnv"
	"math"
	"math/rand/v2"
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
	med := median(diffs)
	var ss float64
	rises := 0
	for _, d := range diffs {
		if r := d - med; r > ScoreEpsilon {
			ss += r * r
			rises++
		}
	}
	if len(diffs) == 0 {
		return 0, 0
	}
	return math.Sqrt(2 * ss / float64(len(diffs))), rises
}

func moderated(s repeatSide, s0 float64) float64 {
	return (priorDF*s0 + s.ss) / float64(priorDF+s.df)
}

// sliceFlips is the number of random sign assignments of a slice's test
// among m slices at family level alpha: four times what resolves the
// strictest Holm threshold alpha/m, from 2,000 to 20,000. The count is
// fixed before any flip, so (1 + #{sum ≤ observed}) / (flips + 1) stays a
// valid p-value.
func sliceFlips(m int, alpha float64) int {
	return int(min(20000, max(2000, math.Ceil(4*float64(m)/alpha))))
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
	h := fnv.New64a()
	h.Write([]byte(label))
	rng := rand.New(rand.NewPCG(seed, h.Sum64()))
	atMost := 0
	for range flips {
		var s float64
		bits, left := uint64(0), 0
		for _, a := range abs {
			if left == 0 {
				bits, left = rng.Uint64(), 64
			}
			if bits&1 == 1 {
				s -= a
			} else {
				s += a
			}
			bits >>= 1
			left--
		}
		if s <= observed+1e-12 {
			atMost++
		}
	}
	return float64(1+atMost) / float64(flips+1)
}
