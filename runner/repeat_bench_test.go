package runner

import (
	"fmt"
	"testing"
)

// BenchmarkExecute_Repeat measures what repeats cost in the runner itself
// (a Go agent answering at once, a scripted judge): K=1 against K=3, 200
// questions. The ratio shows the merging overhead on top of K times the
// calls, which real agents and judges dominate.
func BenchmarkExecute_Repeat(b *testing.B) {
	s := mustLoad(b, questionsSuite(200))
	j := &scriptedJudge{score: 0.7}
	for _, k := range []int{1, 3} {
		b.Run(fmt.Sprintf("K=%d", k), func(b *testing.B) {
			for b.Loop() {
				mustExecute(b, s, numberedAgent(), ExecOptions{Judge: j, Repeat: k, Concurrency: 4})
			}
		})
	}
}
