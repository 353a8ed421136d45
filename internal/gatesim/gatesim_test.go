package gatesim

import (
	"context"
	"testing"
)

// TestGate_Simulation is the ci gate's acceptance test: 200 judged
// questions (semantic_accuracy >= 0.7) and a judge whose verdicts carry
// noise of sd 0.10. Over 40 no-change run pairs the ci gate may flag at
// most 5 % (2); over 40 pairs whose true quality dropped by 0.05 it must
// flag at least 95 % (38). Seeds are fixed, so the counts are the same on
// every machine and every run. The strict gate's counts are logged for
// comparison.
func TestGate_Simulation(t *testing.T) {
	const pairs = 40
	h, err := New(Config{Questions: 200, Threshold: 0.7, SD: 0.10, Seed: 20261201}, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	defer h.Close()
	ctx := context.Background()
	var same, dropped Outcome
	var sameStrict, sameCI, dropStrict, dropCI int
	for p := range pairs {
		base, err := h.Run(ctx, 3*p, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		cand, err := h.Run(ctx, 3*p+1, 0, 1)
		if err != nil {
			t.Fatal(err)
		}
		worse, err := h.Run(ctx, 3*p+2, 0.05, 1)
		if err != nil {
			t.Fatal(err)
		}
		same, dropped = Gate(cand, base), Gate(worse, base)
		sameStrict, sameCI = sameStrict+b2i(same.Strict), sameCI+b2i(same.CI)
		dropStrict, dropCI = dropStrict+b2i(dropped.Strict), dropCI+b2i(dropped.CI)
	}
	t.Logf("no change: strict flagged %d of %d, ci %d of %d; drop 0.05: strict %d of %d, ci %d of %d",
		sameStrict, pairs, sameCI, pairs, dropStrict, pairs, dropCI, pairs)
	if sameCI > pairs/20 {
		t.Errorf("ci gate flagged %d of %d no-change pairs, want at most %d (5%%)", sameCI, pairs, pairs/20)
	}
	if dropCI < pairs*95/100 {
		t.Errorf("ci gate flagged %d of %d pairs with a true 0.05 drop, want at least %d (95%%)", dropCI, pairs, pairs*95/100)
	}
}

func b2i(b bool) int {
	if b {
		return 1
	}
	return 0
}
