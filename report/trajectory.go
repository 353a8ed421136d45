package report

import (
	"encoding/json"
	"fmt"
	"strings"

	"github.com/agentevals-go/agentevals/models"
)

// maxTrajectorySteps bounds the steps a report lists per case.
const maxTrajectorySteps = 20

// TrajectoryLine is a traced case's path in one line: each tool call in
// order with its arguments, status and duration ("lookup_order {"id":42}
// ok 3.1 ms → refund … error"), and where the actions came from; "" when
// the run had no tracing for the case. Untrusted text: templates escape it.
func TrajectoryLine(meta models.JSON, actions models.JSON) string {
	m, err := models.DecodeCaseMetadata(meta)
	if err != nil || m.Trace == nil {
		return ""
	}
	var steps []struct {
		Group      string          `json:"group"`
		Name       string          `json:"name"`
		Arguments  json.RawMessage `json:"arguments"`
		Status     string          `json:"status"`
		DurationMS *float64        `json:"duration_ms"`
	}
	_ = json.Unmarshal(actions, &steps)
	var parts []string
	for i, s := range steps {
		if i == maxTrajectorySteps {
			parts = append(parts, fmt.Sprintf("… and %d more", len(steps)-i))
			break
		}
		p := s.Name
		if s.Group != "" {
			p = s.Group + "/" + p
		}
		if len(s.Arguments) > 0 && string(s.Arguments) != "null" {
			p += " " + shortText(compactJSON(s.Arguments), 80)
		}
		if s.Status != "" {
			p += " " + s.Status
		}
		if s.DurationMS != nil {
			p += fmt.Sprintf(" %.1f ms", *s.DurationMS)
		}
		parts = append(parts, p)
	}
	path := strings.Join(parts, " → ")
	if path == "" {
		path = "no tool call"
	}
	from := "reported by the agent"
	switch m.Trace.ActionsFrom {
	case "spans":
		from = "read from the agent's spans"
	case "":
		from = "no span arrived"
	}
	return fmt.Sprintf("trajectory (%s; %d spans, %d model calls): %s", from, m.Trace.SpansReceived, m.Trace.ModelCalls, path)
}

// shortText cuts s to n runes with an ellipsis.
func shortText(s string, n int) string {
	r := []rune(s)
	if len(r) <= n {
		return s
	}
	return string(r[:n]) + "…"
}
