package models

import (
	"testing"
)

func TestCaseResult_DeriveStatusAndQuality(t *testing.T) {
	score := func(v float64) *float64 { return &v }
	errJSON := JSON(`{"kind":"invalid_reply"}`)
	tests := []struct {
		name    string
		c       CaseResult
		status  string
		quality *float64
	}{
		{"agent error", CaseResult{ErrorDetails: JSON(`{"message":"boom"}`),
			Metrics: []*MetricResult{{Score: score(1), Passed: true}}}, StatusError, score(0)},
		{"nothing calculated", CaseResult{Metrics: []*MetricResult{{Name: "semantic_accuracy"}}}, StatusNotEvaluated, nil},
		{"no metrics", CaseResult{}, StatusNotEvaluated, nil},
		{"all pass", CaseResult{Metrics: []*MetricResult{{Score: score(1), Passed: true}, {Score: score(0.9), Passed: true}}},
			StatusPassed, score(0.95)},
		{"one fails", CaseResult{Metrics: []*MetricResult{{Score: score(1), Passed: true}, {Score: score(0.5), Passed: false}}},
			StatusFailed, score(0.75)},
		{"metric error counts 0", CaseResult{Metrics: []*MetricResult{{Score: score(1), Passed: true}, {ErrorDetails: errJSON}}},
			StatusError, score(0.5)},
		{"skipped metric ignored", CaseResult{Metrics: []*MetricResult{{Score: score(0.8), Passed: true}, {Name: "answer_relevancy"}}},
			StatusPassed, score(0.8)},
		{"JSON null error is no error", CaseResult{ErrorDetails: JSON("null"),
			Metrics: []*MetricResult{{Score: score(1), Passed: true}}}, StatusPassed, score(1)},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got, want := tt.c.DeriveStatus(), tt.status; got != want {
				t.Errorf("DeriveStatus() = %q, want %q", got, want)
			}
			got := tt.c.Quality()
			switch {
			case got == nil && tt.quality == nil:
			case got == nil || tt.quality == nil:
				t.Errorf("Quality() = %v, want %v", got, tt.quality)
			case *got != *tt.quality:
				t.Errorf("Quality() = %v, want %v", *got, *tt.quality)
			}
		})
	}
}
