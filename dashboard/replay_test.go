package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"

	"github.com/agentevals-go/agentevals/models"
)

// TestServer_CaseReplayEvidence: the case page shows API replay evidence
// the way the reports do (verdict, requests with their match status,
// differences, requests never made), with the raw JSON kept in a
// <details> element.
func TestServer_CaseReplayEvidence(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	evidence := `{"api_replay":{"passed":false,
	  "declared":[{"method":"GET","url":"https://api.test/orders"},{"method":"POST","url":"https://api.test/labels"},{"method":"DELETE","url":"https://api.test/labels/L-1"}],
	  "observed":[{"status":"matched","method":"GET","url":"https://api.test/orders","query":{"id":["42"]},"interaction":0},
	    {"status":"mismatched","method":"POST","url":"https://api.test/labels","interaction":1,"differences":["json $.express: expected false, got true \u003cb\u003e"]}],
	  "missing":[{"method":"DELETE","url":"https://api.test/labels/L-1","interaction":2}]},"model":"fake-1"}`
	run := &models.Run{Suite: "Replay", Agent: "A", Version: "1", SuiteDigest: "r", StartedAt: t0, FinishedAt: t0.Add(1e9)}
	run.Cases = []*models.CaseResult{{Position: 0, CaseID: "labels", Name: "Labels", Status: models.StatusError, DurationMS: 5,
		Question: models.JSON(`"Ship it"`), ResponseMetadata: models.JSON(evidence),
		ErrorDetails: models.JSON(`{"message":"api replay: 1 mismatched request, 1 declared request never made"}`),
		Metrics:      []*models.MetricResult{metric(0, "exact_match", 1, nil, false, "")}}}
	if err := rw.InsertRun(context.Background(), run); err != nil {
		t.Fatal(err)
	}
	ts := MustServe(t, ro, mount)
	r := mustGet(t, ts.URL+mount+"/runs/"+run.ID.String()+"/cases/0", http.StatusOK)
	for _, tc := range []struct{ selector, want string }{
		{"p.replay-verdict", "API replay failed: 1 mismatched request, 1 declared request never made (3 declared, 1 matched)"},
		{"ul.replay-requests", "matched GET https://api.test/orders?id=42 (declared request 1)"},
		{"ul.replay-requests", "mismatched POST https://api.test/labels (declared request 2)"},
		{"ul.replay-differences", "json $.express: expected false, got true <b>"},
		{"ul.replay-requests", "never made DELETE https://api.test/labels/L-1 (declared request 3)"},
		{"details.replay-raw pre.replay", `"status": "mismatched"`},
		{"section pre", `"model": "fake-1"`},
	} {
		var found bool
		for _, n := range selectAll(r.Doc, tc.selector) {
			found = found || strings.Contains(strings.Join(strings.Fields(text(n)), " "), tc.want)
		}
		if !found {
			t.Errorf("%s does not show %q", tc.selector, tc.want)
		}
	}
	if len(selectAll(r.Doc, "ul.replay-differences b")) != 0 {
		t.Error("a difference became markup")
	}
}
