package compare

import (
	"math"
	"math/rand/v2"
	"testing"
)

func TestTailSignFlip(t *testing.T) {
	spread := func(n int, sign func(i int) float64) []float64 {
		d := make([]float64, n)
		for i := range d {
			d[i] = sign(i) * 0.01 * float64(i+1)
		}
		return d
	}
	alternate := func(i int) float64 { return float64(1 - 2*(i%2)) }
	for _, tc := range []struct {
		name        string
		diffs       []float64
		tail, drops int
		lowP, highP float64
	}{
		{"no pairs", nil, 0, 0, 1, 1},
		{"every change zero", make([]float64, 50), 0, 0, 1, 1},
		{"only rises", spread(100, func(int) float64 { return 1 }), 12, 0, 1, 1},
		{"small suite: signs alternate, tail of minTail", spread(100, alternate), 12, 6, 0.2, 1},
		{"large suite: signs alternate, tail of a tenth", spread(200, alternate), 19, 10, 0.2, 1},
		{"the twelve largest are drops", spread(100, func(i int) float64 {
			if i >= 88 {
				return -1
			}
			return alternate(i)
		}), 12, 12, 1.0 / (tailFlips + 1), 0.001}, // 2⁻¹² ≈ 0.00024 exactly
	} {
		t.Run(tc.name, func(t *testing.T) {
			got := tailSignFlip(tc.diffs, 7, "m")
			if got.Tail != tc.tail || got.Drops != tc.drops || got.P < tc.lowP || got.P > tc.highP {
				t.Fatalf("tail %d, drops %d, p %v: want tail %d, drops %d, p in [%v, %v]", got.Tail, got.Drops, got.P, tc.tail, tc.drops, tc.lowP, tc.highP)
			}
			if again := tailSignFlip(tc.diffs, 7, "m"); again != got {
				t.Fatalf("same changes, same seed: %+v then %+v", got, again)
			}
		})
	}
}

// TestTailSignFlip_FalseAlarms is a seeded simulation of the tail test
// under no change: 200 questions whose two verdicts carry Student-t(3)
// errors (sd 0.10, clipped to [0, 1]), or errors that are wild (uniform)
// on 1 % of verdicts, 1,000 trials each. The share of trials it rejects
// at α 0.05 stays within α plus two binomial standard errors (0.064).
func TestTailSignFlip_FalseAlarms(t *testing.T) {
	const trials, n, alpha = 1000, 200, 0.05
	verdicts := map[string]func(*rand.Rand, float64) float64{
		"t(3)": func(r *rand.Rand, q float64) float64 {
			var chi float64
			for range 3 {
				g := r.NormFloat64()
				chi += g * g
			}
			return q + 0.1/math.Sqrt(3)*r.NormFloat64()/math.Sqrt(chi/3)
		},
		"wild 1%": func(r *rand.Rand, q float64) float64 {
			if r.Float64() < 0.01 {
				return r.Float64()
			}
			return q + 0.1*r.NormFloat64()
		},
	}
	for name, verdict := range verdicts {
		r := rand.New(rand.NewPCG(20261205, uint64(len(name))))
		clip := func(v float64) float64 { return math.Max(0, math.Min(1, v)) }
		rejected := 0
		for trial := range trials {
			d := make([]float64, n)
			for i := range d {
				q := 0.5 + 0.5*float64(i)/n
				d[i] = clip(verdict(r, q)) - clip(verdict(r, q))
			}
			if tailSignFlip(d, uint64(trial), name).P <= alpha {
				rejected++
			}
		}
		t.Logf("%s judge: %d of %d no-change trials rejected at α %g", name, rejected, trials, alpha)
		if float64(rejected)/trials > alpha+2*math.Sqrt(alpha*(1-alpha)/trials) {
			t.Errorf("%s judge: the tail test rejected %d of %d no-change trials at α %g", name, rejected, trials, alpha)
		}
	}
}
