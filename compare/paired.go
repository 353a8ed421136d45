package compare

import (
	"math"

	"github.com/agentevals-go/agentevals/stats"
)

// exactSignFlipMax is the largest number of non-zero paired differences
// the sign-flip test enumerates exactly (2^16 sign assignments); above it
// the paired t-test is used, whose null distribution the sign-flip
// distribution approaches as n grows.
const exactSignFlipMax = 16

// Test methods named in PairedTest.Method.
const (
	MethodSignFlip = "exact sign-flip test"
	MethodPairedT  = "paired t-test"
)

// PairedTest is a one-sided test of "no drop" on paired differences
// (candidate minus baseline, one per question both runs calculated).
type PairedTest struct {
	// N is the number of pairs.
	N int `json:"n"`
	// MeanChange is the mean difference (negative: a drop); nil when N is 0.
	MeanChange *float64 `json:"mean_change"`
	// P is the one-sided p-value of "the mean did not drop"; nil when N is 0.
	P      *float64 `json:"p"`
	Method string   `json:"method,omitempty"`
}

// PairedDropTest tests whether the paired differences show a drop: the
// one-sided p-value of observing a mean this low if candidate and baseline
// scores were exchangeable. Up to exactSignFlipMax non-zero differences it
// is the exact sign-flip (permutation) test, valid at any n without
// assuming normality; above, the paired t-test with n-1 degrees of
// freedom. Differences that are all equal (no spread) give p = 0 for a
// drop and p = 1 otherwise.
func PairedDropTest(diffs []float64) PairedTest {
	t := PairedTest{N: len(diffs)}
	if len(diffs) == 0 {
		return t
	}
	m := stats.Mean(diffs)
	t.MeanChange = &m
	var nonZero []float64
	for _, d := range diffs {
		if math.Abs(d) > ScoreEpsilon {
			nonZero = append(nonZero, d)
		}
	}
	var p float64
	switch {
	case len(nonZero) == 0:
		p, t.Method = 1, MethodSignFlip
	case len(nonZero) <= exactSignFlipMax:
		p, t.Method = signFlipP(nonZero), MethodSignFlip
	default:
		p, t.Method = pairedTP(diffs), MethodPairedT
	}
	t.P = &p
	return t
}

// signFlipP is the exact one-sided p-value of the sum of d under random
// sign flips: the share of the 2^n sign assignments whose sum is at most
// the observed one.
func signFlipP(d []float64) float64 {
	var observed float64
	for _, v := range d {
		observed += v
	}
	n := len(d)
	total := 1 << n
	atMost := 0
	for mask := 0; mask < total; mask++ {
		var s float64
		for i, v := range d {
			if mask&(1<<i) != 0 {
				s -= math.Abs(v)
			} else {
				s += math.Abs(v)
			}
		}
		if s <= observed+1e-12 {
			atMost++
		}
	}
	return float64(atMost) / float64(total)
}

// pairedTP is the one-sided p-value P(T <= t) of the paired t statistic.
func pairedTP(d []float64) float64 {
	n := float64(len(d))
	m := stats.Mean(d)
	var ss float64
	for _, v := range d {
		ss += (v - m) * (v - m)
	}
	sd := math.Sqrt(ss / (n - 1))
	if sd < 1e-12 {
		if m < -ScoreEpsilon {
			return 0
		}
		return 1
	}
	return stats.StudentTCDF(m/(sd/math.Sqrt(n)), n-1)
}

// FlipTest is the exact one-sided McNemar test of pass/fail changes on
// paired questions: under "no change" each discordant pair is as likely
// to go either way, so P is P(X >= PassToFail) for X ~ Binomial(PassToFail
// + FailToPass, 1/2). P is nil when no question changed.
type FlipTest struct {
	PassToFail int      `json:"pass_to_fail"`
	FailToPass int      `json:"fail_to_pass"`
	P          *float64 `json:"p"`
}

// McNemar returns the exact one-sided test of more pass→fail than
// fail→pass changes.
func McNemar(passToFail, failToPass int) FlipTest {
	t := FlipTest{PassToFail: passToFail, FailToPass: failToPass}
	n := passToFail + failToPass
	if n == 0 {
		return t
	}
	var p float64
	for k := passToFail; k <= n; k++ {
		p += math.Exp(logChoose(n, k) - float64(n)*math.Ln2)
	}
	p = math.Min(1, p)
	t.P = &p
	return t
}

func logChoose(n, k int) float64 {
	a, _ := math.Lgamma(float64(n + 1))
	b, _ := math.Lgamma(float64(k + 1))
	c, _ := math.Lgamma(float64(n - k + 1))
	return a - b - c
}
