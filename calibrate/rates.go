package calibrate

import "math"

// rates are the judge's true-positive rate (passes among the human
// passes) and true-negative rate (fails among the human fails).
func rates(human, judge []bool) (tpr, tnr *float64) {
	var pos, neg, tp, tn float64
	for i, h := range human {
		switch {
		case h:
			pos++
			if judge[i] {
				tp++
			}
		default:
			neg++
			if !judge[i] {
				tn++
			}
		}
	}
	if pos > 0 {
		v := tp / pos
		tpr = &v
	}
	if neg > 0 {
		v := tn / neg
		tnr = &v
	}
	return tpr, tnr
}

// Pearson is the correlation of x and y; nil with fewer than three pairs
// or when either is constant.
func Pearson(x, y []float64) *float64 {
	n := len(x)
	if n < 3 || n != len(y) {
		return nil
	}
	var mx, my float64
	for i := range x {
		mx += x[i]
		my += y[i]
	}
	mx /= float64(n)
	my /= float64(n)
	var sxy, sxx, syy float64
	for i := range x {
		dx, dy := x[i]-mx, y[i]-my
		sxy += dx * dy
		sxx += dx * dx
		syy += dy * dy
	}
	if sxx == 0 || syy == 0 {
		return nil
	}
	r := sxy / math.Sqrt(sxx*syy)
	return &r
}

func asFloats(b []bool) []float64 {
	out := make([]float64, len(b))
	for i, v := range b {
		if v {
			out[i] = 1
		}
	}
	return out
}
