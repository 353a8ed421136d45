package gatesim

import (
	"fmt"
	"math"
	"strconv"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

// Synth builds the rows Run would store for the same run number, drops and
// repeats, without the agent and judge calls: the same verdicts (verdict
// of the same quality, run, question and repeat), the metric row holding
// their mean and response_metadata.repeat_scores holding each. It lets the
// simulation table run thousands of trials; TestSynth_MatchesPipeline
// holds it to the rows of the real pipeline.
func (h *Harness) Synth(run int, drop func(i int) float64, repeats int) *models.Run {
	repeats = max(1, repeats)
	cases := make([]runfixture.Case, len(h.truth))
	reps := make([][]*float64, len(h.truth))
	for i := range h.truth {
		quality := math.Max(0, h.truth[i]-drop(i))
		quality, _ = strconv.ParseFloat(fmt.Sprintf("%.4f", quality), 64)
		scores := make([]*float64, repeats)
		var sum float64
		for r := range repeats {
			v := h.verdict(uint64(run), caseID(i), uint64(r), quality)
			scores[r] = &v
			sum += v
		}
		mean := sum / float64(repeats)
		c := runfixture.Case{ID: caseID(i), Metrics: []runfixture.Metric{
			runfixture.NewMetric("semantic_accuracy", h.cfg.Threshold, runfixture.Score(mean))}}
		if h.cfg.SliceSize > 0 {
			c.Meta = fmt.Sprintf(`{"failure_mode":"mode-%d"}`, i/h.cfg.SliceSize)
		}
		cases[i] = c
		reps[i] = scores
	}
	r := runfixture.Build(fmt.Sprintf("01900000-0000-7000-8000-%012d", run), int64(run+1), runfixture.T0, cases...)
	if repeats > 1 {
		for i, c := range r.Cases {
			c.ResponseMetadata = models.MustJSON(models.CaseRepeats{RepeatScores: map[string][]*float64{"semantic_accuracy": reps[i]},
				Repeats: make([]models.RepeatAnswer, repeats)})
		}
	}
	return r
}
