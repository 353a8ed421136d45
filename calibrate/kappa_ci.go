package calibrate

import (
	"math"
	"math/rand/v2"
	"sort"
)

// Settings of the kappa interval: a percentile bootstrap over the labelled
// pairs on a fixed stream, so the same labels always give the same
// interval.
const (
	kappaResamples = 2000
	kappaSeed      = 20261204
)

// KappaInterval is the 95 % interval of Cohen's kappa of a and b, ok
// false when kappa is undefined on the labels themselves. It spans two
// intervals: the percentile bootstrap (resampling the pairs; resamples on
// which kappa is undefined, one label throughout, are left out), and the
// Wilson score interval of the observed agreement carried to kappa at the
// observed chance agreement. The bootstrap alone collapses to [1.00, 1.00]
// when every one of a few labels agrees, since every resample agrees too;
// the Wilson bound says what so few labels can show (ten agreements out of
// ten: agreement at least 0.72).
func KappaInterval(a, b []bool) (low, high float64, ok bool) {
	if _, ok := CohenKappa(a, b); !ok {
		return 0, 0, false
	}
	wLow, wHigh := wilsonKappa(a, b)
	low, high, ok = bootstrapKappa(a, b)
	if !ok {
		return wLow, wHigh, true
	}
	return math.Min(low, wLow), math.Max(high, wHigh), true
}

// wilsonKappa carries the 95 % Wilson score interval of the observed
// agreement p to kappa, (p − pₑ)/(1 − pₑ) at the observed chance
// agreement pₑ, clamped to [−1, 1].
func wilsonKappa(a, b []bool) (low, high float64) {
	n := float64(len(a))
	var agree, aPass, bPass float64
	for i := range a {
		agree += float64(btoi(a[i] == b[i]))
		aPass += float64(btoi(a[i]))
		bPass += float64(btoi(b[i]))
	}
	const z = 1.959963984540054
	centre := (agree + z*z/2) / (n + z*z)
	half := z / (n + z*z) * math.Sqrt(agree*(n-agree)/n+z*z/4)
	pe := (aPass/n)*(bPass/n) + (1-aPass/n)*(1-bPass/n)
	toKappa := func(p float64) float64 { return math.Max(-1, math.Min(1, (p-pe)/(1-pe))) }
	return toKappa(centre - half), toKappa(centre + half)
}

// bootstrapKappa is the 95 % percentile bootstrap interval of kappa over
// the pairs, on a fixed stream so the same labels always give the same
// interval; ok false when no resample defines kappa.
func bootstrapKappa(a, b []bool) (low, high float64, ok bool) {
	// The pairs in a fixed order (passes first on each side), so the
	// interval does not depend on the order the labels came in.
	n := len(a)
	order := make([]int, n)
	for i := range order {
		order[i] = i
	}
	rank := func(i int) int { return 2*btoi(!a[i]) + btoi(!b[i]) }
	sort.SliceStable(order, func(i, j int) bool { return rank(order[i]) < rank(order[j]) })
	sa, sb := make([]bool, n), make([]bool, n)
	for i, k := range order {
		sa[i], sb[i] = a[k], b[k]
	}
	a, b = sa, sb
	rng := rand.New(rand.NewPCG(kappaSeed, uint64(n)))
	ra, rb := make([]bool, n), make([]bool, n)
	ks := make([]float64, 0, kappaResamples)
	for range kappaResamples {
		for i := range n {
			j := rng.IntN(n)
			ra[i], rb[i] = a[j], b[j]
		}
		if k, ok := CohenKappa(ra, rb); ok {
			ks = append(ks, k)
		}
	}
	if len(ks) == 0 {
		return 0, 0, false
	}
	sort.Float64s(ks)
	return ks[int(0.025*float64(len(ks)))], ks[min(int(0.975*float64(len(ks))), len(ks)-1)], true
}

func btoi(v bool) int {
	if v {
		return 1
	}
	return 0
}
