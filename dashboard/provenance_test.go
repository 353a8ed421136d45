package dashboard

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	"github.com/agentevals-go/agentevals/models"
)

// TestRunPage_Provenance: the run page says where the run was made (commit,
// branch, remote, CI job, host, directory), and when its baseline was made
// in another project, says that too; a run without provenance shows no
// Source.
func TestRunPage_Provenance(t *testing.T) {
	rw, ro := MustOpenDBs(t, "sqlite")
	mk := func(at time.Duration, summary string) *models.Run {
		r := &models.Run{Suite: "Prov", Agent: "A", Version: "1", SuiteDigest: "dp",
			StartedAt: t0.Add(at), FinishedAt: t0.Add(at + time.Second), Summary: models.JSON(summary)}
		r.Cases = []*models.CaseResult{{Position: 0, CaseID: "q", Name: "q", Status: models.StatusPassed, DurationMS: 1,
			Question: models.JSON(`"q"`), Output: models.JSON(`"a"`),
			Metrics: []*models.MetricResult{{Position: 0, Name: "exact", Threshold: 1, Score: f64(1), Passed: true}}}}
		if err := rw.InsertRun(context.Background(), r); err != nil {
			t.Fatal(err)
		}
		return r
	}
	mk(time.Hour, `{"provenance":{"commit":"aaaaaaaaaaaabbbb","remote":"https://git.example/org/other.git","host":"laptop","working_directory":"/home/b/other"}}`)
	now := mk(2*time.Hour, `{"provenance":{"branch":"main","ci":{"provider":"github-actions","run_url":"https://github.com/org/app/actions/runs/7"},`+
		`"commit":"0123456789abcdef","dirty":true,"host":"runner-1","remote":"https://git.example/org/app.git","working_directory":"/src/app"}}`)
	bare := mk(3*time.Hour, `{}`)
	base := MustServe(t, ro, mount).URL + mount
	r := mustGet(t, base+"/runs/"+now.ID.String(), http.StatusOK)
	src := strings.Join(strings.Fields(text(mustSelect(t, r.Doc, "dd.source")[0])), " ")
	if want := "commit 0123456789ab-dirty, branch main, remote https://git.example/org/app.git, CI github-actions https://github.com/org/app/actions/runs/7, host runner-1, directory /src/app"; src != want {
		t.Errorf("source %q\nwant %q", src, want)
	}
	if got := text(mustSelect(t, r.Doc, "dd.elsewhere")[0]); !strings.Contains(got, "the baseline was made in https://git.example/org/other.git on host laptop, this run in https://git.example/org/app.git on host runner-1") {
		t.Errorf("elsewhere %q", got)
	}
	r = mustGet(t, base+"/runs/"+bare.ID.String(), http.StatusOK)
	if r.Status == http.StatusOK && strings.Contains(r.Body, `class="source"`) {
		t.Errorf("a run without provenance shows a Source")
	}
}
