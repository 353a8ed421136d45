// Package localized_test holds the ci gate's localized acceptance table,
// apart from package gatesim so that each fits its own test timeout.
package localized_test

import (
	"fmt"
	"slices"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/gatesim"
)

// scenario is one kind of candidate of the localized simulation.
type scenario struct {
	name string
	// drop gives each question's true drop in trial t.
	drop func(t int) func(i int) float64
	// min is the least share of trials the ci gate must flag (max for
	// the no-change scenario, where it is the most).
	share float64
}

// scenarios are the four candidates of the acceptance table: no change,
// every question 0.05 worse, 9 questions (chosen afresh each trial,
// anywhere in the suite) 0.4 worse, one 20-question slice (a different one
// each trial) 0.3 worse.
func scenarios(questions, slice int) []scenario {
	return []scenario{
		{"no change", func(int) func(int) float64 { return func(int) float64 { return 0 } }, 0.05},
		{"uniform -0.05", func(int) func(int) float64 { return func(int) float64 { return 0.05 } }, 0.95},
		{"9 questions -0.4", func(t int) func(int) float64 { return gatesim.NineDropped(t, questions) }, 0.80},
		{"slice of 20 -0.3", func(t int) func(int) float64 { return gatesim.SliceDropped(t, questions, slice) }, 0.90},
	}
}

// judges are the noise models of the acceptance table, all of sd 0.10.
var judges = []struct {
	name   string
	levels int
	noise  string
}{{"gaussian", 0, gatesim.NoiseGaussian}, {"coarse 5-level", 5, gatesim.NoiseGaussian},
	{"t(3)", 0, gatesim.NoiseT3}, {"wild 1%", 0, gatesim.NoiseWild}}

// TestGate_Localized is the acceptance table of the ci gate's localized
// tests: 200 judged questions in ten failure-mode slices of 20, minimum
// 0.7, judge noise sd 0.10 shaped as a Gaussian, a coarse five-level, a
// Student-t(3) judge and a judge that is wildly wrong (uniform) on 1 % of
// verdicts, with one verdict per question and --repeat 3. Every trial
// compares a candidate with a fresh baseline of its own (distinct run
// numbers, so distinct noise), so the trials of a cell are independent.
// The ci gate, deciding as evalrun run --gate ci --fail-on regressions
// does, must flag at most 5 % of no-change trials (all its tests
// together) for every judge and repeat count; with the Gaussian judge it
// must find nine questions dropping by 0.4 in at least nineFloor of 200
// trials with one verdict and 95 % with --repeat 3; a uniform drop of
// 0.05 must name a slice in at most 5 % of trials and a one-slice drop of
// 0.3 must name that slice in at least 95 %. The rows are Synth's, whose
// verdicts TestSynth_MatchesPipeline holds to the real pipeline's.
func TestGate_Localized(t *testing.T) {
	const trials, manyTrials, questions, slice = 40, 200, 200, 20
	var table strings.Builder
	fmt.Fprintf(&table, "| judge | repeats | scenario | ci flagged | slice named | right slice |\n|---|---|---|---|---|---|\n")
	for ji, judge := range judges {
		h, err := gatesim.New(gatesim.Config{Questions: questions, Threshold: 0.7, SD: 0.10, Seed: 20261202,
			Levels: judge.levels, Noise: judge.noise, SliceSize: slice}, t.TempDir())
		if err != nil {
			t.Fatal(err)
		}
		defer h.Close()
		for _, repeats := range []int{1, 3} {
			for si, sc := range scenarios(questions, slice) {
				flagged, named, right := 0, 0, 0
				n := trials
				if sc.name == "no change" || sc.name == "9 questions -0.4" {
					n = manyTrials
				}
				for tr := range n {
					run := 100000*(ji+1) + 10000*repeats + 1000*si + 2*tr
					base := h.Synth(run, func(int) float64 { return 0 }, repeats)
					cand := h.Synth(run+1, sc.drop(tr), repeats)
					ci, cmp := gatesim.GateCI(cand, base)
					flagged += b2i(ci)
					got := namedSlices(cmp.Localized)
					named += b2i(len(got) > 0)
					want := fmt.Sprintf("failure_mode=mode-%d", tr%(questions/slice))
					right += b2i(len(got) == 1 && got[0] == want)
				}
				fmt.Fprintf(&table, "| %s | %d | %s | %d/%d | %d/%d | %d/%d |\n", judge.name, repeats, sc.name,
					flagged, n, named, n, right, n)
				check(t, judge.name, repeats, sc.name, n, flagged, named, right)
			}
		}
	}
	t.Log("\n" + table.String())
}

// check holds one cell of the table to the acceptance rules.
func check(t *testing.T, judge string, repeats int, scenario string, n, flagged, named, right int) {
	t.Helper()
	share := func(k int) float64 { return float64(k) / float64(n) }
	switch scenario {
	case "no change":
		if share(flagged) > 0.05 {
			t.Errorf("%s judge, repeat %d: ci gate flagged %d of %d no-change trials, want at most 5%%", judge, repeats, flagged, n)
		}
	case "uniform -0.05":
		if share(named) > 0.05 {
			t.Errorf("%s judge, repeat %d: a uniform drop named a slice in %d of %d trials, want at most 5%%", judge, repeats, named, n)
		}
	case "9 questions -0.4":
		want := nineFloor
		if repeats > 1 {
			want = 0.95
		}
		if judge == "gaussian" && share(flagged) < want {
			t.Errorf("gaussian judge, repeat %d: nine questions dropping 0.4 flagged in %d of %d, want at least %.0f%%", repeats, flagged, n, 100*want)
		}
	case "slice of 20 -0.3":
		if judge != "wild 1%" && share(right) < 0.95 {
			t.Errorf("%s judge, repeat %d: the dropped slice alone was named in %d of %d, want at least 95%%", judge, repeats, right, n)
		}
	}
}

// nineFloor is the least share of trials in which nine questions dropping
// by 0.4 must fail the gate with one verdict per question and a Gaussian
// judge. With one verdict a question's drop can only be told from a
// judge's rare large error by the signs of the largest changes, so the
// share rests on the α the question family gets (four fifths of it).
const nineFloor = 0.80

// namedSlices are the regressed slices of a localization, each once.
func namedSlices(l *compare.Localization) []string {
	var out []string
	if l == nil {
		return nil
	}
	for _, s := range l.Slices {
		if s.Regressed && !slices.Contains(out, s.Name()) {
			out = append(out, s.Name())
		}
	}
	return out
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
