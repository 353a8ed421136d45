package gatesim

import (
	"context"
	"fmt"
	"math"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

// TestGate_Simulation is the ci gate's acceptance test: 200 judged
// questions (semantic_accuracy >= 0.7) and a judge whose verdicts carry
// noise of sd 0.10, through the pipeline. Over 40 pairs whose true
// quality dropped by 0.05 the ci gate must flag at least 95 % (38). Over
// 40 no-change pairs it may flag at most 4: a gate whose false alarms stay
// within 5 % flags 5 or more of 40 less than 5 % of the time (forty pairs
// cannot tell 4 % from 5 %; the 200-trial tables of package localized and
// binarysim measure the rate itself). Both hold with one verdict per question and
// with the runner's --repeat 3 (each question answered and judged three
// times, the metric rows holding the means). Seeds are fixed, so the
// counts are the same on every machine and every run. The strict gate's
// counts are logged for comparison.
func TestGate_Simulation(t *testing.T) {
	// maxNoChange is the 95th percentile of Binomial(40, 0.05).
	const pairs, maxNoChange = 40, 4
	h, err := New(Config{Questions: 200, Threshold: 0.7, SD: 0.10, Seed: 20261201}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	// firstRun keeps the repeat-3 pairs' noise independent of the
	// single-verdict pairs' (noise is keyed on the run number).
	for _, tc := range []struct{ repeats, firstRun int }{{1, 0}, {3, 1000}} {
		t.Run(fmt.Sprintf("repeat %d", tc.repeats), func(t *testing.T) {
			var sameStrict, sameCI, dropStrict, dropCI int
			for p := range pairs {
				run := tc.firstRun + 3*p
				base, err := h.Run(ctx, run, 0, tc.repeats)
				if err != nil {
					t.Fatal(err)
				}
				cand, err := h.Run(ctx, run+1, 0, tc.repeats)
				if err != nil {
					t.Fatal(err)
				}
				worse, err := h.Run(ctx, run+2, 0.05, tc.repeats)
				if err != nil {
					t.Fatal(err)
				}
				same, dropped := Gate(cand, base), Gate(worse, base)
				sameStrict, sameCI = sameStrict+b2i(same.Strict), sameCI+b2i(same.CI)
				dropStrict, dropCI = dropStrict+b2i(dropped.Strict), dropCI+b2i(dropped.CI)
			}
			t.Logf("repeat %d: no change: strict flagged %d of %d, ci %d of %d; drop 0.05: strict %d of %d, ci %d of %d",
				tc.repeats, sameStrict, pairs, sameCI, pairs, dropStrict, pairs, dropCI, pairs)
			if sameCI > maxNoChange {
				t.Errorf("ci gate flagged %d of %d no-change pairs, want at most %d (a 5 %% rate flags more in under 5 %% of such tables)", sameCI, pairs, maxNoChange)
			}
			if dropCI < pairs*95/100 {
				t.Errorf("ci gate flagged %d of %d pairs with a true 0.05 drop, want at least %d (95%%)", dropCI, pairs, pairs*95/100)
			}
		})
	}
}

// TestHarness_Repeats checks that the simulation's repeats are the
// runner's: a run with repeats 3 stores three verdicts per question, each
// with its own noise, and the metric row's score is their mean; and the
// scores do not depend on the runner's concurrency (the repeat index
// reaches the judge through the answer, not through the order of calls).
func TestHarness_Repeats(t *testing.T) {
	ctx := context.Background()
	scores := map[int][]float64{}
	for _, conc := range []int{1, 8} {
		h, err := New(Config{Questions: 12, Threshold: 0.7, SD: 0.10, Seed: 7, Concurrency: conc}, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		run, err := h.Run(ctx, 5, 0, 3)
		h.Close()
		if err != nil {
			t.Fatal(err)
		}
		var sum struct {
			Repeats int `json:"repeats"`
		}
		if err := run.Summary.Decode(&sum); err != nil || sum.Repeats != 3 {
			t.Fatalf("summary repeats = %d (%v), want 3", sum.Repeats, err)
		}
		for _, c := range run.Cases {
			var meta struct {
				RepeatScores map[string][]float64 `json:"repeat_scores"`
			}
			if err := c.ResponseMetadata.Decode(&meta); err != nil {
				t.Fatal(err)
			}
			reps := meta.RepeatScores["semantic_accuracy"]
			if len(reps) != 3 || (reps[0] == reps[1] && reps[1] == reps[2]) {
				t.Errorf("%s: repeat scores %v, want three verdicts with their own noise", c.CaseID, reps)
				continue
			}
			m := metricNamed(c, "semantic_accuracy")
			if m == nil || m.Score == nil || math.Abs(*m.Score-(reps[0]+reps[1]+reps[2])/3) > 1e-12 {
				t.Errorf("%s: metric row %+v, want the mean of %v", c.CaseID, m, reps)
				continue
			}
			scores[conc] = append(scores[conc], *m.Score)
		}
	}
	if fmt.Sprint(scores[1]) != fmt.Sprint(scores[8]) {
		t.Errorf("scores at concurrency 1 %v differ from concurrency 8 %v", scores[1], scores[8])
	}
}

func metricNamed(c *models.CaseResult, name string) *models.MetricResult {
	for _, m := range c.Metrics {
		if m.Name == name {
			return m
		}
	}
	return nil
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
