package calibrate

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"sort"
	"strings"
)

// ErrInvalidLabels is wrapped by every labels-file problem.
var ErrInvalidLabels = errors.New("invalid labels")

// Label is one human judgement of one metric on one case. Exactly one of
// Pass and Score is set.
type Label struct {
	CaseID string
	Metric string
	Pass   *bool    // the human's pass/fail
	Score  *float64 // the human's score in [0,1]; passes at the metric's threshold
	Line   int      // line in the labels file
	// RunID is the run the label was given on ("" when the line names none).
	RunID string
}

// labelLine is the JSONL shape: {"case_id", "metric", and one of "pass"
// (true/false), "label" ("pass"/"fail") or "score" (0..1)}, plus optional
// "note"/"rater" that are ignored.
type labelLine struct {
	CaseID *string          `json:"case_id"`
	Metric *string          `json:"metric"`
	Pass   *bool            `json:"pass"`
	Label  *string          `json:"label"`
	Score  *json.RawMessage `json:"score"`
	Note   any              `json:"note"`
	Rater  any              `json:"rater"`
	// Written by evalrun label: when, from which run, and the context a
	// person saw (all ignored here).
	At    any `json:"at"`
	RunID any `json:"run_id"`
	labelContext
}

// ParseLabels reads a JSONL labels file. Blank lines are skipped; unknown
// keys, missing fields, ambiguous or out-of-range labels and duplicate
// (case_id, metric) pairs are errors naming the line.
func ParseLabels(r io.Reader) ([]Label, error) {
	var out []Label
	seen := map[[2]string]int{}
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64*1024), maxLabelLine)
	n := 1
	for ; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		if err := checkLabelLine(line); err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrInvalidLabels, n, err)
		}
		if header, err := labelsHeader(line); header || err != nil {
			if err != nil {
				return nil, fmt.Errorf("%w: line %d: %v", ErrInvalidLabels, n, err)
			}
			continue
		}
		l, err := parseLabel(line)
		if errors.Is(err, errUnlabelled) {
			continue // a row of a file to fill in that nobody filled
		}
		if err != nil {
			return nil, fmt.Errorf("%w: line %d: %v", ErrInvalidLabels, n, err)
		}
		l.Line = n
		k := [2]string{l.CaseID, l.Metric}
		if prev, dup := seen[k]; dup {
			return nil, fmt.Errorf("%w: line %d: case %q metric %q is already labelled on line %d",
				ErrInvalidLabels, n, l.CaseID, l.Metric, prev)
		}
		seen[k] = n
		out = append(out, l)
	}
	if err := sc.Err(); errors.Is(err, bufio.ErrTooLong) {
		return nil, fmt.Errorf("%w: line %d: longer than the limit of %d bytes for a line", ErrInvalidLabels, n, maxLabelLine)
	} else if err != nil {
		return nil, fmt.Errorf("%w: %w", ErrInvalidLabels, err)
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("%w: no labels", ErrInvalidLabels)
	}
	return out, nil
}

func parseLabel(line []byte) (Label, error) {
	var ll labelLine
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&ll); err != nil {
		return Label{}, fmt.Errorf("want a JSON object with case_id, metric and pass, label or score: %v", err)
	}
	if ll.CaseID == nil || strings.TrimSpace(*ll.CaseID) == "" {
		return Label{}, errors.New("case_id is required")
	}
	if ll.Metric == nil || strings.TrimSpace(*ll.Metric) == "" {
		return Label{}, errors.New("metric is required")
	}
	l := Label{CaseID: *ll.CaseID, Metric: *ll.Metric}
	if id, ok := ll.RunID.(string); ok {
		l.RunID = id
	}
	given := 0
	if ll.Pass != nil {
		given++
		l.Pass = ll.Pass
	}
	if ll.Label != nil {
		given++
		var p bool
		switch strings.ToLower(strings.TrimSpace(*ll.Label)) {
		case "pass", "passed":
			p = true
		case "fail", "failed":
		default:
			return Label{}, fmt.Errorf(`label %q: want "pass" or "fail"`, *ll.Label)
		}
		l.Pass = &p
	}
	if ll.Score != nil {
		given++
		var s float64
		if err := json.Unmarshal(*ll.Score, &s); err != nil || s < 0 || s > 1 {
			return Label{}, fmt.Errorf("score %s: want a number from 0 to 1", *ll.Score)
		}
		l.Score = &s
	}
	if given == 0 && ll.Question != nil {
		return Label{}, errUnlabelled
	}
	if given != 1 {
		return Label{}, errors.New(`give exactly one of "pass", "label" or "score"`)
	}
	return l, nil
}

// JudgedMetric is a judge's recorded verdict on one case, from a run.
type JudgedMetric struct {
	CaseID    string
	Metric    string
	Threshold float64
	Score     *float64 // nil: not calculated or errored
	Passed    bool
	Errored   bool
	// AnswerLength is the answer's length in characters (for the length
	// bias check).
	AnswerLength int
}

// Disagreement is a case where human and judge differ on pass/fail.
type Disagreement struct {
	CaseID     string
	HumanPass  bool
	HumanScore *float64
	JudgePass  bool
	JudgeScore *float64
	Threshold  float64
}

// Skipped is a label that could not be compared, with the reason.
type Skipped struct {
	CaseID string
	Reason string
}

// MetricAgreement is the calibration of one metric.
type MetricAgreement struct {
	Metric       string
	Pairs        int     // labels compared with a judge verdict
	Agreements   int     // pairs where human and judge agree on pass/fail
	RawAgreement float64 // Agreements / Pairs; 0 when Pairs is 0
	// Kappa is Cohen's kappa on pass/fail; nil when there are no pairs or
	// when it is undefined (KappaUndefined).
	Kappa *float64
	// KappaLow and KappaHigh bound kappa's 95 % interval
	// (KappaInterval); nil with Kappa.
	KappaLow, KappaHigh *float64
	// KappaUndefined says that every pair has one and the same label on both
	// sides (all pass or all fail): chance agreement is 1 and kappa is 0/0.
	KappaUndefined bool
	// TPR is the share of the human passes the judge passed too, TNR the
	// share of the human fails it failed; nil without such a label.
	TPR, TNR *float64
	// LengthJudge is the correlation (Pearson) of the judge's score with
	// the answer's length over the compared pairs, LengthHuman that of
	// the human's pass (1) or fail (0): a judge that tracks length much
	// more than people do rewards length. Nil when undefined (fewer than
	// three pairs, or a constant).
	LengthJudge, LengthHuman *float64
	Disagreements            []Disagreement
	Skipped                  []Skipped
}

// Calibrate compares human labels with the judge's verdicts, per metric in
// name order. A judge verdict passes as recorded (score at or above the
// threshold, no error); a human score passes at the same threshold.
// Errored, uncalculated or missing verdicts are skipped, never counted.
func Calibrate(labels []Label, judged []JudgedMetric) []MetricAgreement {
	byKey := map[[2]string]JudgedMetric{}
	for _, j := range judged {
		byKey[[2]string{j.CaseID, j.Metric}] = j
	}
	per := map[string]*MetricAgreement{}
	var human, judge = map[string][]bool{}, map[string][]bool{}
	lengths, judgeScores := map[string][]float64{}, map[string][]float64{}
	for _, l := range labels {
		m := per[l.Metric]
		if m == nil {
			m = &MetricAgreement{Metric: l.Metric}
			per[l.Metric] = m
		}
		j, ok := byKey[[2]string{l.CaseID, l.Metric}]
		switch {
		case !ok:
			m.Skipped = append(m.Skipped, Skipped{l.CaseID, "the run has no such case and metric"})
			continue
		case j.Errored:
			m.Skipped = append(m.Skipped, Skipped{l.CaseID, "the judge errored"})
			continue
		case j.Score == nil:
			m.Skipped = append(m.Skipped, Skipped{l.CaseID, "the metric was not calculated"})
			continue
		}
		hp := l.Pass != nil && *l.Pass
		if l.Score != nil {
			hp = *l.Score >= j.Threshold
		}
		m.Pairs++
		human[l.Metric] = append(human[l.Metric], hp)
		judge[l.Metric] = append(judge[l.Metric], j.Passed)
		lengths[l.Metric] = append(lengths[l.Metric], float64(j.AnswerLength))
		judgeScores[l.Metric] = append(judgeScores[l.Metric], *j.Score)
		if hp == j.Passed {
			m.Agreements++
			continue
		}
		m.Disagreements = append(m.Disagreements, Disagreement{CaseID: l.CaseID, HumanPass: hp, HumanScore: l.Score,
			JudgePass: j.Passed, JudgeScore: j.Score, Threshold: j.Threshold})
	}
	out := make([]MetricAgreement, 0, len(per))
	for name, m := range per {
		if m.Pairs > 0 {
			m.RawAgreement = float64(m.Agreements) / float64(m.Pairs)
			if k, ok := CohenKappa(human[name], judge[name]); ok {
				m.Kappa = &k
				if lo, hi, ok := KappaInterval(human[name], judge[name]); ok {
					m.KappaLow, m.KappaHigh = &lo, &hi
				}
			} else {
				m.KappaUndefined = true
			}
			m.TPR, m.TNR = rates(human[name], judge[name])
			m.LengthJudge = Pearson(judgeScores[name], lengths[name])
			m.LengthHuman = Pearson(asFloats(human[name]), lengths[name])
		}
		out = append(out, *m)
	}
	sort.Slice(out, func(i, k int) bool { return out[i].Metric < out[k].Metric })
	return out
}

// CohenKappa is Cohen's kappa for two raters' pass/fail labels:
// (po - pe) / (1 - pe), with po the observed agreement and pe the agreement
// expected by chance from each rater's pass rate. ok is false for empty or
// unequal inputs, and when pe is 1: both raters gave one identical label
// throughout, kappa is 0/0, and perfect agreement on a single label says
// nothing about whether the judge can tell a pass from a fail.
func CohenKappa(a, b []bool) (kappa float64, ok bool) {
	n := len(a)
	if n == 0 || n != len(b) {
		return 0, false
	}
	var agree, aPass, bPass float64
	for i := range a {
		if a[i] == b[i] {
			agree++
		}
		if a[i] {
			aPass++
		}
		if b[i] {
			bPass++
		}
	}
	N := float64(n)
	po := agree / N
	pe := (aPass/N)*(bPass/N) + (1-aPass/N)*(1-bPass/N)
	if math.Abs(1-pe) < 1e-12 {
		return 0, false
	}
	return (po - pe) / (1 - pe), true
}
