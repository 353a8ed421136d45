package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// TestRunPage_JudgeUsage: the run page shows the judge usage recorded on
// the cases next to the agent's totals, failed calls and an unknown cost
// included, and "none recorded" for a run without a judge.
func TestRunPage_JudgeUsage(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	f := seedFixture(t, rw)
	judged := &models.Run{Suite: "Judged", Agent: "A", Version: "1", SuiteDigest: "dj",
		StartedAt: t0.Add(5 * time.Hour), FinishedAt: t0.Add(5*time.Hour + time.Second)}
	judged.Cases = []*models.CaseResult{{Position: 0, CaseID: "q", Name: "q", Status: models.StatusError, DurationMS: 10,
		Question: models.JSON(`"q"`), Output: models.JSON(`"a"`), InputTokens: i64(7),
		ResponseMetadata: models.JSON(`{"judge_usage":{"semantic_accuracy":{"calls":1,"errors":1,"attempts":3,"cached":0,` +
			`"input_tokens":200,"output_tokens":0,"cost":null}}}`),
		Metrics: []*models.MetricResult{{Position: 0, Name: "semantic_accuracy", Threshold: 0.5,
			ErrorDetails: models.JSON(`{"kind":"server_error","message":"HTTP 500"}`)}}}}
	if err := rw.InsertRun(context.Background(), judged); err != nil {
		t.Fatal(err)
	}
	base := MustServe(t, ro, mount).URL + mount
	for _, tc := range []struct {
		run  *models.Run
		want string
	}{
		{judged, "Judge usage (not in the agent's tokens and cost): 1 call (1 failed, 2 retries), 200 input tokens, 0 output tokens, cost unknown"},
		{f.NoJudge, "Judge usage (not in the agent's tokens and cost): none recorded"},
	} {
		r := mustGet(t, base+"/runs/"+tc.run.ID.String(), http.StatusOK)
		if got := strings.Join(strings.Fields(text(mustSelect(t, r.Doc, "p.judge-usage")[0])), " "); got != tc.want {
			t.Errorf("%s: %q\nwant %q", tc.run.Suite, got, tc.want)
		}
	}
}
