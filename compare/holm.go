package compare

import (
	"math"
	"sort"
)

// holm returns Holm's step-down adjusted p-values of ps, in the order of
// ps: the i-th smallest p times (m−i+1), made non-decreasing and capped at
// 1. Rejecting every test whose adjusted p is at most α keeps the chance
// of any false rejection at most α, whatever the tests' dependence.
func holm(ps []float64) []float64 {
	m := len(ps)
	idx := make([]int, m)
	for i := range idx {
		idx[i] = i
	}
	sort.SliceStable(idx, func(a, b int) bool { return ps[idx[a]] < ps[idx[b]] })
	out := make([]float64, m)
	running := 0.0
	for rank, i := range idx {
		v := math.Min(1, float64(m-rank)*ps[i])
		running = math.Max(running, v)
		out[i] = running
	}
	return out
}

// Normal quantiles of a power of 0.8 (the minimum detectable effect's
// convention, as in calibrate --rejudge).
const zPower80 = 0.8416212335729143

// NormalQuantile is the p-quantile of the standard normal distribution
// (0 < p < 1), found by bisection on the complementary error function.
func NormalQuantile(p float64) float64 {
	lo, hi := -40.0, 40.0
	for range 200 {
		mid := (lo + hi) / 2
		if 0.5*math.Erfc(-mid/math.Sqrt2) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// studentTQuantile is the p-quantile of Student's t with df degrees of
// freedom, by bisection on StudentTCDF.
func studentTQuantile(p, df float64) float64 {
	lo, hi := -1e6, 1e6
	for range 200 {
		mid := (lo + hi) / 2
		if StudentTCDF(mid, df) < p {
			lo = mid
		} else {
			hi = mid
		}
	}
	return (lo + hi) / 2
}

// MinimumDetectable is the smallest mean drop a one-sided test with
// critical value zCrit sees with power 0.8 when the mean of n independent
// differences of standard deviation sd is tested: (zCrit + z₀.₈)·sd/√n.
func MinimumDetectable(zCrit, sd float64, n int) float64 {
	return (zCrit + zPower80) * sd / math.Sqrt(float64(n))
}

// median of xs (not modified); 0 for none.
func median(xs []float64) float64 {
	if len(xs) == 0 {
		return 0
	}
	s := append([]float64(nil), xs...)
	sort.Float64s(s)
	if len(s)%2 == 1 {
		return s[len(s)/2]
	}
	return (s[len(s)/2-1] + s[len(s)/2]) / 2
}
