package calibrate

import (
	"fmt"
	"io"
	"math"
	"sort"
	"strings"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/show"
	"github.com/agentevals-go/agentevals/stats"
)

// zAlpha05 is the normal quantile of a one-sided test at α = 0.05 (the
// minimum detectable effect's power 0.8 is compare.MinimumDetectable's).
const zAlpha05 = 1.6448536269514722

// Rejudged is one question's verdicts when the same stored answer was
// judged again N times on one metric: Scores[r] is repetition r's score,
// nil when that call errored.
type Rejudged struct {
	CaseID    string
	Metric    string
	Threshold float64
	Scores    []*float64
}

// Stability is the test-retest stability of a judge on one metric: the
// same answers judged N times.
type Stability struct {
	Metric string `json:"metric"`
	// Repetitions is N; Questions the questions judged (at least one
	// score); Errors the judge calls that gave no score.
	Repetitions int `json:"repetitions"`
	Questions   int `json:"questions"`
	Errors      int `json:"errors"`
	// Agreement is the mean, over pairs of repetitions, of the share of
	// questions (scored in both) given the same pass/fail verdict.
	Agreement *float64 `json:"agreement"`
	// Kappa is the mean pairwise Cohen's kappa of those verdicts (Light's
	// kappa); nil when undefined for some pair (KappaUndefined: one label
	// throughout, chance agreement 1).
	Kappa          *float64 `json:"kappa"`
	KappaUndefined bool     `json:"kappa_undefined"`
	// WithinSD is the pooled within-question sd of the scores.
	WithinSD *float64 `json:"within_question_sd"`
	// DiffSD is the sd of the difference between two judgements of the
	// same answer: sqrt of the mean, over pairs of repetitions, of the
	// sample variance of the per-question differences. It is the sd_diff
	// a paired test of two runs sees from the judge alone.
	DiffSD *float64 `json:"sd_diff"`
	// MDE is the smallest mean drop a one-sided paired test (α 0.05, power
	// 0.8) detects over Questions with one answer per question:
	// (z_α + z_β)·DiffSD/√Questions. nil when DiffSD is.
	MDE *float64 `json:"minimum_detectable_effect"`
}

// MDEWithRepeats is the minimum detectable effect when both runs average
// k judgements per question (run --repeat k): MDE/√k, the judge's noise
// being independent between repeats. nil when MDE is.
func (s Stability) MDEWithRepeats(k int) *float64 {
	if s.MDE == nil || k < 1 {
		return nil
	}
	v := *s.MDE / math.Sqrt(float64(k))
	return &v
}

// MeasureStability computes the stability of each metric in name order
// from re-judged questions.
func MeasureStability(items []Rejudged) []Stability {
	byMetric := map[string][]Rejudged{}
	for _, it := range items {
		byMetric[it.Metric] = append(byMetric[it.Metric], it)
	}
	out := make([]Stability, 0, len(byMetric))
	for name, qs := range byMetric {
		out = append(out, measure(name, qs))
	}
	sort.Slice(out, func(i, k int) bool { return out[i].Metric < out[k].Metric })
	return out
}

func measure(name string, qs []Rejudged) Stability {
	st := Stability{Metric: name}
	var ss float64
	df := 0
	for _, q := range qs {
		st.Repetitions = max(st.Repetitions, len(q.Scores))
		var xs []float64
		for _, s := range q.Scores {
			if s == nil {
				st.Errors++
				continue
			}
			xs = append(xs, *s)
		}
		if len(xs) > 0 {
			st.Questions++
		}
		if len(xs) >= 2 {
			m := stats.Mean(xs)
			for _, x := range xs {
				ss += (x - m) * (x - m)
			}
			df += len(xs) - 1
		}
	}
	if df > 0 {
		st.WithinSD = ptr(math.Sqrt(ss / float64(df)))
	}
	var agree, kappa, diffVar []float64
	for a := 0; a < st.Repetitions; a++ {
		for b := a + 1; b < st.Repetitions; b++ {
			var pa, pb []bool
			var diffs []float64
			for _, q := range qs {
				if a >= len(q.Scores) || b >= len(q.Scores) || q.Scores[a] == nil || q.Scores[b] == nil {
					continue
				}
				sa, sb := *q.Scores[a], *q.Scores[b]
				pa, pb = append(pa, sa >= q.Threshold), append(pb, sb >= q.Threshold)
				diffs = append(diffs, sa-sb)
			}
			if len(pa) == 0 {
				continue
			}
			same := 0
			for i := range pa {
				if pa[i] == pb[i] {
					same++
				}
			}
			agree = append(agree, float64(same)/float64(len(pa)))
			if k, ok := CohenKappa(pa, pb); ok {
				kappa = append(kappa, k)
			} else {
				st.KappaUndefined = true
			}
			if len(diffs) >= 2 {
				diffVar = append(diffVar, stats.Variance(diffs))
			}
		}
	}
	if len(agree) > 0 {
		st.Agreement = ptr(stats.Mean(agree))
	}
	if len(kappa) > 0 && !st.KappaUndefined {
		st.Kappa = ptr(stats.Mean(kappa))
	}
	if len(diffVar) > 0 {
		sd := math.Sqrt(stats.Mean(diffVar))
		st.DiffSD = &sd
		if st.Questions > 0 {
			st.MDE = ptr(compare.MinimumDetectable(zAlpha05, sd, st.Questions))
		}
	}
	return st
}

func ptr(v float64) *float64 { return &v }

// Verdict says in plain words what the judge's noise allows on this suite,
// e.g. "this judge can detect mean drops of ≥ 0.040 on this suite of 200
// questions (one-sided paired test, α 0.05, power 0.8); with --repeat 3:
// ≥ 0.023".
func (s Stability) Verdict() string {
	if s.MDE == nil {
		return "not measurable: fewer than two questions were scored in two repetitions"
	}
	if *s.MDE == 0 {
		return fmt.Sprintf("this judge gave identical scores every time on these %d questions: its noise hides no drop "+
			"(the agent's own variation still counts; measure it with run --repeat)", s.Questions)
	}
	return fmt.Sprintf("this judge can detect mean drops of ≥ %.3f on this suite of %d questions "+
		"(one-sided paired test, α 0.05, power 0.8); with --repeat 3: ≥ %.3f, --repeat 5: ≥ %.3f",
		*s.MDE, s.Questions, *s.MDEWithRepeats(3), *s.MDEWithRepeats(5))
}

// WriteStability writes the stability report, one block per metric. Metric
// names come from the run's rows: the caller escapes w's output if needed
// (names are passed through clean).
func WriteStability(w io.Writer, ms []Stability, clean func(string) string) error {
	var b strings.Builder
	if len(ms) == 0 {
		b.WriteString("No judge metric was re-judged (the run has no answered question with a judge-backed metric).\n")
	}
	for _, m := range ms {
		fmt.Fprintf(&b, "%s: %d repetitions of %d questions (%d judge errors)\n", clean(m.Metric), m.Repetitions, m.Questions, m.Errors)
		fmt.Fprintf(&b, "  pass/fail agreement between repetitions  %s\n", fmtRate(m.Agreement))
		kappa := show.Score(m.Kappa)
		if m.KappaUndefined {
			kappa = "undefined (one verdict throughout in some pair of repetitions)"
		}
		fmt.Fprintf(&b, "  Cohen's kappa between repetitions        %s\n", kappa)
		fmt.Fprintf(&b, "  within-question score sd                 %s\n", show.Score(m.WithinSD))
		fmt.Fprintf(&b, "  sd of the difference of two judgements   %s\n", show.Score(m.DiffSD))
		fmt.Fprintf(&b, "  minimum detectable effect                %s\n", show.Score(m.MDE))
		fmt.Fprintf(&b, "  verdict: %s\n", m.Verdict())
	}
	_, err := io.WriteString(w, b.String())
	return err
}

func fmtRate(p *float64) string {
	if p == nil {
		return "n/a"
	}
	return fmt.Sprintf("%.1f%%", *p*100)
}
