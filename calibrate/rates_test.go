package calibrate

import (
	"math"
	"testing"
)

func TestPearson(t *testing.T) {
	for _, tt := range []struct {
		x, y []float64
		want float64 // NaN: undefined
	}{
		{[]float64{1, 2, 3}, []float64{2, 4, 6}, 1},
		{[]float64{1, 2, 3}, []float64{6, 4, 2}, -1},
		// mx 2.5, my 2.5; sxy = 1.5·(-0.5)... by hand: x 1 2 3 4, y 2 1 4 3:
		// sxy = (-1.5)(-0.5)+(-0.5)(-1.5)+(0.5)(1.5)+(1.5)(0.5) = 3, sxx = syy = 5 → 0.6.
		{[]float64{1, 2, 3, 4}, []float64{2, 1, 4, 3}, 0.6},
		{[]float64{1, 2}, []float64{1, 2}, math.NaN()},
		{[]float64{1, 1, 1}, []float64{1, 2, 3}, math.NaN()},
	} {
		got := Pearson(tt.x, tt.y)
		switch {
		case math.IsNaN(tt.want) && got != nil:
			t.Errorf("Pearson(%v, %v) = %v, want undefined", tt.x, tt.y, *got)
		case !math.IsNaN(tt.want) && (got == nil || math.Abs(*got-tt.want) > 1e-12):
			t.Errorf("Pearson(%v, %v) = %v, want %v", tt.x, tt.y, got, tt.want)
		}
	}
}

// TestCalibrate_RatesAndLength: TPR, TNR and the length correlations by
// hand. Human passes a b c, fails d e; the judge passes a b d.
func TestCalibrate_RatesAndLength(t *testing.T) {
	p, f := true, false
	sc := func(v float64) *float64 { return &v }
	labels := []Label{{CaseID: "a", Metric: "m", Pass: &p}, {CaseID: "b", Metric: "m", Pass: &p}, {CaseID: "c", Metric: "m", Pass: &p},
		{CaseID: "d", Metric: "m", Pass: &f}, {CaseID: "e", Metric: "m", Pass: &f}}
	judged := []JudgedMetric{
		{CaseID: "a", Metric: "m", Threshold: 0.5, Score: sc(1), Passed: true, AnswerLength: 400},
		{CaseID: "b", Metric: "m", Threshold: 0.5, Score: sc(0.9), Passed: true, AnswerLength: 300},
		{CaseID: "c", Metric: "m", Threshold: 0.5, Score: sc(0.2), Passed: false, AnswerLength: 100},
		{CaseID: "d", Metric: "m", Threshold: 0.5, Score: sc(0.8), Passed: true, AnswerLength: 200},
		{CaseID: "e", Metric: "m", Threshold: 0.5, Score: sc(0.1), Passed: false, AnswerLength: 100},
	}
	m := Calibrate(labels, judged)[0]
	if m.TPR == nil || math.Abs(*m.TPR-2.0/3) > 1e-12 || m.TNR == nil || *m.TNR != 0.5 {
		t.Errorf("TPR %v TNR %v, want 2/3 and 1/2", m.TPR, m.TNR)
	}
	wantJ := Pearson([]float64{1, 0.9, 0.2, 0.8, 0.1}, []float64{400, 300, 100, 200, 100})
	if m.LengthJudge == nil || *m.LengthJudge != *wantJ || *m.LengthJudge < 0.8 {
		t.Errorf("length correlation of the judge = %v, want %v (strong)", m.LengthJudge, *wantJ)
	}
	if m.LengthHuman == nil || *m.LengthHuman >= *m.LengthJudge {
		t.Errorf("length correlation of the human = %v, want below the judge's", m.LengthHuman)
	}
}
