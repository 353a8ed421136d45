package compare

import "math"

// Normal quantiles of a power of 0.8 (the minimum detectable effect's
// convention, as in calibrate --rejudge).
const zPower80 = 0.8416212335729143

// MinimumDetectable is the smallest mean drop a one-sided test with
// critical value zCrit sees with power 0.8 when the mean of n independent
// differences of standard deviation sd is tested: (zCrit + z₀.₈)·sd/√n.
func MinimumDetectable(zCrit, sd float64, n int) float64 {
	return (zCrit + zPower80) * sd / math.Sqrt(float64(n))
}
