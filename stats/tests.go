package stats

import (
	"math"
	"math/big"
	"sort"
)

// Holm returns Holm's step-down adjusted p-values of ps, in the order of
// ps: the i-th smallest p times (m−i+1), made non-decreasing and capped at
// 1. Rejecting every test whose adjusted p is at most α keeps the chance
// of any false rejection at most α, whatever the tests' dependence.
func Holm(ps []float64) []float64 {
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

// SignTest is the exact two-sided sign test of w successes against l
// failures under p = 1/2: twice the binomial tail of the smaller count,
// at most 1. It is 1 when w + l is 0.
func SignTest(w, l int) float64 {
	n := w + l
	k := min(w, l)
	if n == 0 {
		return 1
	}
	// The tail sum(C(n,i), i <= k) over 2^(n-1), in integers: exact for
	// any n, where float binomials of a few thousand pairs overflow.
	tail, c := new(big.Int), big.NewInt(1)
	for i := 0; i <= k; i++ {
		tail.Add(tail, c)
		c.Mul(c, big.NewInt(int64(n-i))).Quo(c, big.NewInt(int64(i+1)))
	}
	p, _ := new(big.Rat).SetFrac(tail, new(big.Int).Lsh(big.NewInt(1), uint(n-1))).Float64()
	return math.Min(1, p)
}
