package compare

import "testing"

func TestQuestionFindings_Text(t *testing.T) {
	const agg = "not gating: judge metrics gate in aggregate; "
	for _, tc := range []struct {
		name     string
		findings []Finding
		want     string
	}{
		{"one reason", []Finding{{Message: "a fell", Why: agg + "a within noise: p = 0.4"}},
			"a fell (" + agg + "a within noise: p = 0.4)"},
		{"shared leading clause said once", []Finding{
			{Message: "a fell", Why: agg + "a within noise: p = 0.4"},
			{Message: "a fails", Why: agg + "a within noise: p = 0.4"},
			{Message: "b fell", Why: agg + "b within noise: p = 0.2"},
		}, "a fell; a fails; b fell (" + agg + "a within noise: p = 0.4; b within noise: p = 0.2)"},
		{"different reasons kept", []Finding{
			{Message: "exact fails", Why: "gates: a deterministic check that newly fails regresses by itself"},
			{Message: "b fell", Why: agg + "b within noise: p = 0.2"},
		}, "exact fails; b fell (gates: a deterministic check that newly fails regresses by itself; " + agg + "b within noise: p = 0.2)"},
		{"no reason", []Finding{{Message: "a fell"}}, "a fell"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := (QuestionFindings{CaseID: "q", Findings: tc.findings}).Text(); got != tc.want {
				t.Errorf("got\n%s\nwant\n%s", got, tc.want)
			}
		})
	}
}
