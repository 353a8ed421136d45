package compare

import (
	"fmt"
	"testing"

	"github.com/agentevals-go/agentevals/models"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
)

// BenchmarkCompare_Gate measures what the ci gate's tests cost on 200
// judged questions next to the strict gate on the same runs (the
// baseline): go test ./compare -run ^$ -bench Compare_Gate.
func BenchmarkCompare_Gate(b *testing.B) {
	base, cand := runfixture.JudgedRuns(200, 0.02, 5)
	for _, gate := range []string{GateStrict, GateCI} {
		b.Run(gate, func(b *testing.B) {
			for b.Loop() {
				Compare(cand, base, Options{Gate: gate})
			}
		})
	}
}

// BenchmarkCompare_GateSlices is BenchmarkCompare_Gate with the questions
// in ten failure-mode slices of 20, so the ci gate also runs its slice
// tests: go test ./compare -run ^$ -bench Compare_Gate.
func BenchmarkCompare_GateSlices(b *testing.B) {
	base, cand := runfixture.JudgedRuns(200, 0.02, 5)
	for _, r := range []*models.Run{base, cand} {
		for i, c := range r.Cases {
			c.Metadata = models.MustJSON(map[string]string{"failure_mode": fmt.Sprintf("mode-%d", i/20)})
		}
	}
	for _, gate := range []string{GateStrict, GateCI} {
		b.Run(gate, func(b *testing.B) {
			for b.Loop() {
				Compare(cand, base, Options{Gate: gate})
			}
		})
	}
}

// BenchmarkBootstrap is one interval of 5,000 values: all equal (every
// case passed with the same score), or mixed.
func BenchmarkBootstrap(b *testing.B) {
	equal, mixed := make([]float64, 5000), make([]float64, 5000)
	for i := range equal {
		equal[i], mixed[i] = 1, float64(i%10)/10
	}
	for _, tc := range []struct {
		name   string
		values []float64
	}{{"equal", equal}, {"mixed", mixed}} {
		b.Run(tc.name, func(b *testing.B) {
			for b.Loop() {
				Bootstrap(tc.values, DefaultResamples, DefaultSeed, "quality")
			}
		})
	}
}
