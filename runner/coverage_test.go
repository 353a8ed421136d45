package runner

import (
	"reflect"
	"testing"

	"agentevals/models"
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
