package report

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
)

// TestReports_ReasonWhole renders a failed action_group with the README's
// example reason in the text and Markdown reports: the expected call and
// its arguments stay visible (the reports used to cut it at 200 and 120
// characters); only a reason past MaxReasonRunes is cut, at its end, saying
// where the whole one is.
func TestReports_ReasonWhole(t *testing.T) {
	const reason = `0 of 1 expected calls matched in order among 1 observed (score 0/1); wrong: expected #1 policies/lookup_policy {"topic":"returns"}, observed #1 policies/lookup_policy {"topic":"shipping"} (arguments differ)`
	long := strings.Repeat("word ", MaxReasonRunes/5+10) + "END"
	run := runfixture.Build("01900000-0000-7000-8000-000000000501", 1, runfixture.T0,
		runfixture.Case{ID: "returns", Metrics: []runfixture.Metric{{Name: "lookup", Threshold: 1, Score: runfixture.Score(0), Reason: reason}}},
		runfixture.Case{ID: "essay", Metrics: []runfixture.Metric{{Name: "judge", Threshold: 1, Score: runfixture.Score(0), Reason: long}}})
	r := mustRenderer(t)
	cmp := compare.Compare(run, nil, compare.Options{})
	for _, tt := range []struct {
		f    Format
		want string
	}{
		{FormatText, reason},
		{FormatMarkdown, `wrong: expected \#1 policies/lookup\_policy {"topic":"returns"}, observed \#1 policies/lookup\_policy {"topic":"shipping"} \(arguments differ\)`},
	} {
		b, err := r.Bytes(tt.f, cmp)
		if err != nil {
			t.Fatal(err)
		}
		out := string(b)
		if !strings.Contains(out, tt.want) {
			t.Errorf("%s report lacks the whole reason %q:\n%s", tt.f, tt.want, out)
		}
		if strings.Contains(out, "END") || !strings.Contains(out, "more characters: the whole reason is in the JSON report and the dashboard") {
			t.Errorf("%s report: a reason past %d characters is not cut at its end with a pointer", tt.f, MaxReasonRunes)
		}
	}
}
