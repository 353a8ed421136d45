package models

import (
	"bytes"
	"testing"
)

// TestNeedsFold: the save skips folding only where folding would change
// nothing: no metric left uncalculated and no not-calculated list in the
// metadata, however its key is spelled.
func TestNeedsFold(t *testing.T) {
	score := 1.0
	calculated := &MetricResult{Name: "m", Score: &score, Passed: true}
	uncalculated := &MetricResult{Name: "judge", Position: 1}
	tests := []struct {
		name    string
		metrics []*MetricResult
		meta    string
		want    bool
	}{
		{"calculated metrics, no metadata", []*MetricResult{calculated}, "", false},
		{"a traced case", []*MetricResult{calculated}, `{"otlp_trace":{"spans":[{"name":"chat \u003cmodel\u003e"}]}}`, false},
		{"an uncalculated metric", []*MetricResult{calculated, uncalculated}, `{}`, true},
		{"a stale list", []*MetricResult{calculated}, `{"not_calculated":[{"name":"judge"}]}`, true},
		{"a stale list under an escaped key", []*MetricResult{calculated}, `{"not\u005fcalculated":[]}`, true},
		{"a stale list under an escaped letter", []*MetricResult{calculated}, `{"\u006eot_calculated":[]}`, true},
	}
	for _, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			c := &CaseResult{CaseID: "q", Metrics: tc.metrics, ResponseMetadata: JSON(tc.meta)}
			if got := needsFold(c); got != tc.want {
				t.Errorf("needsFold = %v, want %v", got, tc.want)
			}
			before := bytes.Clone(c.ResponseMetadata)
			if err := foldUncalculated(c); err != nil {
				t.Fatal(err)
			}
			if changed := !bytes.Equal(before, c.ResponseMetadata); changed && !tc.want {
				t.Errorf("folding changed %s to %s, yet needsFold said it would not", before, c.ResponseMetadata)
			}
		})
	}
}
