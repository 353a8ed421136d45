package stats

import (
	"math"
	"testing"
)

func TestStudentTCDF(t *testing.T) {
	for _, tt := range []struct{ t, df, want float64 }{
		{0, 5, 0.5}, {-2.0, 10, 0.03669}, {2.0, 10, 0.96331}, {-1.645, 1e6, 0.04999}, {-3, 2, 0.04773},
	} {
		if got := StudentTCDF(tt.t, tt.df); math.Abs(got-tt.want) > 2e-5 {
			t.Errorf("StudentTCDF(%v, %v) = %v, want %v", tt.t, tt.df, got, tt.want)
		}
	}
}

// TestTQuantile: the quantile inverts StudentTCDF, and matches tables.
func TestTQuantile(t *testing.T) {
	for _, tt := range []struct{ p, df, want float64 }{
		{0.5, 7, 0}, {0.975, 10, 2.228139}, {0.95, 5, 2.015048}, {0.025, 30, -2.042272},
	} {
		got := TQuantile(tt.p, tt.df)
		if math.Abs(got-tt.want) > 1e-5 || math.Abs(StudentTCDF(got, tt.df)-tt.p) > 1e-12 {
			t.Errorf("TQuantile(%v, %v) = %v, want %v", tt.p, tt.df, got, tt.want)
		}
	}
}

// TestNormalQuantile against tables.
func TestNormalQuantile(t *testing.T) {
	for _, tt := range []struct{ p, want float64 }{{0.5, 0}, {0.975, 1.959964}, {0.05, -1.644854}, {0.8, 0.841621}} {
		if got := NormalQuantile(tt.p); math.Abs(got-tt.want) > 1e-6 {
			t.Errorf("NormalQuantile(%v) = %v, want %v", tt.p, got, tt.want)
		}
	}
}

// TestMoments: mean, sample variance and median by hand.
func TestMoments(t *testing.T) {
	xs := []float64{2, 4, 4, 4, 5, 5, 7, 9}
	if got := Mean(xs); got != 5 {
		t.Errorf("Mean = %v, want 5", got)
	}
	if got := Variance(xs); math.Abs(got-32.0/7) > 1e-15 {
		t.Errorf("Variance = %v, want 32/7", got)
	}
	for _, tt := range []struct {
		xs   []float64
		want float64
	}{{nil, 0}, {[]float64{3}, 3}, {[]float64{9, 1, 5}, 5}, {[]float64{4, 1, 3, 2}, 2.5}} {
		in := append([]float64(nil), tt.xs...)
		if got := Median(in); got != tt.want || (len(in) > 0 && in[0] != tt.xs[0]) {
			t.Errorf("Median(%v) = %v, want %v, input unchanged", tt.xs, got, tt.want)
		}
	}
}

// TestHolm: adjusted p-values by hand, in the input's order, monotone and
// capped at 1.
func TestHolm(t *testing.T) {
	got := Holm([]float64{0.04, 0.01, 0.03, 0.5})
	want := []float64{0.09, 0.04, 0.09, 0.5}
	for i := range want {
		if math.Abs(got[i]-want[i]) > 1e-15 {
			t.Errorf("Holm = %v, want %v", got, want)
			break
		}
	}
}

// TestSignTest compares the exact sign test with hand computations:
// p = 2 * sum_{i <= min(w,l)} C(n,i) / 2^n, at most 1.
func TestSignTest(t *testing.T) {
	tests := []struct {
		w, l int
		want float64
	}{
		{0, 0, 1},
		{1, 0, 1},                // 2 * 1/2
		{5, 0, 2.0 / 32},         // 2 * 1/32
		{8, 2, 112.0 / 1024},     // 2 * (1+10+45)/1024
		{2, 8, 112.0 / 1024},     // symmetric
		{5, 5, 1},                // capped
		{9, 3, 2 * 299.0 / 4096}, // 2 * (1+12+66+220)/4096
		{20, 0, 2 / math.Pow(2, 20)},
	}
	for _, tt := range tests {
		if got := SignTest(tt.w, tt.l); math.Abs(got-tt.want) > 1e-15 {
			t.Errorf("SignTest(%d, %d) = %v, want %v", tt.w, tt.l, got, tt.want)
		}
	}
	// Thousands of pairs stay finite and exact enough: 1000 vs 1000 is 1.
	if got := SignTest(1000, 1000); got != 1 {
		t.Errorf("SignTest(1000, 1000) = %v, want 1", got)
	}
	if got := SignTest(1100, 900); got <= 0 || got >= 0.0001 {
		t.Errorf("SignTest(1100, 900) = %v, want a small positive p", got)
	}
}
