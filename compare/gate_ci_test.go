package compare

import (
	"math"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
	"github.com/agentevals-go/agentevals/models"
)

func TestPairedDropTest(t *testing.T) {
	tests := []struct {
		name   string
		diffs  []float64
		p      float64
		method string
	}{
		// 3 drops of sizes 1,2,3: only the all-negative assignment sums to -6.
		{"exact, all drops", []float64{-1, -2, -3}, 1.0 / 8, MethodSignFlip},
		{"exact, mixed", []float64{-3, -2, 1}, 2.0 / 8, MethodSignFlip},
		{"zeros only", []float64{0, 0, 0}, 1, MethodSignFlip},
		{"rise", []float64{0.1, 0.2}, 1, MethodSignFlip},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := PairedDropTest(tt.diffs)
			if got.P == nil || math.Abs(*got.P-tt.p) > 1e-12 || got.Method != tt.method {
				t.Fatalf("PairedDropTest(%v) = p %v method %q, want %v %q", tt.diffs, *got.P, got.Method, tt.p, tt.method)
			}
		})
	}
	if got := PairedDropTest(nil); got.P != nil || got.MeanChange != nil {
		t.Fatalf("no pairs: %+v, want nil p and mean", got)
	}
	// 20 differences: mean -0.05, sd 0.1 -> t = -2.236 with 19 df, one-sided p = 0.0188.
	var d []float64
	for i := range 20 {
		d = append(d, -0.05+0.1*float64(1-2*(i%2))*math.Sqrt(19.0/20))
	}
	got := PairedDropTest(d)
	if got.Method != MethodPairedT || math.Abs(*got.P-0.0188) > 0.0005 {
		t.Fatalf("paired t: p = %v (%s), want 0.0188", *got.P, got.Method)
	}
}

func TestMcNemar(t *testing.T) {
	got := McNemar(10, 2)
	if want := (66.0 + 12 + 1) / 4096; got.P == nil || math.Abs(*got.P-want) > 1e-12 {
		t.Fatalf("McNemar(10, 2) = %v, want %v", got.P, want)
	}
	if got := McNemar(3, 3); *got.P < 0.5 {
		t.Fatalf("balanced flips: p = %v, want >= 0.5", *got.P)
	}
	if got := McNemar(0, 0); got.P != nil {
		t.Fatalf("no flips: p = %v, want nil", *got.P)
	}
}

func TestCompare_GateCI_DeterministicAndFlaky(t *testing.T) {
	base := runfixture.Build("01900000-0000-7000-8000-000000000040", 1, runfixture.T0,
		runfixture.Case{ID: "a", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(1))}},
		runfixture.Case{ID: "b", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(1))}},
		runfixture.Case{ID: "c", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(0))}},
	)
	now := runfixture.Build("01900000-0000-7000-8000-000000000041", 2, runfixture.T0.Add(time.Minute),
		runfixture.Case{ID: "a", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(0))}},
		runfixture.Case{ID: "b", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(1))}},
		runfixture.Case{ID: "c", Metrics: []runfixture.Metric{runfixture.NewMetric("exact", 1, runfixture.Score(0))}},
	)
	cmp := Compare(now, base, Options{Gate: GateCI})
	if !cmp.Regressed() {
		t.Fatalf("a newly failing deterministic check must gate under ci: %+v", cmp.Findings)
	}
	if f := cmp.Regressions()[0]; f.Kind != NewFailure || f.CaseID != "a" || !strings.HasPrefix(f.Why, "gates: ") {
		t.Fatalf("finding %+v: want a gating new failure of a that says why", f)
	}
	flaky := Flaky([]*models.Run{now, base, now})
	if _, ok := flaky["a"]; !ok || len(flaky) != 1 {
		t.Fatalf("Flaky = %+v, want only a", flaky)
	}
	if once := Flaky([]*models.Run{base, base, now, now}); len(once) != 0 {
		t.Fatalf("Flaky(passed, passed, failed, failed) = %+v: a sustained change is not flaky", once)
	}
	// A deterministic check gates whatever the question's history.
	cmp = Compare(now, base, Options{Gate: GateCI, Flaky: flaky})
	if !cmp.Regressed() || cmp.Cases[0].Flaky == nil || !strings.HasPrefix(cmp.Regressions()[0].Why, "gates: ") {
		t.Fatalf("flaky question under ci: %+v, want marked and still gating", cmp.Regressions())
	}
	if strict := Compare(now, base, Options{Flaky: flaky}); !strict.Regressed() {
		t.Fatal("strict gate ignores flakiness: it must still gate")
	}
}

// TestCompare_GateCI_FlakySoftensOnlyJudged: judged questions that went
// back and forth at the same revision do not gate on their own drops
// beyond noise; without that history the same drops gate.
func TestCompare_GateCI_FlakySoftensOnlyJudged(t *testing.T) {
	base, cand := runfixture.JudgedRuns(400, 0, 3)
	dropped := []int{7, 57, 107, 157, 207, 257, 307, 357}
	for _, i := range dropped {
		m := cand.Cases[i].Metrics[0]
		m.Score, m.Passed = Ptr(0.05), false
		cand.Cases[i].Status = cand.Cases[i].DeriveStatus()
	}
	cmp := Compare(cand, base, Options{Gate: GateCI})
	found := map[string]bool{}
	if cmp.Localized != nil {
		for _, q := range cmp.Localized.Questions {
			found[q.CaseID] = true
		}
	}
	fl := map[string]Flakiness{}
	for _, i := range dropped {
		if !found[cand.Cases[i].CaseID] {
			t.Fatalf("judged drops of 0.65 on %d questions: %+v, want each found", len(dropped), cmp.Localized)
		}
	}
	for id := range found {
		fl[id] = Flakiness{Runs: 3, Flips: 2, Statuses: []string{"passed", "failed", "passed"}, Commit: "c0ffee"}
	}
	if !cmp.Regressed() {
		t.Fatalf("judged drops of 0.65 on %d questions: %+v, want them gating", len(dropped), cmp.Regressions())
	}
	cmp = Compare(cand, base, Options{Gate: GateCI, Flaky: fl})
	if cmp.Regressed() {
		t.Fatalf("flaky judged questions at the same revision: %+v, want reported, not gating", cmp.Regressions())
	}
	for _, f := range cmp.Regressions() {
		if fl[f.CaseID].Runs > 0 && !strings.Contains(f.Why, "flaky judged question at this revision") {
			t.Errorf("%s why %q: want it to say the question is flaky at this revision", f.Kind, f.Why)
		}
	}
}

func TestCompare_GateCI_JudgeErrorsNotMeasurable(t *testing.T) {
	base, cand := runfixture.JudgedRuns(40, 0, 3)
	for i := range 10 { // a judge outage on a quarter of the questions
		m := cand.Cases[i].Metrics[0]
		m.Score, m.Passed = nil, false
		m.ErrorDetails = models.MustJSON(map[string]string{"message": "judge: 503 Service Unavailable"})
		cand.Cases[i].Status = cand.Cases[i].DeriveStatus()
	}
	cmp := Compare(cand, base, Options{Gate: GateCI})
	var notMeasurable bool
	for _, f := range cmp.Findings {
		switch f.Kind {
		case NotMeasurable:
			notMeasurable = f.Gating && strings.Contains(f.Message, "10 of 40 judge verdicts")
		case NewMetricError:
			if f.Gating {
				t.Fatalf("a judge error gated one by one: %+v", f)
			}
		}
	}
	if !notMeasurable {
		t.Fatalf("findings %+v: want a gating not_measurable finding naming 10 of 40", cmp.Findings)
	}
	// A baseline whose judge failed is no reference either.
	if c := Compare(base, cand, Options{Gate: GateCI}); !c.Regressed() || c.Metrics[0].Test.Verdict != TestNotMeasurable ||
		!strings.Contains(c.Metrics[0].Test.Note, "in the baseline 10 of 40") {
		t.Fatalf("baseline with a judge outage: %+v, want not measurable", c.Metrics[0].Test)
	}
	// One error in 40 is reported, not gating.
	_, few := runfixture.JudgedRuns(40, 0, 3)
	m := few.Cases[0].Metrics[0]
	m.Score, m.Passed, m.ErrorDetails = nil, false, models.MustJSON(map[string]string{"message": "timeout"})
	if c := Compare(few, base, Options{Gate: GateCI}); c.Regressed() {
		t.Fatalf("one judge error in 40 gated: %+v", c.Regressions())
	}
}

// TestCompareAB_NoSignificantDifference: two runs with the same true
// quality and judge noise read as "no significant difference", their
// per-question drops listed as within noise; a true 0.05 drop reads as
// "B is worse".
func TestCompareAB_NoSignificantDifference(t *testing.T) {
	a, b := runfixture.JudgedRuns(200, 0, 11)
	ab, err := AB(a, b, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if ab.Verdict != VerdictNoDifference || ab.Changes.WithinNoise == 0 || ab.Changes.Regressions != 0 ||
		!strings.Contains(ab.VerdictDetail, "drop within noise") {
		t.Fatalf("no change: %q: %q (%+v)", ab.Verdict, ab.VerdictDetail, ab.Changes)
	}
	for _, q := range ab.ByQuestion {
		if q.Gating {
			t.Fatalf("no change: %s gates: %s", q.Subject(), q.Text())
		}
	}
	_, worse := runfixture.JudgedRuns(200, 0.05, 11)
	if ab, _ := AB(a, worse, Options{}); ab.Verdict != VerdictBWorse {
		t.Fatalf("a true 0.05 drop: %q: %q", ab.Verdict, ab.VerdictDetail)
	}
}

// TestJudgedMetrics: the score registry decides which built-in metric
// names are judge-backed; a suite-declared name counts when the run's
// evidence shows a judge scored it; Options.Judged overrides both.
func TestJudgedMetrics(t *testing.T) {
	run := runfixture.Build("01900000-0000-7000-8000-000000000050", 1, runfixture.T0,
		runfixture.Case{ID: "a", Metrics: []runfixture.Metric{runfixture.NewMetric("polite", 0.5, runfixture.Score(1)), runfixture.NewMetric("exact", 1, runfixture.Score(1))}})
	run.Cases[0].ResponseMetadata = models.JSON(`{"judge_usage":{"polite":{"calls":1}}}`)
	judged := JudgedMetrics(run, nil, Options{})
	for name, want := range map[string]bool{
		"semantic_accuracy": true, "answer_relevancy": true, "llm_judge": true, "faithfulness": true,
		"hallucination": true, "correctness": true, "bias": true, "toxicity": true,
		"polite": true, "exact": false, "exact_match": false, "action_group": false,
	} {
		if got := judged(name); got != want {
			t.Errorf("judged(%q) = %v, want %v", name, got, want)
		}
	}
	none := JudgedMetrics(run, nil, Options{Judged: func(string) bool { return false }})
	if none("semantic_accuracy") {
		t.Error("Options.Judged does not override the registry")
	}
}

// TestCompare_GateCI_OneVerdictDrops: without repeats, one question's
// large drop is not a finding on its own: a judge's rare large error is as
// likely to show as a rise, so the tail test reads it against its mirror
// image. Eight such drops with no rise as large are findings, which say
// that a single verdict cannot support them and suggest --repeat 3; the
// same drops no larger than a rise the runs show are not.
func TestCompare_GateCI_OneVerdictDrops(t *testing.T) {
	wrong := func(r *models.Run, i int, by float64) {
		m := r.Cases[i].Metrics[0]
		m.Score = Ptr(*m.Score - by)
		m.Passed = *m.Score >= m.Threshold
		r.Cases[i].Status = r.Cases[i].DeriveStatus()
	}
	base, cand := runfixture.JudgedRuns(200, 0, 5)
	wrong(cand, 17, 0.45)
	cmp := Compare(cand, base, Options{Gate: GateCI})
	if cmp.Localized == nil || len(cmp.Localized.Questions) != 0 || cmp.Regressed() {
		t.Fatalf("a lone drop of 0.45 (noise sd 0.07): %+v, want no finding", cmp.Localized)
	}
	if n := cmp.Localized.Noise; len(n) != 1 || n[0].Tail == nil || n[0].Tail.P <= 0.05 {
		t.Fatalf("noise %+v: want the tail test, far from rejecting one drop", n)
	}
	eight := []int{17, 39, 61, 83, 105, 127, 149, 171}
	for _, i := range eight[1:] {
		wrong(cand, i, 0.45)
	}
	cmp = Compare(cand, base, Options{Gate: GateCI})
	found := map[string]bool{}
	if cmp.Localized != nil {
		for _, q := range cmp.Localized.Questions {
			found[q.CaseID] = true
		}
	}
	for _, i := range eight {
		if !found[cand.Cases[i].CaseID] || !cmp.Regressed() {
			t.Fatalf("eight drops of 0.45: %+v, want the eight found", cmp.Localized)
		}
	}
	for _, f := range cmp.Regressions() {
		if f.Kind == QuestionDropKind && (!strings.Contains(f.Why, "--repeat 3") || !strings.Contains(f.Why, "single verdict") ||
			!strings.Contains(f.Message, MethodTailSignFlip)) {
			t.Errorf("a finding on one verdict per run: %q, why %q: want the test named, the single verdict said and --repeat 3", f.Message, f.Why)
		}
	}
	wrong(base, 40, 0.65) // the judge was wrong once in the baseline: q040 rises by 0.65
	cmp = Compare(cand, base, Options{Gate: GateCI})
	if cmp.Localized != nil && len(cmp.Localized.Questions) > 0 {
		t.Fatalf("drops no larger than a rise: %+v, want no question finding", cmp.Localized.Questions)
	}
}
