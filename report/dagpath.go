package report

import (
	"bytes"
	"encoding/json"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
)

// dagPath is the decision path a dag metric stored with the case (nil for
// every other metric, and for a case whose metadata cannot be read).
func dagPath(c *models.CaseResult, m *models.MetricResult) []score.DAGStep {
	if c == nil || m == nil || !bytes.Contains(c.ResponseMetadata, dagKey) && !bytes.Contains(m.ErrorDetails, dagKey) {
		return nil // most metrics: no decoding per row
	}
	meta, err := models.DecodeCaseMetadata(c.ResponseMetadata)
	if err != nil {
		return nil
	}
	return score.DAGPathOf(meta.MetricDetails[m.Name], json.RawMessage(m.ErrorDetails))
}

var dagKey = []byte(`"dag_path"`)
