package report

import (
	"bytes"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"testing"
	"time"

	"agentevals/compare"
	"agentevals/internal/runfixture"
	"agentevals/models"
)

func TestCompareAB(t *testing.T) {
	tests := []struct {
		shift float64
		want  string
	}{{0.2, compare.VerdictBBetter}, {-0.2, compare.VerdictBWorse}, {0, compare.VerdictNoDifference}}
	for _, tt := range tests {
		a, b := runfixture.ABRuns(tt.shift)
		ab, err := compare.CompareAB(a, b, compare.Options{})
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
	if _, err := compare.CompareAB(a, b, compare.Options{}); !errors.Is(err, compare.ErrIncompatible) {
		t.Fatalf("different definitions: error %v, want ErrIncompatible", err)
	}
}

func TestRenderer_RenderABGolden(t *testing.T) {
	a, b := runfixture.ABRuns(0.1)
	ab, err := compare.CompareAB(a, b, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	var buf bytes.Buffer
	if err := mustRenderer(t).RenderAB(&buf, FormatText, ab); err != nil {
		t.Fatal(err)
	}
	path := filepath.Join("testdata", "ab.txt")
	if *update {
		if err := os.WriteFile(path, buf.Bytes(), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	want, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Equal(buf.Bytes(), want) {
		t.Errorf("%s differs; run with -update and review the diff", path)
	}
	if err := mustRenderer(t).RenderAB(&buf, FormatHTML, ab); !errors.Is(err, ErrUnknownFormat) {
		t.Errorf("html A/B: error %v, want ErrUnknownFormat", err)
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
		{"one question newly fails", []float64{1, 1, 1}, []float64{0, 1, 1}, compare.VerdictBRegressed,
			"1 question newly fails, 1 regression (quality difference -0.333, 95% CI [-1.000, 0.000], p = 0.5 for a drop, not significant on 3 questions)", 1},
		// Three pairs cannot make a drop significant (the exact sign-flip
		// test's smallest p-value is 1/8), but three deterministic checks
		// that newly fail regress one by one.
		{"all fail", []float64{1, 1, 1}, []float64{0, 0, 0}, compare.VerdictBRegressed,
			"3 questions newly fail, 3 regressions (quality difference -1.000, 95% CI [-1.000, -1.000], p = 0.12 for a drop, not significant on 3 questions)", 3},
		{"one fixed", []float64{0, 1, 1}, []float64{1, 1, 1}, compare.VerdictNoDifference,
			"1 question newly passes, no regressions (quality difference +0.333, 95% CI [0.000, 1.000], p = 0.5 for a rise, not significant on 3 questions)", 0},
		{"unchanged", []float64{1, 1, 1}, []float64{1, 1, 1}, compare.VerdictNoDifference,
			"no regressions (quality difference +0.000, 95% CI [0.000, 0.000], p = 1 for a drop, not significant on 3 questions)", 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			a := runfixture.Build("01900000-0000-7000-8000-000000000401", 1, runfixture.T0, three(tt.a...)...)
			b := runfixture.Build("01900000-0000-7000-8000-000000000402", 2, runfixture.T0.Add(time.Hour), three(tt.b...)...)
			ab, err := compare.CompareAB(a, b, compare.Options{})
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
	diff := compare.Stat{N: 5, Mean: &m, CI: &compare.Interval{Low: -0.3, High: 0.1}}
	p := 0.2
	drop := compare.PairedTest{N: 5, MeanChange: &m, P: &p}
	reg := compare.ABChanges{Regressions: 2}
	tests := []struct {
		name    string
		overall string
		ch      compare.ABChanges
		want    string
	}{
		{"better, clean", compare.VerdictBBetter, compare.ABChanges{}, compare.VerdictBBetter},
		{"better, regressed", compare.VerdictBBetter, reg, compare.VerdictMixed},
		{"worse, regressed", compare.VerdictBWorse, reg, compare.VerdictBWorse},
		{"worse within tolerance", compare.VerdictBWorse, compare.ABChanges{}, compare.VerdictBWorse},
		{"flat, regressed", compare.VerdictNoDifference, reg, compare.VerdictBRegressed},
		{"flat, drops within noise only", compare.VerdictNoDifference, compare.ABChanges{WithinNoise: 7, NewlyFailing: 3}, compare.VerdictNoDifference},
		{"flat, clean", compare.VerdictNoDifference, compare.ABChanges{}, compare.VerdictNoDifference},
		{"no data", compare.VerdictNoData, reg, compare.VerdictNoData},
	}
	for _, tt := range tests {
		if got, _ := compare.AbVerdict(tt.overall, diff, drop, drop, tt.ch); got != tt.want {
			t.Errorf("%s: verdict %q, want %q", tt.name, got, tt.want)
		}
	}
}

// An errored metric has a NULL score: compare shows "—" as the dashboard
// does and reports null with error_a, never 0.000.
func TestCompareAB_ErroredScoreIsDash(t *testing.T) {
	a, b := runfixture.ABRuns(0.1)
	a.Cases[0].Metrics[0].Score = nil
	a.Cases[0].Metrics[0].ErrorDetails = models.JSON(`{"message":"judge timed out"}`)
	ab, err := compare.CompareAB(a, b, compare.Options{})
	if err != nil {
		t.Fatal(err)
	}
	if m := ab.Cases[0].Metrics[0]; m.A != nil || !m.ErrorA || m.Delta != nil {
		t.Errorf("errored metric: A %v, ErrorA %v, Delta %v; want nil, true, nil", m.A, m.ErrorA, m.Delta)
	}
	var buf bytes.Buffer
	if err := mustRenderer(t).RenderAB(&buf, FormatText, ab); err != nil {
		t.Fatal(err)
	}
	if got, want := buf.String(), "judge                  — -> 0.700"; !bytes.Contains([]byte(got), []byte(want)) {
		t.Errorf("text A/B lacks %q:\n%s", want, got)
	}
}
