package report

import (
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

func TestTrajectoryLine(t *testing.T) {
	traced := func(from string) models.JSON {
		j, _ := models.CaseMetadata{Trace: &models.CaseTrace{ActionsFrom: from, SpansReceived: 4, ModelCalls: 2, Spans: []models.TraceSpan{}}}.Encode()
		return j
	}
	for _, tc := range []struct {
		name          string
		meta, actions models.JSON
		want          string
	}{
		{"no tracing", models.JSON(`{"model": "x"}`), models.JSON(`[{"name": "a"}]`), ""},
		{"null metadata", nil, nil, ""},
		{"from spans", traced("spans"), models.JSON(`[{"name":"lookup","arguments":{"id":42},"status":"ok","duration_ms":3.14},{"group":"g","name":"refund","status":"error"}]`),
			`trajectory (read from the agent's spans; 4 spans, 2 model calls): lookup {"id":42} ok 3.1 ms → g/refund error`},
		{"agent's own", traced("agent"), models.JSON(`[]`), "trajectory (reported by the agent; 4 spans, 2 model calls): no tool call"},
		{"no span", traced(""), nil, "trajectory (no span arrived; 4 spans, 2 model calls): no tool call"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := TrajectoryLine(tc.meta, tc.actions); got != tc.want {
				t.Errorf("TrajectoryLine = %q, want %q", got, tc.want)
			}
		})
	}
	var many strings.Builder
	many.WriteString("[")
	for i := range 25 {
		if i > 0 {
			many.WriteString(",")
		}
		many.WriteString(`{"name":"step"}`)
	}
	many.WriteString("]")
	if got := TrajectoryLine(traced("spans"), models.JSON(many.String())); !strings.HasSuffix(got, "… and 5 more") {
		t.Errorf("long path = %q", got)
	}
}
