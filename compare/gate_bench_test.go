package compare

import (
	"testing"

	"agentevals/internal/runfixture"
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
