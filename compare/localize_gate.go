package compare

import (
	"fmt"
	"math"
	"strings"

	"github.com/agentevals-go/agentevals/show"
	"github.com/agentevals-go/agentevals/stats"
)

// Finding kinds of the ci gate's localized tests (both regressions).
const (
	QuestionDropKind Kind = "question_drop" // ci gate: a judged question's drop is beyond the noise
	SliceDropKind    Kind = "slice_drop"    // ci gate: a metadata slice's paired test shows a drop
)

// localize runs the ci gate's question and slice families on the compared
// cases and returns the localization and its findings: slice findings
// (one per regressed slice and metric) and question findings (one per
// regressed question and metric).
func localize(cases []CaseComparison, tests map[string]*MetricTest, opts Options, order []string, pairs map[string][]pair, agg, aq, as float64) (*Localization, []Finding, map[string][]Finding) {
	key := opts.SliceByOrDefault()
	loc := &Localization{SliceBy: key, AlphaAggregate: agg, AlphaQuestions: aq, AlphaSlices: as}
	minEffect := opts.MinEffectOrDefault()
	// One test of the question family: a question's own test (with
	// repeats) or a metric's tail test, naming its suspects.
	type member struct {
		p pair
		z float64
	}
	type test struct {
		pv      float64
		m       string
		members []member
		tail    *TailTest
	}
	var family []test
	for _, name := range order {
		ps := pairs[name]
		zs, pvs, noise := questionTests(ps, opts.Seed, name)
		noise.Metric = name
		loc.Noise = append(loc.Noise, noise)
		switch {
		case noise.Tail != nil:
			t := test{pv: noise.Tail.P, m: name, tail: noise.Tail}
			for _, i := range tailSuspects(ps) {
				t.members = append(t.members, member{p: ps[i], z: zs[i]})
			}
			family = append(family, t)
		default:
			for i := range pvs {
				family = append(family, test{pv: pvs[i], m: name, members: []member{{p: ps[i], z: zs[i]}}})
			}
		}
		loc.Power = append(loc.Power, powerLine(name, noise, tests[name], ps, opts, agg, aq, len(zs))...)
	}
	byCase := map[string][]Finding{}
	regressedCases := map[string]bool{}
	if aq > 0 && len(family) > 0 {
		ps := make([]float64, len(family))
		for i, c := range family {
			ps[i] = c.pv
		}
		adj := stats.Holm(ps)
		for i, c := range family {
			if adj[i] > aq {
				continue
			}
			for _, mb := range c.members {
				if -mb.p.diff < minEffect-ScoreEpsilon {
					continue
				}
				q := QuestionDrop{CaseID: mb.p.caseID, CaseName: mb.p.name, Metric: c.m, Change: mb.p.diff, Z: mb.z,
					P: c.pv, AdjustedP: adj[i], Source: mb.p.sourceOf(), Tail: c.tail}
				f := Finding{Kind: QuestionDropKind, CaseID: q.CaseID, CaseName: q.CaseName,
					Metric: q.Metric, After: Ptr(q.Change), Gating: true, Message: q.Rule(),
					Why: fmt.Sprintf("gates: Holm over %s at α %.4g, noise from the %s", show.Count(len(family), "question test", "question tests"), aq, q.Source)}
				if c.tail != nil {
					f.Why = fmt.Sprintf("gates: Holm over %s at α %.4g; the %s found more large drops than rises, and this drop is larger than any rise; "+
						"a single verdict cannot support this finding on its own: a judge's rare large error can match it, --repeat 3 tells them apart",
						show.Count(len(family), "question test", "question tests"), aq, MethodTailSignFlip)
				}
				if fl, ok := opts.Flaky[q.CaseID]; ok {
					// Measured on the same code, so its flips are judge noise.
					f.Gating, f.Why = false, "not gating: flaky judged question at this revision ("+fl.Text()+"); it still counts in the metric tests"
				} else {
					loc.Questions = append(loc.Questions, q)
					regressedCases[q.CaseID] = true
				}
				byCase[q.CaseID] = append(byCase[q.CaseID], f)
			}
		}
	}
	var sliceFindings []Finding
	if as > 0 {
		var all []SliceDrop
		for _, name := range order {
			all = append(all, sliceTests(key, name, pairs[name], opts.Seed, as)...)
		}
		ps := make([]float64, len(all))
		for i, s := range all {
			ps[i] = s.P
		}
		adj := stats.Holm(ps)
		for i := range all {
			s := &all[i]
			s.AdjustedP = adj[i]
			s.Regressed = adj[i] <= as && s.MeanChange < 0 && s.RestChange-s.MeanChange >= minEffect-ScoreEpsilon
		}
		loc.Slices = all
	}
	for _, cc := range cases {
		if !regressedCases[cc.CaseID] && !gatingCase(cc) {
			continue
		}
		v := sliceValue(cc.Case, key)
		for i := range loc.Slices {
			if loc.Slices[i].Value == v {
				loc.Slices[i].QuestionsRegressed++
			}
		}
	}
	for _, s := range loc.Slices {
		if s.Regressed {
			sliceFindings = append(sliceFindings, Finding{Kind: SliceDropKind, Metric: s.Metric, Slice: s.Name(), After: Ptr(s.MeanChange),
				Gating: true, Message: s.Rule(), Why: fmt.Sprintf("gates: Holm over %s at α %g", show.Count(len(loc.Slices), "slice test", "slice tests"), as)})
		}
	}
	return loc, sliceFindings, byCase
}

func gatingCase(cc CaseComparison) bool {
	for _, f := range cc.Findings {
		if f.Gating {
			return true
		}
	}
	return false
}

func (p pair) sourceOf() string {
	if p.cur.df > 0 || p.base.df > 0 {
		return NoiseRepeats
	}
	return NoiseSpread
}

// powerLine says, when the gate cannot see a mean drop of the min effect
// on the metric, the smallest mean drop it can see (power 0.8 at the
// aggregate test's α), the smallest drop of one question the question
// family can see, and how many repeats would make the min effect visible
// (the judge's noise shrinking as 1/√repeats, as calibrate --rejudge
// assumes).
func powerLine(metric string, noise MetricNoise, t *MetricTest, ps []pair, opts Options, agg, aq float64, tested int) []string {
	target := opts.MinEffectOrDefault()
	if noise.SD == nil || target <= 0 || len(ps) == 0 {
		return nil
	}
	perTest := agg
	if t != nil && t.Flips != nil {
		perTest /= 2
	}
	mde := MinimumDetectable(stats.NormalQuantile(1-perTest), *noise.SD, len(ps))
	if mde <= target+ScoreEpsilon {
		return nil
	}
	k := 1
	for _, p := range ps {
		k = max(k, p.cur.k)
	}
	need := int(math.Ceil(float64(k) * (mde / target) * (mde / target)))
	line := fmt.Sprintf("%s: the gate cannot see a mean drop of %g over %s (noise sd %.3f per question, %s): the smallest it sees is %.3f",
		metric, target, show.Count(len(ps), "question", "questions"), *noise.SD, noise.Source, mde)
	if aq > 0 && tested > 0 {
		one := (stats.NormalQuantile(1-aq/float64(tested)) + zPower80) * *noise.SD
		line += fmt.Sprintf(", and %.3f on one question", one)
	}
	return []string{line + fmt.Sprintf("; --repeat %d would make %g visible", need, target)}
}

// Headline is the localized findings in one sentence for the top of every
// view, e.g. "9 questions in slice failure_mode=refunds regressed" or "3
// questions regressed beyond judge noise: q001, q017, q042"; "" when
// nothing was localized. Slice values and case ids are untrusted: callers
// escape the line.
func (l *Localization) Headline() string {
	if l == nil {
		return ""
	}
	var parts []string
	inSlice := map[string]bool{}
	for _, s := range l.Slices {
		if !s.Regressed || inSlice[s.Value] {
			continue
		}
		inSlice[s.Value] = true
		if s.QuestionsRegressed > 0 {
			parts = append(parts, fmt.Sprintf("%s in slice %s regressed (%s mean change %s over %d, %s)",
				show.Count(s.QuestionsRegressed, "question", "questions"), s.Name(), s.Metric, fmtChange(s.MeanChange), s.Size, "Holm-adjusted "+fmtP(s.AdjustedP)))
		} else {
			parts = append(parts, fmt.Sprintf("slice %s regressed (%s mean change %s over %d questions, %s)",
				s.Name(), s.Metric, fmtChange(s.MeanChange), s.Size, "Holm-adjusted "+fmtP(s.AdjustedP)))
		}
	}
	var ids []string
	seen := map[string]bool{}
	for _, q := range l.Questions {
		if !seen[q.CaseID] {
			seen[q.CaseID] = true
			ids = append(ids, q.CaseID)
		}
	}
	if len(ids) > 0 {
		shown := ids
		if len(shown) > 10 {
			shown = append(shown[:10:10], fmt.Sprintf("… %d more", len(ids)-10))
		}
		parts = append(parts, fmt.Sprintf("%s regressed beyond judge noise: %s",
			show.Count(len(ids), "question", "questions"), strings.Join(shown, ", ")))
	}
	return strings.Join(parts, "; ")
}

// mergeQuestionDrops adds each case's question_drop findings to it: the
// judged score drop of the same metric is dropped (the finding says it
// with its test), and a newly failed minimum of that metric gates with
// it. It returns every case's regression findings, in case order.
func mergeQuestionDrops(cases []CaseComparison, byCase map[string][]Finding, questionsTested bool) []Finding {
	var regs []Finding
	for i := range cases {
		cc := &cases[i]
		if drops := byCase[cc.CaseID]; len(drops) > 0 {
			beyond := map[string]bool{}
			for _, d := range drops {
				beyond[d.Metric] = beyond[d.Metric] || d.Gating
			}
			kept := append([]Finding{}, drops...)
			for _, f := range cc.Findings {
				switch {
				case f.Kind == ScoreDrop && beyond[f.Metric]:
					continue
				case f.Kind == NewFailure && beyond[f.Metric]:
					f.Gating, f.Why = true, "gates: its drop is beyond judge noise"
				}
				kept = append(kept, f)
			}
			cc.Findings = kept
		}
		for j, f := range cc.Findings {
			if questionsTested && !f.Gating && strings.HasPrefix(f.Why, judgedAggregateWhy) {
				f.Why = "not gating: within this question's judge noise; judge metrics gate in aggregate or one question beyond noise" + strings.TrimPrefix(f.Why, judgedAggregateWhy)
				cc.Findings[j] = f
			}
			if f.Kind.Regression() {
				regs = append(regs, f)
			}
		}
	}
	return regs
}
