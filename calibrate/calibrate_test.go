package calibrate

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"math"
	"strings"
	"testing"
	"testing/iotest"
)

func TestCohenKappa(t *testing.T) {
	// pairs builds rater vectors from counts of (human, judge) combinations:
	// pass/pass, pass/fail, fail/pass, fail/fail.
	pairs := func(pp, pf, fp, ff int) (h, j []bool) {
		add := func(n int, a, b bool) {
			for range n {
				h, j = append(h, a), append(j, b)
			}
		}
		add(pp, true, true)
		add(pf, true, false)
		add(fp, false, true)
		add(ff, false, false)
		return h, j
	}
	cases := []struct {
		name           string
		pp, pf, fp, ff int
		want           float64
		ok             bool
	}{
		// po = 0.8, pe = 0.6*0.6 + 0.4*0.4 = 0.52, kappa = 0.28/0.48.
		{"ten cases", 5, 1, 1, 3, 0.28 / 0.48, true},
		// The textbook 50-item table: po = 0.7, pe = 0.5*0.6 + 0.5*0.4 = 0.5.
		{"fifty cases", 20, 5, 10, 15, 0.4, true},
		// Perfect disagreement on a balanced set: po = 0, pe = 0.5.
		{"opposite", 0, 1, 1, 0, -1, true},
		// One identical label throughout: pe = 1, kappa = 0/0 is undefined
		// (not 1: agreement on a single label shows no discrimination).
		{"all pass", 4, 0, 0, 0, 0, false},
		{"all fail", 0, 0, 0, 3, 0, false},
		// Judge passes everything, human half: po = 0.5, pe = 0.5.
		{"lenient judge", 2, 0, 2, 0, 0, true},
		// Perfect agreement with both labels present is defined: kappa 1.
		{"perfect", 2, 0, 0, 1, 1, true},
	}
	for _, tc := range cases {
		t.Run(tc.name, func(t *testing.T) {
			h, j := pairs(tc.pp, tc.pf, tc.fp, tc.ff)
			got, ok := CohenKappa(h, j)
			if ok != tc.ok || (ok && math.Abs(got-tc.want) > 1e-9) {
				t.Errorf("CohenKappa = %v, %v, want %v, %v", got, ok, tc.want, tc.ok)
			}
		})
	}
	if _, ok := CohenKappa(nil, nil); ok {
		t.Error("kappa of no pairs is defined")
	}
}

const labelsFixture = `{"case_id":"c1","metric":"semantic_accuracy","pass":true}
{"case_id":"c2","metric":"semantic_accuracy","label":"pass"}
{"case_id":"c3","metric":"semantic_accuracy","score":0.95}
{"case_id":"c4","metric":"semantic_accuracy","score":0.9,"note":"boundary: thresholds are inclusive"}
{"case_id":"c5","metric":"semantic_accuracy","pass":true}

{"case_id":"c6","metric":"semantic_accuracy","pass":true}
{"case_id":"c7","metric":"semantic_accuracy","label":"fail"}
{"case_id":"c8","metric":"semantic_accuracy","score":0.2}
{"case_id":"c9","metric":"semantic_accuracy","pass":false}
{"case_id":"c10","metric":"semantic_accuracy","pass":false}
{"case_id":"c11","metric":"semantic_accuracy","pass":true}
{"case_id":"c12","metric":"semantic_accuracy","pass":true}
{"case_id":"c13","metric":"semantic_accuracy","pass":true}
{"case_id":"c1","metric":"answer_relevancy","pass":true}
{"case_id":"c2","metric":"answer_relevancy","pass":false}
`

func TestCalibrate(t *testing.T) {
	labels, err := ParseLabels(strings.NewReader(labelsFixture))
	if err != nil {
		t.Fatal(err)
	}
	score := func(f float64) *float64 { return &f }
	sa := func(id string, s float64) JudgedMetric {
		return JudgedMetric{CaseID: id, Metric: "semantic_accuracy", Threshold: 0.9, Score: score(s), Passed: s >= 0.9}
	}
	judged := []JudgedMetric{
		// Humans pass c1..c6 and fail c7..c10. The judge passes c1..c5,
		// fails c6, passes c7 and fails c8..c10: 5 pp, 1 pf, 1 fp, 3 ff.
		sa("c1", 1), sa("c2", 0.9), sa("c3", 0.92), sa("c4", 0.95), sa("c5", 0.91),
		sa("c6", 0.4), sa("c7", 0.93), sa("c8", 0.1), sa("c9", 0.3), sa("c10", 0),
		{CaseID: "c11", Metric: "semantic_accuracy", Threshold: 0.9, Errored: true},
		{CaseID: "c12", Metric: "semantic_accuracy", Threshold: 0.9},
		// c13 is not in the run.
		{CaseID: "c1", Metric: "answer_relevancy", Threshold: 0.5, Score: score(0.8), Passed: true},
		{CaseID: "c2", Metric: "answer_relevancy", Threshold: 0.5, Score: score(0.2), Passed: false},
	}
	got := Calibrate(labels, judged)
	if len(got) != 2 || got[0].Metric != "answer_relevancy" || got[1].Metric != "semantic_accuracy" {
		t.Fatalf("metrics = %+v", got)
	}
	ar, sem := got[0], got[1]
	if ar.Pairs != 2 || ar.Agreements != 2 || ar.Kappa == nil || *ar.Kappa != 1 {
		t.Errorf("answer_relevancy = %+v, want 2/2 and kappa 1", ar)
	}
	if sem.Pairs != 10 || sem.Agreements != 8 || sem.RawAgreement != 0.8 {
		t.Errorf("semantic_accuracy pairs/agree = %d/%d (%v), want 10/8 (0.8)", sem.Pairs, sem.Agreements, sem.RawAgreement)
	}
	if sem.Kappa == nil || math.Abs(*sem.Kappa-0.28/0.48) > 1e-9 {
		t.Errorf("kappa = %v, want %v", sem.Kappa, 0.28/0.48)
	}
	var ids []string
	for _, d := range sem.Disagreements {
		ids = append(ids, fmt.Sprintf("%s:%v/%v", d.CaseID, d.HumanPass, d.JudgePass))
	}
	if got, want := strings.Join(ids, ","), "c6:true/false,c7:false/true"; got != want {
		t.Errorf("disagreements = %s, want %s", got, want)
	}
	if len(sem.Skipped) != 3 {
		t.Errorf("skipped = %+v, want c11 (error), c12 (not calculated), c13 (missing)", sem.Skipped)
	}
	var out bytes.Buffer
	if err := WriteCalibration(&out, got); err != nil {
		t.Fatal(err)
	}
	for _, want := range []string{"semantic_accuracy  10      8      0.800          0.583 [-0.09, 1.00]", "c6: human pass, judge fail (score 0.4) (threshold 0.9)",
		"c11: the judge errored", "c13: the run has no such case and metric"} {
		if !strings.Contains(out.String(), want) {
			t.Errorf("report lacks %q:\n%s", want, out.String())
		}
	}
}

// TestCalibrate_UndefinedKappa: when human and judge both pass every case,
// raw agreement is 1 but kappa is 0/0; it is reported as undefined, never 1.
func TestCalibrate_UndefinedKappa(t *testing.T) {
	labels, err := ParseLabels(strings.NewReader(`{"case_id":"c1","metric":"m","pass":true}
{"case_id":"c2","metric":"m","label":"pass"}
{"case_id":"c3","metric":"m","score":0.8}
`))
	if err != nil {
		t.Fatal(err)
	}
	one := 1.0
	var judged []JudgedMetric
	for _, id := range []string{"c1", "c2", "c3"} {
		judged = append(judged, JudgedMetric{CaseID: id, Metric: "m", Threshold: 0.5, Score: &one, Passed: true})
	}
	got := Calibrate(labels, judged)
	if len(got) != 1 {
		t.Fatalf("metrics = %+v", got)
	}
	m := got[0]
	if m.Pairs != 3 || m.RawAgreement != 1 || m.Kappa != nil || !m.KappaUndefined {
		t.Errorf("got %+v (kappa %v), want 3 pairs, raw agreement 1, undefined kappa", m, m.Kappa)
	}
	var out bytes.Buffer
	if err := WriteCalibration(&out, got); err != nil {
		t.Fatal(err)
	}
	if want := "1.000          undefined (only one label on both sides)  1.000  -    0"; !strings.Contains(out.String(), want) {
		t.Errorf("report lacks %q:\n%s", want, out.String())
	}
}

func TestParseLabels_Errors(t *testing.T) {
	cases := map[string]string{
		"empty":       "\n\n",
		"not json":    "case_id=c1",
		"no case":     `{"metric":"m","pass":true}`,
		"no metric":   `{"case_id":"c","pass":true}`,
		"no verdict":  `{"case_id":"c","metric":"m"}`,
		"two":         `{"case_id":"c","metric":"m","pass":true,"score":1}`,
		"bad label":   `{"case_id":"c","metric":"m","label":"good"}`,
		"score range": `{"case_id":"c","metric":"m","score":1.2}`,
		"unknown key": `{"case_id":"c","metric":"m","pass":true,"passs":true}`,
		"duplicate":   "{\"case_id\":\"c\",\"metric\":\"m\",\"pass\":true}\n{\"case_id\":\"c\",\"metric\":\"m\",\"pass\":false}",
	}
	for name, in := range cases {
		t.Run(name, func(t *testing.T) {
			if _, err := ParseLabels(strings.NewReader(in)); !errors.Is(err, ErrInvalidLabels) {
				t.Errorf("err = %v, want ErrInvalidLabels", err)
			}
		})
	}
}

func TestParseLabels_ReadError(t *testing.T) {
	readErr := errors.New("disk gone")
	r := io.MultiReader(strings.NewReader(`{"case_id":"c","metric":"m","pass":true}`+"\n"), iotest.ErrReader(readErr))
	_, err := ParseLabels(r)
	if !errors.Is(err, ErrInvalidLabels) {
		t.Errorf("err = %v, want ErrInvalidLabels", err)
	}
	if !errors.Is(err, readErr) {
		t.Errorf("err = %v, want it to wrap the reader's error", err)
	}
}
