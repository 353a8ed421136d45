package calibrate

import (
	"hash/fnv"
	"math"
	"sort"

	"github.com/agentevals-go/agentevals/models"
)

// Why a case is worth a person's time, most useful first.
const (
	WhyDisagree    = "judge and deterministic check disagree"
	WhyNearMiss    = "score near the threshold"
	WhyFlaky       = "repeats disagree"
	WhyPairwiseTie = "pairwise tie"
	WhyRest        = "unlabelled"
	NearMissMargin = 0.1
)

// Queue kinds: a random sample for measuring the judge, or the cases
// worth a second look.
const (
	// QueueCalibrate is every unlabelled judge verdict in a random order
	// fixed by the run: a sample of it measures the judge's agreement over
	// all its verdicts, which a kappa over hand-picked hard cases does not.
	QueueCalibrate = "calibrate"
	// QueueReview is the verdicts worth a person's time: disagreements
	// with a deterministic check, near-threshold scores, disagreeing
	// repeats and pairwise ties. Their kappa understates the judge.
	QueueReview = "review"
	WhySample   = "random sample for calibration"
)

// QueueOf is the queue of kind (QueueCalibrate or QueueReview) of run's
// unlabelled judge verdicts.
func QueueOf(run *models.Run, labelled []Label, kind string) []QueueItem {
	all := Queue(run, labelled)
	if kind == QueueReview {
		out := all[:0:0]
		for _, it := range all {
			if it.Why != WhyRest {
				out = append(out, it)
			}
		}
		return out
	}
	key := func(it QueueItem) uint64 {
		h := fnv.New64a()
		h.Write([]byte(run.ID.String() + "\x00" + it.Case.CaseID + "\x00" + it.Metric.Name))
		return h.Sum64()
	}
	for i := range all {
		all[i].Why = WhySample
	}
	sort.SliceStable(all, func(i, j int) bool { return key(all[i]) < key(all[j]) })
	return all
}

// QueueItem is one judge metric on one case for a person to label.
type QueueItem struct {
	Case   *models.CaseResult
	Metric *models.MetricResult
	Why    string
	rank   int
}

// Queue lists the judge metrics of run that nobody labelled yet, the ones
// worth a person's time first: a judge verdict that contradicts a
// deterministic check of the same case, a score within NearMissMargin of
// its threshold, a question whose repeats disagree, a question the
// pairwise judge tied; then the rest in run order. A metric is a judge's
// when the case's evidence names a judge for it.
func Queue(run *models.Run, labelled []Label) []QueueItem {
	done := make(map[[2]string]bool, len(labelled))
	for _, l := range labelled {
		done[[2]string{l.CaseID, l.Metric}] = true
	}
	ties := pairwiseTies(run)
	var out []QueueItem
	for _, c := range run.Cases {
		meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
		if err != nil {
			continue
		}
		judged := judgeMetrics(meta)
		var checkPass, checkFail bool
		for _, m := range c.Metrics {
			if !judged[m.Name] && m.Score != nil && !m.Errored() {
				checkPass = checkPass || m.Passed
				checkFail = checkFail || !m.Passed
			}
		}
		for _, m := range c.Metrics {
			if !judged[m.Name] || m.Score == nil || m.Errored() || done[[2]string{c.CaseID, m.Name}] {
				continue
			}
			it := QueueItem{Case: c, Metric: m, Why: WhyRest, rank: 4}
			switch {
			case m.Passed && checkFail || !m.Passed && checkPass:
				it.Why, it.rank = WhyDisagree, 0
			case math.Abs(*m.Score-m.Threshold) <= NearMissMargin:
				it.Why, it.rank = WhyNearMiss, 1
			case flaky(meta, m.Name):
				it.Why, it.rank = WhyFlaky, 2
			case ties[c.CaseID]:
				it.Why, it.rank = WhyPairwiseTie, 3
			}
			out = append(out, it)
		}
	}
	sort.SliceStable(out, func(i, j int) bool { return out[i].rank < out[j].rank })
	return out
}

// judgeMetrics names the metrics whose details or usage name a judge.
func judgeMetrics(meta models.CaseMetadata) map[string]bool {
	out := map[string]bool{}
	for name, d := range meta.MetricDetails {
		if _, ok := d["judge"]; ok {
			out[name] = true
		}
	}
	for name := range meta.JudgeUsage {
		out[name] = true
	}
	return out
}

// flaky reports whether the metric's repeats fell on both sides of 0.5
// of its range: some high, some low.
func flaky(meta models.CaseMetadata, metric string) bool {
	if meta.CaseRepeats == nil {
		return false
	}
	if meta.PassAtK != nil && meta.PassHatK != nil && *meta.PassAtK != *meta.PassHatK {
		return true
	}
	var lo, hi float64 = 1, 0
	for _, s := range meta.RepeatScores[metric] {
		if s != nil {
			lo, hi = math.Min(lo, *s), math.Max(hi, *s)
		}
	}
	return hi-lo >= 0.5
}

// pairwiseTies are the questions a pairwise judge stored with the run tied.
func pairwiseTies(run *models.Run) map[string]bool {
	out := map[string]bool{}
	rec, err := models.PairwiseOf(run.Summary)
	if err != nil || rec == nil {
		return out
	}
	for _, v := range rec.Verdicts {
		if v.Winner == "tie" {
			out[v.CaseID] = true
		}
	}
	return out
}
