package gotest_test

import (
	"encoding/json"
	"os"
	"testing"

	"github.com/agentevals-go/agentevals/agent"
	"github.com/agentevals-go/agentevals/evaltest"
	"github.com/agentevals-go/agentevals/examples/gotest"
	"github.com/agentevals-go/agentevals/modelkit"
)

// revision is the agent revision under test: AGENT_REVISION, else the
// reference.
func revision() string {
	if r := os.Getenv("AGENT_REVISION"); r != "" {
		return r
	}
	return "reference"
}

// TestSupportSuite runs suite.json against the agent: one subtest per
// question (go test -run 'TestSupportSuite/warranty' asks only that one).
func TestSupportSuite(t *testing.T) {
	t.Parallel()
	evaltest.Run(t, "suite.json", gotest.Agent(revision()),
		evaltest.WithMetadata(map[string]any{"revision": revision()}), evaltest.WithModels(modelkit.Models{}))
}

// TestWarrantyAnswer checks one answer with single-answer assertions.
func TestWarrantyAnswer(t *testing.T) {
	t.Parallel()
	q := agent.Question{ID: "warranty", Question: json.RawMessage(`"How long is the warranty on electronics?"`)}
	resp, err := gotest.Agent(revision())(t.Context(), q)
	if err != nil {
		t.Fatal(err)
	}
	var answer string
	if err := json.Unmarshal(resp.Output, &answer); err != nil {
		t.Fatalf("answer %s: %v", resp.Output, err)
	}
	evaltest.Contains(t, answer, "2-year", "warranty")
	evaltest.NotContains(t, answer, "I think")
	evaltest.Matches(t, answer, `^Electronics carry a \d+-year warranty\.$`)
	evaltest.MaxWords(t, answer, 12)

	// Judge-backed checks in a subtest of their own: without a judge
	// (EVAL_JUDGE_MODEL unset) or under -short they skip it with the
	// reason, and the deterministic checks above still count. The judge
	// the environment configures is built with provider.Models.
	t.Run("faithful", func(t *testing.T) {
		evaltest.NewJudge(t, evaltest.WithModels(modelkit.Models{})).Faithful(t, answer, gotest.Policies["warranty"])
	})
}
