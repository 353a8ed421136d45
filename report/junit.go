package report

import (
	"encoding/xml"
	"fmt"
	"io"
	"strings"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/show"
)

// JUnit XML (the Ant/Jenkins dialect CI systems read): one testsuite per
// run, one testcase per question. A testcase is named by the case id, which
// is stable and unique within a run, so CI test history survives a reworded
// question and two questions with the same text never collide; its
// classname is "SUITE.AGENT" (consumers that split classnames on dots group
// the cases under the suite). The question's display name, and its text when
// that differs, are testcase properties ("name", "question"). Failed
// questions carry the failed metrics and their reasons, errored questions
// the agent or metric error, and not-evaluated questions are skipped.
// encoding/xml escapes every string and replaces characters XML cannot hold.

type junitSuites struct {
	XMLName  xml.Name     `xml:"testsuites"`
	Name     string       `xml:"name,attr"`
	Tests    int          `xml:"tests,attr"`
	Failures int          `xml:"failures,attr"`
	Errors   int          `xml:"errors,attr"`
	Skipped  int          `xml:"skipped,attr"`
	Time     string       `xml:"time,attr"`
	Suites   []junitSuite `xml:"testsuite"`
}

type junitSuite struct {
	Name       string          `xml:"name,attr"`
	Tests      int             `xml:"tests,attr"`
	Failures   int             `xml:"failures,attr"`
	Errors     int             `xml:"errors,attr"`
	Skipped    int             `xml:"skipped,attr"`
	Time       string          `xml:"time,attr"`
	Timestamp  string          `xml:"timestamp,attr"`
	ID         int             `xml:"id,attr"`
	Properties []junitProperty `xml:"properties>property"`
	Cases      []junitCase     `xml:"testcase"`
}

type junitProperty struct {
	Name  string `xml:"name,attr"`
	Value string `xml:"value,attr"`
}

type junitCase struct {
	Name       string          `xml:"name,attr"`
	Classname  string          `xml:"classname,attr"`
	Time       string          `xml:"time,attr"`
	Properties []junitProperty `xml:"properties>property,omitempty"`
	Failure    *junitMessage   `xml:"failure,omitempty"`
	Error      *junitMessage   `xml:"error,omitempty"`
	Skipped    *junitMessage   `xml:"skipped,omitempty"`
	SystemOut  string          `xml:"system-out,omitempty"`
}

type junitMessage struct {
	Message string `xml:"message,attr"`
	Type    string `xml:"type,attr,omitempty"`
	Body    string `xml:",chardata"`
}

func renderJUnit(w io.Writer, c *compare.Comparison) error {
	run := c.Run
	s := junitSuite{Name: run.Suite, Timestamp: run.StartedAt.UTC().Format("2006-01-02T15:04:05"),
		Time: seconds(run.FinishedAt.Sub(run.StartedAt).Seconds())}
	s.Properties = []junitProperty{{"run", run.ID.String()}, {"agent", run.Agent}, {"version", run.Version}, {"suite_digest", run.SuiteDigest},
		{"quality", show.Score(c.Totals.Quality.Mean)}, {"pass_rate", show.Score(c.Totals.PassRate)}}
	if c.Baseline != nil {
		s.Properties = append(s.Properties, junitProperty{"baseline", c.Baseline.ID.String()},
			junitProperty{"regressed", fmt.Sprint(c.Regressed())})
	}
	if st := compare.Repeats(run); st != nil { // run --repeat K: K and the pass@k and pass^k rates
		s.Properties = append(s.Properties, junitProperty{"repeats", fmt.Sprint(st.K)},
			junitProperty{"pass_at_k", show.Score(st.PassAtK)}, junitProperty{"pass_hat_k", show.Score(st.PassHatK)})
	}
	s.Properties = append(s.Properties, sliceProperties(c.Slices)...)
	if l := c.Localized; l != nil {
		if h := l.Headline(); h != "" {
			s.Properties = append(s.Properties, junitProperty{"localized", sanitize.StripControl(h, false)})
		}
		for _, sd := range l.Slices {
			if sd.Regressed {
				s.Properties = append(s.Properties, junitProperty{"slice." + sanitize.StripControl(sd.Name(), false) + ".regressed",
					sanitize.StripControl(sd.Rule(), false)})
			}
		}
	}
	for _, cc := range c.Cases {
		jc := junitCase{Name: sanitize.StripControl(cc.CaseID, false), Classname: run.Suite + "." + run.Agent,
			Time: seconds(cc.Case.DurationMS / 1000), Properties: caseProperties(cc.Case)}
		if cc.Flaky != nil {
			jc.Properties = append(jc.Properties, junitProperty{"flaky", sanitize.StripControl(cc.Flaky.Text(), false)})
		}
		var regs []string
		gating := false
		for _, f := range cc.Findings {
			if f.Kind.Regression() {
				regs = append(regs, "regression: "+f.Text())
				gating = gating || f.Gating
			}
		}
		switch cc.Status {
		case models.StatusFailed:
			jc.Failure = &junitMessage{Type: "failed", Message: failureSummary(cc.Case), Body: metricLines(cc.Case, regs)}
		case models.StatusError:
			msg := compare.ErrorSummary(cc.Case.ErrorDetails)
			if msg == "" {
				msg = failureSummary(cc.Case)
			} else {
				msg = "agent error: " + msg
			}
			jc.Error = &junitMessage{Type: "error", Message: msg, Body: metricLines(cc.Case, regs)}
		case models.StatusNotEvaluated:
			jc.Skipped = &junitMessage{Message: "not evaluated: no metric was calculated"}
		default:
			if gating {
				jc.Failure = &junitMessage{Type: "regression", Message: regs[0], Body: metricLines(cc.Case, regs)}
			}
		}
		jc.SystemOut = sanitize.StripControl(jsonText(cc.Case.Output), true)
		for _, m := range []*junitMessage{jc.Failure, jc.Error, jc.Skipped} {
			if m != nil {
				m.Message, m.Body = sanitize.StripControl(m.Message, false), sanitize.StripControl(m.Body, true)
			}
		}
		switch {
		case jc.Failure != nil:
			s.Failures++
		case jc.Error != nil:
			s.Errors++
		case jc.Skipped != nil:
			s.Skipped++
		}
		s.Tests++
		s.Cases = append(s.Cases, jc)
	}
	doc := junitSuites{Name: run.Suite, Tests: s.Tests, Failures: s.Failures, Errors: s.Errors,
		Skipped: s.Skipped, Time: s.Time, Suites: []junitSuite{s}}
	if _, err := io.WriteString(w, xml.Header); err != nil {
		return err
	}
	enc := xml.NewEncoder(w)
	enc.Indent("", "  ")
	if err := enc.Encode(doc); err != nil {
		return err
	}
	_, err := io.WriteString(w, "\n")
	return err
}

// caseProperties are a testcase's properties: the question's display name
// and, when it differs from the name, the question text (JSON for a
// structured question).
func caseProperties(c *models.CaseResult) []junitProperty {
	var out []junitProperty
	name := sanitize.StripControl(c.Name, false)
	if name != "" {
		out = append(out, junitProperty{"name", name})
	}
	if q := sanitize.StripControl(jsonText(c.Question), false); q != "" && q != name {
		out = append(out, junitProperty{"question", q})
	}
	return out
}

// failureSummary names the metrics that did not pass.
func failureSummary(c *models.CaseResult) string {
	var parts []string
	for _, m := range c.Metrics {
		switch metricState(m) {
		case "fail":
			parts = append(parts, fmt.Sprintf("%s %s < %s", m.Name, show.Score(m.Score), show.Float(m.Threshold)))
		case "error":
			parts = append(parts, m.Name+" error")
		}
	}
	if len(parts) == 0 {
		return "question did not pass"
	}
	return strings.Join(parts, "; ")
}

// metricLines lists every metric with its score, minimum and reason or
// error, then the regressions.
func metricLines(c *models.CaseResult, regs []string) string {
	var b strings.Builder
	for _, m := range c.Metrics {
		fmt.Fprintf(&b, "%s: %s (minimum %s) %s", m.Name, show.Score(m.Score), show.Float(m.Threshold), metricState(m))
		if e := compare.ErrorSummary(m.ErrorDetails); e != "" {
			b.WriteString(": " + e)
		} else if m.Reason != nil && *m.Reason != "" {
			b.WriteString(": " + *m.Reason)
		}
		b.WriteByte('\n')
	}
	for _, r := range regs {
		b.WriteString(r + "\n")
	}
	return b.String()
}

// sliceProperties are the totals of each failure-mode and tag slice, named
// slice.KEY=VALUE.STAT (see the package doc): quality and pass_rate, and
// with a baseline the slice's regressions.
func sliceProperties(slices []compare.Slice) []junitProperty {
	var out []junitProperty
	for _, s := range slices {
		prefix := "slice." + s.Key + "=" + sanitize.StripControl(s.Value, false) + "."
		out = append(out, junitProperty{prefix + "quality", show.Score(s.Quality.Mean)},
			junitProperty{prefix + "pass_rate", show.Score(s.PassRate)})
		if s.Baseline != nil {
			out = append(out, junitProperty{prefix + "regressions", fmt.Sprint(s.Regressions)})
		}
	}
	return out
}

func seconds(s float64) string { return fmt.Sprintf("%.3f", s) }
