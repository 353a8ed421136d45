package dashboard

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// TestServer_HugeValuesAreShortened: a run whose metadata, question,
// expected answer, case metadata and response metadata hold 1 MB each
// (as an imported evidence file can) gets a run page and a case page of
// their first 64 KiB with a link to the whole values.
func TestServer_HugeValuesAreShortened(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	huge := strings.Repeat("long value ", 100_000)
	obj := models.MustJSON(map[string]any{"blob": huge})
	run := &models.Run{Suite: "Huge", Agent: "A", Version: "1", SuiteDigest: "d", StartedAt: t0, FinishedAt: t0.Add(time.Second),
		Metadata: obj, Summary: models.JSON(`{}`), Cases: []*models.CaseResult{{Position: 0, CaseID: "q", Name: "Q",
			Status: models.StatusPassed, Question: models.MustJSON(huge), ExpectedAnswer: models.MustJSON(huge),
			Metadata: obj, ResponseMetadata: obj, Output: models.MustJSON("ok")}}}
	if err := rw.InsertRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	ts := MustServe(t, ro, mount)
	for _, tc := range []struct {
		path  string
		notes int
	}{{"/runs/" + run.ID.String(), 1}, {"/runs/" + run.ID.String() + "/cases/0", 4}} {
		r := mustGet(t, ts.URL+mount+tc.path, 200)
		if len(r.Body) >= 1<<20 {
			t.Errorf("%s is %d bytes, want under 1 MB", tc.path, len(r.Body))
		}
		if n := strings.Count(r.Body, "Shortened to its first 64 KiB"); n != tc.notes {
			t.Errorf("%s has %d shortened notes, want %d", tc.path, n, tc.notes)
		}
		if !strings.Contains(r.Body, mount+"/runs/"+run.ID.String()+"/report.json") {
			t.Errorf("%s does not link the whole values", tc.path)
		}
	}
}
