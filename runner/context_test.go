package runner

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"testing"

	"github.com/agentevals-go/agentevals/compare"
	"github.com/agentevals-go/agentevals/internal/testkit/testdb"
	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/suite"
)

// contextSuite has retrieval context inline and in a golden set, a question
// whose metadata already has a "context" key, and one without context.
func contextSuite(tb testing.TB) *suite.Suite {
	dir := tb.TempDir()
	testfile.Write(tb, dir, "golden.jsonl", `{"id": "g", "input": "Refunds?", "expected": "14 days", "context": ["Refunds: 14 days."], "meta": {"topic": "refunds"}}`+"\n")
	s, err := suite.Load(testfile.Write(tb, dir, "suite.json", `{"suite": "Context", "agent": {"name": "A", "command": ["true"]},
	  "evaluators": {"exact": {"type": "exact_match"}},
	  "questions": [
	    {"id": "inline", "question": "Returns?", "expected_answer": "30 days", "metadata": {"tags": ["returns"]},
	     "context": "Returns <within> 30 days & free."},
	    {"id": "taken", "question": "Warranty?", "expected_answer": "2 years", "metadata": {"context": "the suite's own"},
	     "context": ["Warranty: 2 years."]},
	    {"id": "none", "question": "Hours?", "expected_answer": "9-5"}
	  ],
	  "golden_set": "golden.jsonl"}`))
	if err != nil {
		tb.Fatalf("Load: %v", err)
	}
	return s
}

func TestPlan_SavesRetrievalContextInMetadata(t *testing.T) {
	s := contextSuite(t)
	want := map[string]string{
		"inline": `{"tags":["returns"],"context":["Returns <within> 30 days & free."]}`,
		"taken":  `{"context":"the suite's own"}`,
		"none":   `{}`,
		"g":      `{"topic":"refunds","context":["Refunds: 14 days."]}`,
	}
	run := mustExecute(t, s, answers(map[string]string{"inline": "30 days", "taken": "2 years", "none": "9-5", "g": "14 days"}), ExecOptions{})
	plan := s.Plan(s.Calculated(false))
	for i, c := range run.Cases {
		if got := string(c.Metadata); got != want[c.CaseID] {
			t.Errorf("%s: saved metadata = %s, want %s", c.CaseID, got, want[c.CaseID])
		}
		if got := string(plan.Cases[i].Metadata); got != string(c.Metadata) {
			t.Errorf("%s: planned metadata %s differs from the saved %s", c.CaseID, got, c.Metadata)
		}
	}

	// The digest keeps the question's metadata and its context apart, as
	// before the context was saved.
	one, err := s.Only([]string{"inline"})
	if err != nil {
		t.Fatal(err)
	}
	canonical := `{"calculated_metrics":["exact"],"evaluators":{"exact":{"params":null,"type":"exact_match"}},"questions":[{"context":["Returns <within> 30 days & free."],` +
		`"expected_actions":null,"expected_answer":"30 days","id":"inline","metadata":{"tags":["returns"]},` +
		`"minimum_scores":{"exact":1},"question":"Returns?"}],"suite":"Context","version":"1"}`
	sum := sha256.Sum256([]byte(canonical))
	if got, want := one.Plan(one.Calculated(false)).SuiteDigest, hex.EncodeToString(sum[:]); got != want {
		t.Errorf("digest = %s, want %s", got, want)
	}
}

// TestPlan_ContextMetadataMatchesSavedRun saves a run, reads it back (jsonb
// reorders keys) and checks that the planned run of the same suite has the
// same persisted definition, as the baseline fallback for runs written by
// another implementation compares it.
func TestPlan_ContextMetadataMatchesSavedRun(t *testing.T) {
	for _, backend := range []string{"postgres", "sqlite"} {
		t.Run(backend, func(t *testing.T) {
			db := testdb.SQLite(t)
			if backend == "postgres" {
				db = testdb.Postgres(t)
			}
			ctx := context.Background()
			s := contextSuite(t)
			calculated := s.Calculated(false)
			run := mustExecute(t, s, answers(map[string]string{"inline": "30 days", "taken": "2 years", "none": "9-5", "g": "14 days"}), ExecOptions{})
			// Saved as another implementation would: its own digest, no writer.
			run.SuiteDigest, run.Summary = "other-implementation", models.JSON(`{}`)
			if err := db.InsertRun(ctx, run); err != nil {
				t.Fatal(err)
			}
			saved, err := db.GetRun(ctx, run.ID)
			if err != nil {
				t.Fatal(err)
			}
			if err := compare.SameDefinition(s.Plan(calculated), saved, calculated, nil); err != nil {
				t.Errorf("planned run vs saved run: %v", err)
			}
			noContext := contextSuite(t)
			noContext.Cases[0].Context = nil
			if err := compare.SameDefinition(noContext.Plan(calculated), saved, calculated, nil); err == nil {
				t.Error("a suite without the retrieval context has the same persisted definition")
			}
		})
	}
}
