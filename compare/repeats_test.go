package compare

import (
	"fmt"
	"math"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

func TestRepeats(t *testing.T) {
	caseWith := func(meta string) *models.CaseResult {
		return &models.CaseResult{ResponseMetadata: models.JSON(meta)}
	}
	tests := []struct {
		name  string
		cases []*models.CaseResult
		want  string // K, pass rates, per-metric sd
	}{
		{"no repeats", []*models.CaseResult{caseWith(`{"judge_usage":{}}`), {}}, "<nil>"},
		{"pooled sd", []*models.CaseResult{
			// sd terms: (0.1²+0+0.1²) over df 2, then (0.2²+0.2²) over df 1 → sqrt(0.1/3)
			caseWith(`{"repeats":[{},{},{}],"repeat_scores":{"m":[0.8,0.9,1.0]},"pass_at_k":true,"pass_hat_k":false}`),
			caseWith(`{"repeats":[{},{},{}],"repeat_scores":{"m":[0.4,null,0.8]},"pass_at_k":true,"pass_hat_k":true}`),
			caseWith(`{"repeats":[{},{},{}],"repeat_scores":{"m":[0.5,null,null]},"pass_at_k":null,"pass_hat_k":null}`),
		}, fmt.Sprintf("k=3 at=1.000 hat=0.500 cases=2 m=%.4f/2", math.Sqrt(0.1/3))},
		{"nothing known", []*models.CaseResult{
			caseWith(`{"repeats":[{},{}],"repeat_scores":{"m":[null,null]},"pass_at_k":null,"pass_hat_k":null}`),
		}, "k=2 at=<nil> hat=<nil> cases=0 m=<nil>/0"},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			st := Repeats(&models.Run{Cases: tc.cases})
			got := "<nil>"
			if st != nil {
				got = fmt.Sprintf("k=%d at=%s hat=%s cases=%d", st.K, f3(st.PassAtK), f3(st.PassHatK), st.Cases)
				for _, m := range st.Metrics {
					sd := "<nil>"
					if m.WithinSD != nil {
						sd = fmt.Sprintf("%.4f", *m.WithinSD)
					}
					got += fmt.Sprintf(" %s=%s/%d", m.Name, sd, m.Questions)
				}
			}
			if got != tc.want {
				t.Errorf("Repeats = %s, want %s", got, tc.want)
			}
		})
	}
}

func f3(p *float64) string {
	if p == nil {
		return "<nil>"
	}
	return fmt.Sprintf("%.3f", *p)
}

func TestRepeatScores(t *testing.T) {
	once := &models.CaseResult{ResponseMetadata: models.JSON(`{"judge_usage":{}}`)}
	if got := RepeatScores(once); got != nil {
		t.Errorf("a case answered once: %v, want nil", got)
	}
	twice := &models.CaseResult{ResponseMetadata: models.JSON(`{"repeats":[{},{}],"repeat_scores":{"m":[0.5,null]}}`)}
	got := RepeatScores(twice)["m"]
	if len(got) != 2 || got[0] == nil || *got[0] != 0.5 || got[1] != nil {
		t.Errorf("repeat scores = %v, want [0.5 nil]", got)
	}
}
