package evaltest

import (
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/eval"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/report"
	"github.com/agentevals-go/agentevals/sanitize"
	"github.com/agentevals-go/agentevals/suite"
)

// answerPreview is how many characters of a failed question's answer the
// log shows.
const answerPreview = 300

// report tells the outcome of one question in its subtest.
func (o *outcomes) report(t *testing.T, id string) {
	t.Helper()
	if o.failure != "" {
		t.Skipf("%s", o.failure)
	}
	c := o.cases[id]
	if c == nil {
		t.Fatalf("evaltest: question %q has no result", id)
	}
	fail := t.Errorf
	if !o.checks { // fail-on regressions: a failed check fails only as a gating regression
		fail = func(format string, args ...any) { t.Logf(format+" (not acted on: fail-on regressions)", args...) }
	}
	if c.AgentErrored() {
		fail("agent error%s: %s", errorKind(c.ErrorDetails), sanitize.EscapeText(compare.ErrorSummary(c.ErrorDetails)))
		logReplay(t, c.ResponseMetadata)
	}
	var notEvaluated []string
	for _, m := range c.Metrics {
		reason := ""
		if m.Reason != nil {
			reason = sanitize.EscapeText(*m.Reason)
		}
		switch {
		case m.Errored():
			fail("%s: not scored (threshold %.3f): %s", m.Name, m.Threshold, reason)
		case m.Score == nil:
			notEvaluated = append(notEvaluated, m.Name)
		case !m.Passed:
			fail("%s: score %.3f below threshold %.3f: %s", m.Name, *m.Score, m.Threshold, reason)
		default:
			t.Logf("%s: score %.3f (threshold %.3f): %s", m.Name, *m.Score, m.Threshold, reason)
		}
	}
	if len(notEvaluated) > 0 && !c.AgentErrored() && c.Status != models.StatusNotEvaluated {
		t.Logf("not evaluated: %s: %s", sanitize.EscapeText(strings.Join(notEvaluated, ", ")), o.notEval)
	}
	for _, f := range o.findings[id] {
		o.logFinding(t, f)
	}
	if c.Status == models.StatusFailed || c.Status == models.StatusError {
		if !c.Output.IsNull() {
			t.Logf("answer: %s", preview(c.Output))
		}
		logConversation(t, report.NewTranscriptView(c.ResponseMetadata))
		if p, ok := locate(o.path, id); ok {
			t.Logf("question %q is at %s:%d", id, sanitize.EscapeText(p.File), p.Line)
		}
	}
	if c.Status == models.StatusNotEvaluated {
		t.Skipf("not evaluated: no metric of %q could be calculated: %s", id, o.notEval)
	}
}

// errorKind is " (kind)" for an agent error whose kind says more than
// its message (panic, timeout, bad_response, api_replay…), else "".
func errorKind(details models.JSON) string {
	var d struct{ Kind string }
	if details.Decode(&d) != nil || d.Kind == "" || d.Kind == "agent_error" || d.Kind == "api_replay" {
		return ""
	}
	return " (" + sanitize.EscapeText(d.Kind) + ")"
}

// locate finds the question id in the suite file at path (ok is false
// when it cannot be located, which only costs the message its location).
func locate(path, id string) (suite.Position, bool) {
	positions, err := suite.Positions(path)
	if err != nil {
		return suite.Position{}, false
	}
	p, ok := positions[id]
	return p, ok
}

// logReplay logs the strict API replay requests that failed the case.
func logReplay(t *testing.T, meta models.JSON) {
	t.Helper()
	v := report.NewReplayView(meta)
	if v == nil || !v.Failed {
		return
	}
	for _, r := range v.Requests {
		if r.OK {
			continue
		}
		t.Logf("api replay: %s %s: %s", r.Status, sanitize.EscapeText(r.Label), sanitize.EscapeText(strings.Join(r.Differences, "; ")))
	}
	for _, m := range v.Missing {
		t.Logf("api replay: declared request #%d never made: %s", m.Interaction, sanitize.EscapeText(m.Label))
	}
}

// logFinding logs a comparison finding; a gating regression fails t when
// the fail-on rule acts on regressions.
func (o *outcomes) logFinding(t *testing.T, f compare.Finding) {
	t.Helper()
	msg := sanitize.EscapeText(f.Message)
	switch {
	case f.Gating && o.gate:
		t.Errorf("regression (%s, fails the %s gate): %s", f.Kind, o.mode, msg)
	case f.Gating:
		t.Logf("regression (%s; fails the %s gate under FailOnRegression): %s", f.Kind, o.mode, msg)
	case f.Kind.Regression():
		t.Logf("regression (%s; does not gate under the %s gate): %s", f.Kind, o.mode, msg)
	default:
		t.Logf("%s: %s", f.Kind, msg)
	}
}

// reportRunFindings logs the findings about the whole run (metric-level
// drops of the ci gate, questions missing from the run).
func reportRunFindings(t *testing.T, cmp *compare.Comparison, o *outcomes) {
	t.Helper()
	for _, f := range cmp.Findings {
		if f.CaseID == "" {
			o.logFinding(t, f)
		}
	}
}

// logHistory says where the run was saved, what it was compared with and
// what evalrun run would exit with.
func logHistory(t *testing.T, url string, res *eval.Result) {
	t.Helper()
	cmp := res.Comparison
	t.Logf("saved run %s to %s", cmp.Run.ID, sanitize.EscapeText(url))
	switch {
	case cmp.Baseline != nil:
		t.Logf("baseline: run %s (started %s), %s gate", cmp.Baseline.ID, report.FormatTime(cmp.Baseline.StartedAt), cmp.Options.Gate)
		if o := res.Origin; o != nil {
			t.Logf("baseline from: %s", sanitize.EscapeText(report.BaselineOriginLine(o)))
			for _, w := range o.Warnings {
				t.Logf("warning: %s", sanitize.EscapeText(w))
			}
		}
	case res.NoBaseline != "":
		t.Logf("baseline: none (%s); thresholds only", sanitize.EscapeText(res.NoBaseline))
	default:
		t.Logf("baseline: none (first run of this definition); thresholds only")
	}
	t.Logf("gate decision: %s", sanitize.EscapeText(res.Decision.Line))
	if cmp.Decision != nil {
		t.Logf("decision recorded in the run's summary: report, history and evaldash show this gate, baseline and exit")
	}
}

// preview is a failed answer for the log: escaped, at most answerPreview
// characters of its text.
func preview(out models.JSON) string {
	s := string(out)
	var text string
	if out.Decode(&text) == nil {
		s = text
	}
	s = sanitize.EscapeText(s)
	if utf8.RuneCountInString(s) > answerPreview {
		r := []rune(s)
		s = string(r[:answerPreview]) + "…"
	}
	return fmt.Sprintf("%q", s)
}
