package compare

import (
	"fmt"
	"math"
	"sort"
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// RepeatStats describes a run whose questions were answered K > 1 times
// (evalrun run --repeat K), read from each case's response_metadata
// (repeat_scores, pass_at_k, pass_hat_k; see runner/repeat.go), so it works
// for any run that carries them whatever its summary says.
type RepeatStats struct {
	// K is how many times each question was answered.
	K int `json:"k"`
	// PassAtK is the share of cases where some repeat passed and PassHatK
	// where every repeat passed, over the Cases where they are known (a
	// case with no evaluated repeat has neither); nil when none is known.
	PassAtK  *float64 `json:"pass_at_k"`
	PassHatK *float64 `json:"pass_hat_k"`
	Cases    int      `json:"cases"`
	// Metrics is each metric's spread over the repeats, in name order.
	Metrics []RepeatNoise `json:"metrics"`
}

// RepeatNoise is a metric's within-question spread over repeats.
type RepeatNoise struct {
	Name string `json:"name"`
	// WithinSD is the pooled within-question standard deviation of the
	// repeats' scores: sqrt(Σ_questions Σ_repeats (s − mean_q)² / Σ (n_q − 1))
	// over the Questions with at least two scored repeats; nil when none
	// has. It holds the agent's and the judge's variation together
	// (evalrun calibrate --rejudge isolates the judge's).
	WithinSD  *float64 `json:"within_question_sd"`
	Questions int      `json:"questions"`
}

// Repeats returns the repeat statistics of the run, or nil when no case was
// answered more than once.
func Repeats(run *models.Run) *RepeatStats {
	st := &RepeatStats{}
	type acc struct {
		ss float64
		df int
		n  int
	}
	metrics := map[string]*acc{}
	at, hat := 0, 0
	for _, c := range run.Cases {
		meta, ok := repeatMeta(c)
		if !ok {
			continue
		}
		st.K = max(st.K, len(meta.Repeats))
		if meta.PassAtK != nil && meta.PassHatK != nil {
			st.Cases++
			if *meta.PassAtK {
				at++
			}
			if *meta.PassHatK {
				hat++
			}
		}
		for name, scores := range meta.RepeatScores {
			a := metrics[name]
			if a == nil {
				a = &acc{}
				metrics[name] = a
			}
			ss, df := sumSquares(scores)
			if df > 0 {
				a.ss += ss
				a.df += df
				a.n++
			}
		}
	}
	if st.K < 2 {
		return nil
	}
	if st.Cases > 0 {
		pa, ph := float64(at)/float64(st.Cases), float64(hat)/float64(st.Cases)
		st.PassAtK, st.PassHatK = &pa, &ph
	}
	names := make([]string, 0, len(metrics))
	for name := range metrics {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		a := metrics[name]
		rn := RepeatNoise{Name: name, Questions: a.n}
		if a.df > 0 {
			sd := math.Sqrt(a.ss / float64(a.df))
			rn.WithinSD = &sd
		}
		st.Metrics = append(st.Metrics, rn)
	}
	return st
}

// repeatMeta reads the case's repeat keys; ok is false when the case was
// answered once (or the keys are not what the runner writes).
func repeatMeta(c *models.CaseResult) (*models.CaseRepeats, bool) {
	meta, err := models.FactsOf(c)
	if err != nil || !meta.Repeated() {
		return nil, false
	}
	return meta.CaseRepeats, true
}

// RepeatScores returns the case's scores per metric and repeat
// (response_metadata.repeat_scores; nil where a repeat calculated none),
// or nil when the case was answered once. The case's metric rows hold
// their means; a paired comparison can take the within-question variance
// of the means from these.
func RepeatScores(c *models.CaseResult) map[string][]*float64 {
	meta, ok := repeatMeta(c)
	if !ok {
		return nil
	}
	return meta.RepeatScores
}

// sumSquares is Σ (s − mean)² over the non-null scores and its degrees of
// freedom (count − 1; 0 with fewer than two scores).
func sumSquares(scores []*float64) (float64, int) {
	var sum float64
	var xs []float64
	for _, s := range scores {
		if s != nil {
			xs = append(xs, *s)
			sum += *s
		}
	}
	if len(xs) < 2 {
		return 0, 0
	}
	mean := sum / float64(len(xs))
	var ss float64
	for _, x := range xs {
		ss += (x - mean) * (x - mean)
	}
	return ss, len(xs) - 1
}

// Line is the repeat line of the text, Markdown and HTML reports, e.g.
// "3 answers per question; pass@3 92.0% (some answer passed), pass^3
// 81.0% (every answer passed), over 200 questions".
func (st *RepeatStats) Line() string {
	if st == nil {
		return ""
	}
	rate := func(p *float64) string {
		if p == nil {
			return "n/a"
		}
		return fmt.Sprintf("%.1f%%", *p*100)
	}
	questions := "questions"
	if st.Cases == 1 {
		questions = "question"
	}
	return fmt.Sprintf("%d answers per question; pass@%d %s (some answer passed), pass^%d %s (every answer passed), over %d evaluated %s; "+
		"metric scores are the means of the %d",
		st.K, st.K, rate(st.PassAtK), st.K, rate(st.PassHatK), st.Cases, questions, st.K)
}

// NoiseLine lists each metric's within-question sd over the repeats, e.g.
// "semantic_accuracy 0.052 (200 questions), exact 0.000 (200 questions)".
// Metric names are untrusted: the caller escapes the line for its output.
func (st *RepeatStats) NoiseLine() string {
	if st == nil || len(st.Metrics) == 0 {
		return ""
	}
	parts := make([]string, 0, len(st.Metrics))
	for _, m := range st.Metrics {
		sd := "n/a"
		if m.WithinSD != nil {
			sd = fmt.Sprintf("%.3f", *m.WithinSD)
		}
		q := "questions"
		if m.Questions == 1 {
			q = "question"
		}
		parts = append(parts, fmt.Sprintf("%s %s (%d %s)", m.Name, sd, m.Questions, q))
	}
	return strings.Join(parts, ", ")
}
