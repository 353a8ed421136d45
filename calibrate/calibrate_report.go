package calibrate

import (
	"fmt"
	"io"
	"strings"
	"text/tabwriter"
)

// kappaUndefinedText is printed in place of a kappa that cannot be computed.
const kappaUndefinedText = "undefined (only one label on both sides)"

// WriteCalibration prints the agreement table and, per metric, the cases
// where human and judge disagree and the labels that could not be compared.
func WriteCalibration(w io.Writer, ms []MetricAgreement) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintln(tw, "metric\tlabels\tagree\traw agreement\tCohen's kappa [95% interval]\tTPR\tTNR\tskipped")
	for _, m := range ms {
		raw, kappa := "-", "-"
		if m.Pairs > 0 {
			raw = fmt.Sprintf("%.3f", m.RawAgreement)
		}
		switch {
		case m.Kappa != nil && m.KappaLow != nil:
			kappa = fmt.Sprintf("%.3f [%.2f, %.2f]", *m.Kappa, *m.KappaLow, *m.KappaHigh)
		case m.Kappa != nil:
			kappa = fmt.Sprintf("%.3f", *m.Kappa)
		case m.KappaUndefined:
			kappa = kappaUndefinedText
		}
		fmt.Fprintf(tw, "%s\t%d\t%d\t%s\t%s\t%s\t%s\t%d\n", m.Metric, m.Pairs, m.Agreements, raw, kappa, rate(m.TPR), rate(m.TNR), len(m.Skipped))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, m := range ms {
		if m.LengthJudge != nil {
			fmt.Fprintf(w, "\n%s: length bias check: correlation with the answer's length %s for the judge's score, %s for the human labels\n",
				m.Metric, rate(m.LengthJudge), rate(m.LengthHuman))
		}
		if len(m.Disagreements) > 0 {
			fmt.Fprintf(w, "\n%s: %d disagreement(s)\n", m.Metric, len(m.Disagreements))
			for _, d := range m.Disagreements {
				fmt.Fprintf(w, "  %s: human %s, judge %s (threshold %s)\n",
					d.CaseID, verdictText(d.HumanPass, d.HumanScore), verdictText(d.JudgePass, d.JudgeScore), num(d.Threshold))
			}
		}
		if len(m.Skipped) > 0 {
			fmt.Fprintf(w, "\n%s: %d label(s) not compared\n", m.Metric, len(m.Skipped))
			for _, s := range m.Skipped {
				fmt.Fprintf(w, "  %s: %s\n", s.CaseID, s.Reason)
			}
		}
	}
	return nil
}

func verdictText(pass bool, score *float64) string {
	v := "fail"
	if pass {
		v = "pass"
	}
	if score != nil {
		v += " (score " + num(*score) + ")"
	}
	return v
}

func num(f float64) string {
	s := strings.TrimRight(strings.TrimRight(fmt.Sprintf("%.3f", f), "0"), ".")
	if s == "" || s == "-" {
		return "0"
	}
	return s
}

// rate is a share or a correlation with three decimals, "-" when undefined.
func rate(v *float64) string {
	if v == nil {
		return "-"
	}
	return fmt.Sprintf("%.3f", *v)
}
