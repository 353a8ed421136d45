package calibrate

import (
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

// KappaInterval is the 95 % bootstrap interval of Cohen's kappa of a and
// b (resampling the pairs), ok false when kappa is undefined on the labels
// themselves. Resamples on which kappa is undefined (one label throughout)
// are left out.
func KappaInterval(a, b []bool) (low, high float64, ok bool) {
	if _, ok := CohenKappa(a, b); !ok {
		return 0, 0, false
	}
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
