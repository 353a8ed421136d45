package compare

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

func TestCompareAB(t *testing.T) {
	tests := []struct {
		shift float64
		want  string
	}{{0.2, VerdictBBetter}, {-0.2, VerdictBWorse}, {0, VerdictNoDifference}}
	for _, tt := range tests {
		a, b := runfixture.ABRuns(tt.shift)
		ab, err := AB(a, b, Options{})
		if err != nil {
			t.Fatal(err)
		}
		if ab.Verdict != tt.want || ab.Metrics[0].Verdict != tt.want {
			t.Errorf("shift %v: verdict %q (metric %q), want %q", tt.shift, ab.Verdict, ab.Metrics[0].Verdict, tt.want)
		}
		if ab.Difference.N != 20 || len(ab.Cases) != 20 {
			t.Errorf("shift %v: %d paired questions, want 20", tt.shift, ab.Difference.N)
		}
	}
	a, b := runfixture.ABRuns(0.1)
	b.SuiteDigest = "other"
	b.Cases[3].MinimumScores = models.JSON(`{"judge":0.7}`)
	if _, err := AB(a, b, Options{}); !errors.Is(err, ErrIncompatible) {
		t.Fatalf("different definitions: error %v, want ErrIncompatible", err)
	}
}

// TestCompareAB_VerdictAccountsForFindings: a question that goes from pass
// to fail is never summed up as "no significant difference".
func TestCompareAB_VerdictAccountsForFindings(t *testing.T) {
	three := func(scores ...float64) []runfixture.Case {
		var cs []runfixture.Case
		for i, s := range scores {
			cs = append(cs, runfixture.Case{ID: fmt.Sprintf("q%d", i), Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(s))}})
		}
		return cs
	}
	tests := []struct {
		name       string
		a, b       []float64
		verdict    string
		detail     string
		newlyFails int
	}{
		{"one question newly fails", []float64{1, 1, 1}, []float64{0, 1, 1}, VerdictBRegressed,
			"1 question newly fails, 1 regression (quality difference -0.333, 95% CI [-1.000, 0.000], p = 0.5 for a drop, the average alone does not show it on 3 questions)", 1},
		// Three pairs cannot make a drop significant (the exact sign-flip
		// test's smallest p-value is 1/8), but three deterministic checks
		// that newly fail regress one by one.
		{"all fail", []float64{1, 1, 1}, []float64{0, 0, 0}, VerdictBRegressed,
			"3 questions newly fail, 3 regressions (quality difference -1.000, 95% CI [-1.000, -1.000], p = 0.12 for a drop, the average alone does not show it on 3 questions)", 3},
		{"one fixed", []float64{0, 1, 1}, []float64{1, 1, 1}, VerdictNoDifference,
			"1 question newly passes, no regressions (quality difference +0.333, 95% CI [0.000, 1.000], p = 0.5 for a rise, not significant on 3 questions)", 0},
		{"unchanged", []float64{1, 1, 1}, []float64{1, 1, 1}, VerdictNoDifference,
			"no regressions (quality difference +0.000, 95% CI [0.000, 0.000], p = 1 for a drop, not significant on 3 questions)", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := runfixture.Build("01900000-0000-7000-8000-000000000401", 1, runfixture.T0, three(tt.a...)...)
			b := runfixture.Build("01900000-0000-7000-8000-000000000402", 2, runfixture.T0.Add(time.Hour), three(tt.b...)...)
			ab, err := AB(a, b, Options{})
			if err != nil {
				t.Fatal(err)
			}
			if ab.Verdict != tt.verdict || ab.VerdictDetail != tt.detail || ab.Changes.NewlyFailing != tt.newlyFails {
				t.Errorf("verdict %q: %q (newly failing %d)\nwant %q: %q (%d)", ab.Verdict, ab.VerdictDetail,
					ab.Changes.NewlyFailing, tt.verdict, tt.detail, tt.newlyFails)
			}
		})
	}
}

func TestABVerdict_Rules(t *testing.T) {
	m := -0.1
	diff := Stat{N: 5, Mean: &m, CI: &Interval{Low: -0.3, High: 0.1}}
	p := 0.2
	drop := PairedTest{N: 5, MeanChange: &m, P: &p}
	reg := ABChanges{Regressions: 2}
	tests := []struct {
		name    string
		overall string
		ch      ABChanges
		want    string
	}{
		{"better, clean", VerdictBBetter, ABChanges{}, VerdictBBetter},
		{"better, regressed", VerdictBBetter, reg, VerdictMixed},
		{"worse, regressed", VerdictBWorse, reg, VerdictBWorse},
		{"worse within tolerance", VerdictBWorse, ABChanges{}, VerdictBWorse},
		{"flat, regressed", VerdictNoDifference, reg, VerdictBRegressed},
		{"flat, drops within noise only", VerdictNoDifference, ABChanges{WithinNoise: 7, NewlyFailing: 3}, VerdictNoDifference},
		{"flat, clean", VerdictNoDifference, ABChanges{}, VerdictNoDifference},
		{"no data", VerdictNoData, reg, VerdictNoData},
	}
	for _, tt := range tests {
		if got, _ := ABVerdict(tt.overall, diff, drop, drop, tt.ch); got != tt.want {
			t.Errorf("%s: verdict %q, want %q", tt.name, got, tt.want)
		}
	}
}
