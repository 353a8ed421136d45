package runner

import (
	"reflect"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

func TestCoverageOf(t *testing.T) {
	one := 1.0
	noJudge, agentErr := reasonNoJudge, reasonAgentError
	metric := func(name string, score *float64, reason *string) *models.MetricResult {
		return &models.MetricResult{Name: name, Score: score, Reason: reason, Passed: score != nil}
	}
	run := &models.Run{Cases: []*models.CaseResult{
		{Status: models.StatusNotEvaluated, Metrics: []*models.MetricResult{metric("semantic_accuracy", nil, &noJudge), metric("answer_relevancy", nil, &noJudge)}},
		{Status: models.StatusPassed, Metrics: []*models.MetricResult{metric("exact", &one, nil), metric("semantic_accuracy", nil, &noJudge)}},
		{Status: models.StatusError, Metrics: []*models.MetricResult{metric("exact", nil, &agentErr)}},
		{Status: models.StatusPassed, Metrics: []*models.MetricResult{metric("exact", &one, nil)}},
	}}
	got := CoverageOf(run)
	want := Coverage{Questions: 4, NotEvaluated: 1, Uncalculated: []Uncalculated{
		{Reason: "no judge configured", Metrics: []string{"semantic_accuracy", "answer_relevancy"}, Questions: 2, Passed: 1},
	}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("CoverageOf = %+v\nwant %+v", got, want)
	}
	if !got.Uncalculated[0].NoJudge() {
		t.Error("NoJudge() = false for the no-judge reason")
	}
}

// TestExecute_JudgeDisabledReason: a run whose judge was switched off on
// purpose (ExecOptions.JudgeDisabled, evalrun --no-judge) says so in the
// persisted reason, which keeps the "not calculated: " prefix; a run
// without a judge otherwise says no judge is configured, judge section or not.
func TestExecute_JudgeDisabledReason(t *testing.T) {
	const questions = `"questions": [{"id": "q", "question": "q", "expected_answer": "ok"}]}`
	for _, tc := range []struct {
		name, judge, reason string
		disabled            bool
	}{
		{"disabled", `"judge": {"provider": "openai", "model": "gpt-4o-mini"},`, "not calculated: judge disabled for this run", true},
		{"judge section, none given", `"judge": {"provider": "openai", "model": "gpt-4o-mini"},`, "not calculated: no judge configured", false},
		{"no judge section", "", "not calculated: no judge configured", false},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := mustLoad(t, `{"suite": "S", "agent": {"name": "A", "command": ["true"]}, `+tc.judge+questions)
			run := mustExecute(t, s, answers(map[string]string{"q": "ok"}), ExecOptions{JudgeDisabled: tc.disabled})
			for _, m := range run.Cases[0].Metrics {
				if m.Reason == nil || *m.Reason != tc.reason {
					t.Errorf("%s reason = %v, want %q", m.Name, m.Reason, tc.reason)
				}
			}
			cov := CoverageOf(run)
			if len(cov.Uncalculated) != 1 || cov.Uncalculated[0].JudgeDisabled() != tc.disabled || cov.Uncalculated[0].NoJudge() == tc.disabled {
				t.Errorf("coverage = %+v, want JudgeDisabled() %v", cov.Uncalculated, tc.disabled)
			}
		})
	}
}
