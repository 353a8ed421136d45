package stats

import "math"

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
