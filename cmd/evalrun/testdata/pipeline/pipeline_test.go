package pipeline

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/agentevals-go/agentevals/evaltest"
	"github.com/agentevals-go/agentevals/modelkit"
)

// TestPipeline runs the suite of PIPELINE_SUITE with its own command agent
// and the judge its environment configures
// and writes the gate decision to PIPELINE_DECISION as JSON.
func TestPipeline(t *testing.T) {
	res := evaltest.Run(t, os.Getenv("PIPELINE_SUITE"), nil, evaltest.WithModels(modelkit.Models{}))
	b, err := json.Marshal(map[string]any{"code": res.Decision.Code, "line": res.Decision.Line, "saved": res.Saved})
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(os.Getenv("PIPELINE_DECISION"), b, 0o644); err != nil {
		t.Fatal(err)
	}
}
