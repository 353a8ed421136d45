package suite

import (
	"encoding/json"
	"github.com/agentevals-go/agentevals/internal/testkit/testfile"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/models"
	"github.com/agentevals-go/agentevals/score"
)

func TestExportSuite(t *testing.T) {
	run := &models.Run{Suite: "S", Agent: "A", Version: "3", Cases: []*models.CaseResult{
		{CaseID: "q1", Name: "q1", Question: models.JSON(`"Hi?"`), ExpectedAnswer: models.JSON(`"Hello"`),
			MinimumScores: models.JSON(`{"exact_match": 1.0, "tone": 0.5}`), Metadata: models.JSON(`{}`)},
		{CaseID: "q2", Name: "Second", Question: models.JSON(`{"text": "x"}`),
			MinimumScores: models.JSON(`{"exact": 1, "tone": 0.7}`), Metadata: models.JSON(`{"id": 12345678901234567891}`)},
	}}
	exp, err := ExportSuite(run, ExportOptions{Registry: score.Builtins(), Evaluators: map[string]string{"exact": "exact_match"}})
	if err != nil {
		t.Fatal(err)
	}
	if len(exp.Unported) != 1 || exp.Unported[0].Metric != "tone" || strings.Join(exp.Unported[0].Questions, ",") != "q1,q2" {
		t.Errorf("unported = %+v, want tone on q1,q2", exp.Unported)
	}
	file := string(exp.File)
	for _, want := range []string{`"exact_match": 1.0`, `"exact": {`, `"type": "exact_match"`, `"name": "Second"`,
		`12345678901234567891`, `"version": "3"`, PlaceholderCommand[0]} {
		if !strings.Contains(file, want) {
			t.Errorf("exported file lacks %s:\n%s", want, file)
		}
	}
	var parsed struct {
		Questions []map[string]json.RawMessage `json:"questions"`
	}
	if err := json.Unmarshal(exp.File, &parsed); err != nil {
		t.Fatal(err)
	}
	if _, ok := parsed.Questions[0]["metadata"]; ok {
		t.Errorf("empty metadata exported: %s", parsed.Questions[0]["metadata"])
	}
	if _, ok := parsed.Questions[0]["name"]; ok {
		t.Errorf("a name equal to the id is exported")
	}

	run.Cases[1].Question = nil
	if _, err := ExportSuite(run, ExportOptions{Registry: score.Builtins()}); err == nil ||
		!strings.Contains(err.Error(), `question "q2": the question is null`) {
		t.Errorf("null question: err %v", err)
	}
	if _, err := ExportSuite(run, ExportOptions{Registry: score.Builtins(), Evaluators: map[string]string{"x": "nope"}}); err == nil ||
		!strings.Contains(err.Error(), `unknown type "nope"`) {
		t.Errorf("unknown --evaluator type: err %v", err)
	}
}

// TestExportSuite_VerifierForCustomEvaluator: a gem metric mapped to the
// verifier type is exported as a verifier check with the Rails-side
// placeholder command and a note of what to fill in; the file loads.
func TestExportSuite_VerifierForCustomEvaluator(t *testing.T) {
	run := &models.Run{Suite: "S", Agent: "A", Version: "1", Cases: []*models.CaseResult{
		{CaseID: "q1", Name: "q1", Question: models.JSON(`"Refund order 7"`), MinimumScores: models.JSON(`{"refund_issued": 1.0}`), Metadata: models.JSON(`{"order_id": 7}`)},
	}}
	exp, err := ExportSuite(run, ExportOptions{Registry: score.Builtins(), Evaluators: map[string]string{"refund_issued": score.Verifier}})
	if err != nil {
		t.Fatal(err)
	}
	file := string(exp.File)
	for _, want := range []string{`"refund_issued": {`, `"type": "verifier"`, `"script/agentevals_verifier.rb"`, `"worker": true`} {
		if !strings.Contains(file, want) {
			t.Errorf("exported file lacks %s:\n%s", want, file)
		}
	}
	if notes := strings.Join(exp.Notes, "\n"); !strings.Contains(notes, "refund_issued are exported as verifier checks") || !strings.Contains(notes, "evaluate blocks") {
		t.Errorf("notes %q do not say what to fill in", notes)
	}
	path := testfile.Write(t, t.TempDir(), "suite.json", file)
	if _, err := Load(path); err != nil {
		t.Errorf("the exported suite does not load: %v", err)
	}
}
