package report

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
)

// TestCompare_GateCI_JudgeNoise: judge noise gates under the strict gate,
// not under ci; a true 0.05 drop gates under ci, and the text report states
// the ci settings (so the test lives here, not in compare).
func TestCompare_GateCI_JudgeNoise(t *testing.T) {
	base, same := runfixture.JudgedRuns(200, 0, 7)
	strict := compare.Compare(same, base, compare.Options{})
	if !strict.Regressed() {
		t.Fatal("strict gate: judge noise around the minimum must still gate (the gem's rule)")
	}
	ci := compare.Compare(same, base, compare.Options{Gate: compare.GateCI})
	if ci.Regressed() {
		t.Fatalf("ci gate: no change gated: %+v", ci.Metrics[0].Test)
	}
	var newFailures int
	for _, f := range ci.Findings {
		if f.Kind == compare.NewFailure {
			newFailures++
			if f.Gating || !strings.Contains(f.Why, "judge metrics gate in aggregate") || !strings.Contains(f.Why, "p = ") {
				t.Fatalf("judge new failure under ci: %+v, want not gating with the aggregate test", f)
			}
		}
	}
	if newFailures == 0 {
		t.Fatal("the fixture should have noise-driven new failures")
	}
	mt := ci.Metrics[0].Test
	if mt == nil || !mt.Judged || mt.Flips == nil || mt.Verdict == compare.TestRegressed {
		t.Fatalf("semantic_accuracy test %+v: want judged, with flips, not regressed", mt)
	}
	if ex := ci.Metrics[1].Test; ex == nil || ex.Judged || ex.Verdict != compare.TestNoPairs && ex.Verdict != compare.TestWithinNoise && ex.Verdict != compare.TestNoDrop {
		t.Fatalf("exact test %+v: want a deterministic metric without a drop", ex)
	}

	_, worse := runfixture.JudgedRuns(200, 0.05, 7)
	ci = compare.Compare(worse, base, compare.Options{Gate: compare.GateCI})
	regs := ci.Regressions()
	if !ci.Regressed() || regs[0].Kind != compare.MetricDrop && regs[0].Kind != compare.MetricFlips || !strings.Contains(regs[0].Message, "regressed: ") {
		t.Fatalf("ci gate: a 0.05 drop did not gate: first of %d regressions %+v", len(regs), regs[0])
	}
	text, err := mustRenderer(t).Bytes(FormatText, ci)
	if err != nil {
		t.Fatal(err)
	}
	if want := "ci gate, alpha 0.05, min effect 0.02)"; !strings.Contains(string(text), want) {
		t.Errorf("text report does not state the ci settings %q", want)
	}
	// A min effect above the drop keeps it from gating, however significant.
	big := 0.2
	if c := compare.Compare(worse, base, compare.Options{Gate: compare.GateCI, MinEffect: &big, Alpha: 1e-9}); c.Regressed() {
		t.Fatalf("min effect 0.2 and alpha 1e-9: gated: %+v", c.Regressions())
	}
}
