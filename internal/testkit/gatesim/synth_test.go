package gatesim

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
)

// TestSynth_MatchesPipeline holds Synth to the real pipeline: the same run
// number, drops and repeats give the same metric scores, the same repeat
// scores and the same slices as Run through the agent, the judge server
// and the runner, with a Gaussian and a coarse judge.
func TestSynth_MatchesPipeline(t *testing.T) {
	ctx := context.Background()
	for _, levels := range []int{0, 5} {
		for _, repeats := range []int{1, 3} {
			t.Run(fmt.Sprintf("levels %d repeat %d", levels, repeats), func(t *testing.T) {
				h, err := New(Config{Questions: 12, Threshold: 0.7, SD: 0.10, Seed: 11, Levels: levels, SliceSize: 4}, t.TempDir())
				if err != nil {
					t.Fatal(err)
				}
				defer h.Close()
				drop := func(i int) float64 { return 0.1 * float64(i%3) }
				real, err := h.RunDrops(ctx, 42, drop, repeats)
				if err != nil {
					t.Fatal(err)
				}
				synth := h.Synth(42, drop, repeats)
				for i, c := range real.Cases {
					s := synth.Cases[i]
					got, want := metricNamed(s, "semantic_accuracy"), metricNamed(c, "semantic_accuracy")
					if c.CaseID != s.CaseID || got == nil || want == nil || got.Score == nil || want.Score == nil || math.Abs(*got.Score-*want.Score) > 1e-12 {
						t.Errorf("%s: synth score %v, pipeline %v", c.CaseID, got, want)
					}
					if fmt.Sprint(deref(compare.RepeatScores(s)["semantic_accuracy"])) != fmt.Sprint(deref(compare.RepeatScores(c)["semantic_accuracy"])) {
						t.Errorf("%s: synth repeats %v, pipeline %v", c.CaseID, deref(compare.RepeatScores(s)["semantic_accuracy"]), deref(compare.RepeatScores(c)["semantic_accuracy"]))
					}
					var a, b map[string]any
					if s.Metadata.Decode(&a) != nil || c.Metadata.Decode(&b) != nil || fmt.Sprint(a) != fmt.Sprint(b) {
						t.Errorf("%s: synth metadata %s, pipeline %s", c.CaseID, s.Metadata, c.Metadata)
					}
				}
			})
		}
	}
}

func deref(ps []*float64) []float64 {
	out := make([]float64, 0, len(ps))
	for _, p := range ps {
		if p != nil {
			out = append(out, *p)
		}
	}
	return out
}
