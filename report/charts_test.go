package report

import (
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/runfixture"
)

// TestBuildCharts_DeltasOnlyChanged: the change chart draws only the
// metrics that changed; +0.000 rows and rows without a value on one side
// are counted as left out, and a report without any change says so.
func TestBuildCharts_DeltasOnlyChanged(t *testing.T) {
	ref, bad := runfixture.SupportRuns()
	c := buildCharts(compare.Compare(bad, ref, compare.Options{}))
	if c.Deltas == nil {
		t.Fatal("no change chart against a baseline")
	}
	var labels []string
	for _, r := range c.Deltas.Rows {
		labels = append(labels, r.Label)
		if r.Value == "+0.000" || r.Value == "-0.000" || !r.HasDelta {
			t.Errorf("row %s drawn with %s", r.Label, r.Value)
		}
	}
	if got, want := strings.Join(labels, ","), "quality (run),exact,action_group"; got != want {
		t.Errorf("rows = %s, want %s", got, want)
	}
	if got, want := c.Deltas.Unchanged, 1; got != want { // answer_relevancy: not calculated
		t.Errorf("left out = %d, want %d", got, want)
	}

	prev, _ := runfixture.WorkedExample()
	same := runfixture.Build("01900000-0000-7000-8000-000000000003", 3, runfixture.T0.Add(2*time.Hour), runfixture.Case{ID: "returns",
		Question: "How long do I have to return an item?", Expected: "You can return it within 30 days.",
		Output: "Within 30 days.", Metrics: []runfixture.Metric{runfixture.NewMetric("semantic_accuracy", 0.9, runfixture.Score(0.98))}})
	cmp := compare.Compare(same, prev, compare.Options{})
	c = buildCharts(cmp)
	if len(c.Deltas.Rows) != 0 || c.Deltas.Unchanged != 2 {
		t.Errorf("unchanged run: rows %d, left out %d; want 0 and 2", len(c.Deltas.Rows), c.Deltas.Unchanged)
	}
	var sb strings.Builder
	if err := mustRenderer(t).Render(&sb, FormatHTML, cmp); err != nil {
		t.Fatal(err)
	}
	if html := sb.String(); !strings.Contains(html, `id="no-change"`) || strings.Contains(html, `id="chart-deltas"`) {
		t.Error("a report without changes draws an empty change chart instead of saying so")
	}
}
