package calibrate

import "testing"

// labels builds n pairs: the first pass of them passing on the human side,
// the judge agreeing on all but the last disagree pairs.
func labels(n, pass, disagree int) (human, judge []bool) {
	for i := range n {
		h := i < pass
		human = append(human, h)
		judge = append(judge, h != (i >= n-disagree))
	}
	return human, judge
}

func TestKappaInterval(t *testing.T) {
	for _, tc := range []struct {
		name                 string
		n, pass, disagree    int
		lowAtLeast, lowBelow float64
		highAtLeast          float64
	}{
		// Ten of ten agree: the bootstrap alone said [1.00, 1.00]; the
		// Wilson bound of 10/10 (0.72) at chance agreement 0.5 is 0.44.
		{"perfect on 10 labels", 10, 5, 0, 0.40, 0.50, 1},
		{"perfect on 20 labels", 20, 10, 0, 0.60, 0.70, 1},
		{"perfect on 200 labels", 200, 100, 0, 0.95, 0.98, 1},
		{"36 of 40 agree", 40, 20, 4, 0.5, 0.8, 0.9},
	} {
		t.Run(tc.name, func(t *testing.T) {
			h, j := labels(tc.n, tc.pass, tc.disagree)
			k, _ := CohenKappa(h, j)
			low, high, ok := KappaInterval(h, j)
			if !ok || low < tc.lowAtLeast || low >= tc.lowBelow || high < tc.highAtLeast || high > 1 || low > k || high < k {
				t.Fatalf("kappa %.3f, interval [%.3f, %.3f] ok %v: want the low end in [%.2f, %.2f) and the high end at least %.2f", k, low, high, ok, tc.lowAtLeast, tc.lowBelow, tc.highAtLeast)
			}
			if l2, h2, _ := KappaInterval(h, j); l2 != low || h2 != high {
				t.Fatalf("same labels: [%v, %v] then [%v, %v]", low, high, l2, h2)
			}
		})
	}
	if _, _, ok := KappaInterval([]bool{true, true}, []bool{true, true}); ok {
		t.Error("one label throughout: kappa is undefined, want no interval")
	}
}
